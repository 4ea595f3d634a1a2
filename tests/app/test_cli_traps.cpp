// End-to-end: traps a new user met (issue 43, trap 5) — a mistyped subcommand is answered with
// the one meant, and a vehicle with an arm that surfaces is warned about once, not per link.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "support/sim_process.h"

namespace fs = std::filesystem;
using uwsim::test::fresh_dir;
using uwsim::test::kDefaultScenario;
using uwsim::test::Outcome;
using uwsim::test::run_sim;
using uwsim::test::write_file;

namespace {

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("cli: a mistyped subcommand that is no file is answered with the subcommand meant, exit 2") {
  const fs::path dir = fresh_dir("valdate");
  const Outcome typo = run_sim("valdate '" + kDefaultScenario + "'", dir);
  CHECK(typo.exit_code == 2);
  CHECK(typo.output.find("did you mean 'sim validate'?") != std::string::npos);
  CHECK(typo.output.find("argument not expected") == std::string::npos);
  CHECK(run_sim("linearise '" + kDefaultScenario + "'", dir).output.find("did you mean 'sim linearize'?") != std::string::npos);
  CHECK(run_sim("tirm", dir).output.find("did you mean 'sim trim'?") != std::string::npos);

  // A scenario is still a scenario: by its path, and even when its name is spelled like a subcommand.
  const Outcome plain = run_sim("-q '" + kDefaultScenario + "' --duration 0.1 -o a.h5", dir);
  CHECK(plain.exit_code == 0);
  fs::copy_file(kDefaultScenario, dir / "valdate");
  const Outcome file_named_so = run_sim("-q valdate --duration 0.1 -o b.h5", dir);
  CHECK(file_named_so.exit_code == 0);
  CHECK(fs::exists(dir / "b.h5"));
  // A missing file with no subcommand near it keeps its own message.
  const Outcome missing = run_sim("no_such_scenario.yaml", dir);
  CHECK(missing.exit_code == 2);
  CHECK(missing.output.find("did you mean") == std::string::npos);
}

TEST_CASE("cli: a vehicle with an arm rising through the surface is warned about once, naming its bodies above") {
  const fs::path dir = fresh_dir("surfacing");
  // The vehicle with the four-link arm of vehicles/bluerov2_arm.yaml made 15 N buoyant, 10 cm
  // down, and a lone buoyant float beside it: two trees, so two warnings (one per tree), where
  // the warning used to come once per body (six lines).
  write_file(dir / "surfacing.yaml", R"(name: surfacing
simulation: {duration: 2.0, step: 0.001, output_rate: 50.0}
include:
  - file: )" + std::string(UWSIM_SOURCE_DIR) + R"(/scenarios/vehicles/bluerov2_arm.yaml
    name: uvms
    position: [0.0, 0.0, 0.1]
    set: {bodies.bluerov2/rov.volume: 0.0139}
bodies:
  - {name: float, mass: 1.0, inertia: [0.01, 0.01, 0.01], volume: 0.002, initial: {position: [3.0, 0.0, 0.05]}}
)");
  const Outcome run = run_sim("surfacing.yaml -o surfacing.h5", dir);
  REQUIRE(run.exit_code == 0);
  CAPTURE(run.output);
  CHECK(count_of(run.output, "rose above the surface") == 2);
  CHECK(run.output.find("'uvms/bluerov2/rov' and the bodies joined to it rose above the surface") != std::string::npos);
  // In 2 s the vehicle and its arm's links rise through the surface one by one: all in one line.
  CHECK(run.output.find("whole buoyancy): 5 of 5 bodies, 'uvms/bluerov2/rov' at t = ") != std::string::npos);
  for (const char* link : {"base_link", "upper_arm", "forearm", "wrist"})
    CHECK(run.output.find(std::string("'uvms/arm/") + link + "' at t = ") != std::string::npos);
  CHECK(run.output.find("'float' rose above the surface") != std::string::npos);
  CHECK(run.output.find("whole buoyancy): 1 of 1 body, 'float' at t = 0 s (z = ") == std::string::npos);  // 5 cm down at t = 0
  CHECK(run.output.find("1 of 1 body, 'float' at t = ") != std::string::npos);

  // The result file keeps the same warnings, one line each.
  uwsim::test::ResultFile file(dir / "surfacing.h5");
  REQUIRE(file.ok());
  const std::string warnings = file.root_attribute("warnings");
  CAPTURE(warnings);
  CHECK(count_of(warnings, "rose above the surface") == 2);
  CHECK(std::count(warnings.begin(), warnings.end(), '\n') == 2);
}
