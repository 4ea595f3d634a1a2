#include "app/validate_command.h"

#include <cstdio>

#include "app/exit_codes.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"

namespace uwsim::app {

int validate_scenarios(const std::vector<std::string>& paths, const std::vector<std::string>& overrides,
                       bool quiet) {
  int result = kDone;
  for (const std::string& path : paths) {
    try {
      const scenario::Scenario scenario = scenario::load_scenario(path, overrides);
      const model::Model model = model::build_model(scenario);  // what `run` would build next
      if (!quiet) {
        const std::size_t bodies = model.bodies.size(), joints = scenario.joints.size();
        int constrained = 0;  // rows of the connectors (redundant ones included)
        for (const model::Connector& c : model.connectors) constrained += c.rows();
        std::printf("%s: valid (%zu %s, %zu %s, %zu %s, %d velocity coordinates, %d connector rows)\n", path.c_str(),
                    bodies, bodies == 1 ? "body" : "bodies", joints, joints == 1 ? "joint" : "joints",
                    model.connectors.size(), model.connectors.size() == 1 ? "connector" : "connectors", model.nv, constrained);
      }
    } catch (const scenario::ScenarioError& error) {
      for (const scenario::Diagnostic& d : error.diagnostics()) std::fprintf(stderr, "%s\n", scenario::format(d).c_str());
      result = kBadInput;
    }
  }
  return result;
}

}  // namespace uwsim::app
