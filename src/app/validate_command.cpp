#include "app/validate_command.h"

#include <spdlog/spdlog.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>

#include "app/exit_codes.h"
#include "app/rk4_stiffness.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"
#include "scenario/read_file.h"

namespace uwsim::app {

namespace {

// A YAML part (a file scenarios include) says so in its modeline, as editors read it:
// "# yaml-language-server: $schema=../schemas/part.schema.json", among its first comment lines.
// A URDF robot (*.urdf) is a part too, as an include reads it.
bool is_part_file(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension == ".urdf") return true;
  std::string why;  // a file that cannot be read is left to the loader to report
  const std::optional<std::string> text = scenario::read_input_file(path, why, scenario::kMaxYamlBytes);
  if (!text) return false;
  std::istringstream in(*text);
  std::string line;
  for (int n = 0; n < 20 && std::getline(in, line); ++n) {
    if (n == 0 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    if (line[first] != '#') return false;  // the comments before the first key
    const std::size_t schema = line.find("$schema=");
    if (schema == std::string::npos) continue;
    std::string target = line.substr(schema + 8);
    while (!target.empty() && (target.back() == '\r' || target.back() == ' ')) target.pop_back();
    const std::string suffix = "part.schema.json";
    return target.size() >= suffix.size() && target.compare(target.size() - suffix.size(), suffix.size(), suffix) == 0;
  }
  return false;
}

std::string yaml_quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A part is checked as a scenario that includes it does: its problems are reported in it, at
// its own lines (and its names carry the prefix "part/").
scenario::Scenario load_part(const std::string& path, const std::vector<std::string>& overrides) {
  std::error_code ec;
  const std::string absolute = std::filesystem::absolute(path, ec).string();
  const std::string wrapper = "name: part_check\nsimulation: {duration: 1.0}\ninclude:\n  - {file: " +
                              yaml_quoted(absolute) + ", name: part}\n";
  return scenario::load_scenario_text(wrapper, "(a scenario including " + path + ")", overrides);
}

}  // namespace

int validate_scenarios(const std::vector<std::string>& paths, const std::vector<std::string>& overrides,
                       bool quiet) {
  int result = kDone;
  for (const std::string& path : paths) {
    try {
      const bool part = is_part_file(path);
      const scenario::Scenario scenario =
          part ? load_part(path, overrides) : scenario::load_scenario(path, overrides);
      if (!quiet)  // -q: errors only
        for (const std::string& warning : scenario.warnings) std::fprintf(stderr, "%s\n", warning.c_str());
      const dynamics::Model model = model::build_model(scenario);  // what `run` would build next
      // What `run` would warn of before stepping; a part has no step of its own to judge.
      if (!quiet && !part)
        for (const std::string& warning : rk4_stiffness_warnings(model, scenario::integration_settings(scenario.simulation)))
          spdlog::warn("{}", warning);
      if (!quiet) {
        const std::size_t bodies = model.bodies.size(), joints = scenario.joints.size();
        int constrained = 0;  // rows of the connectors (redundant ones included)
        for (const dynamics::Connector& c : model.connectors) constrained += c.rows();
        std::printf("%s: valid%s (%zu %s, %zu %s, %zu %s, %d velocity coordinates, %d connector rows)\n", path.c_str(),
                    part ? " part" : "", bodies, bodies == 1 ? "body" : "bodies", joints, joints == 1 ? "joint" : "joints",
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
