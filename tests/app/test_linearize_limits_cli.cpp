// End-to-end: `sim linearize` says which joints sit on a limit and which modes are their stops'
// (issue 43, trap 3), in its table, its JSON and its HDF5 file, and `--inside-limits`
// linearises just inside the range.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/sim_process.h"

namespace fs = std::filesystem;
using uwsim::test::fresh_dir;
using uwsim::test::Outcome;
using uwsim::test::read_bytes;
using uwsim::test::run_sim;
using uwsim::test::write_file;

namespace {

// The pendulum of tests/analysis/test_linear_limits.cpp: hanging on its lower limit.
const char* kPendulum = R"(name: pendulum_on_stop
simulation: {duration: 1.0}
environment: {water_density: 0.0}
bodies:
  - {name: link, mass: 2.0, inertia: [0.01, 0.02, 0.01], center_of_gravity: [0.0, 0.0, 0.3]}
joints:
  - {name: j, type: revolute, parent: world, child: link, axis: [0.0, 1.0, 0.0], limits: {lower: 0.0, upper: 1.0}}
)";

nlohmann::json read_json(const fs::path& path) { return nlohmann::json::parse(read_bytes(path)); }

}  // namespace

TEST_CASE("cli: sim linearize flags a joint on its limit and marks its stop's mode, and --inside-limits moves it off") {
  const fs::path dir = fresh_dir("linearize_limits");
  write_file(dir / "pendulum.yaml", kPendulum);
  const Outcome on = run_sim("linearize pendulum.yaml -o on.h5", dir);
  REQUIRE(on.exit_code == 0);
  CAPTURE(on.output);
  CHECK(on.output.find("joints at a limit, where the stop's spring switches on") != std::string::npos);
  CHECK(on.output.find("    j on its lower limit 0 (q = 0)") != std::string::npos);
  CHECK(on.output.find("! the stop of j") != std::string::npos);
  const nlohmann::json j = read_json(dir / "on.json");
  REQUIRE(j["joints_at_limits"].size() == 1);
  CHECK(j["joints_at_limits"][0]["joint"] == "j");
  CHECK(j["joints_at_limits"][0]["limit"] == "lower");
  CHECK(j["joints_at_limits"][0]["beyond"] == false);
  REQUIRE(j["joints_at_limits"][0]["modes"].size() == 2);
  const std::size_t stop = j["joints_at_limits"][0]["modes"][0].get<std::size_t>();
  CHECK(j["modes"][stop]["natural_frequency"].get<double>() > 86.0);  // ten times the pendulum's 8.6 rad/s
  CHECK(j["moved_inside_limits"].empty());
  uwsim::test::ResultFile h5(dir / "on.h5");
  REQUIRE(h5.ok());
  CHECK(h5.root_attribute("joints_at_limits") == "j on its lower limit 0 (q = 0)\n");

  const Outcome inside = run_sim("linearize pendulum.yaml --inside-limits -o inside.h5", dir);
  REQUIRE(inside.exit_code == 0);
  CAPTURE(inside.output);
  CHECK(inside.output.find("--inside-limits: moved 0.001 inside the range") != std::string::npos);
  CHECK(inside.output.find("j on its lower limit 0 (q = 0), now q = 0.001") != std::string::npos);
  CHECK(inside.output.find("! the stop of") == std::string::npos);
  const nlohmann::json k = read_json(dir / "inside.json");
  CHECK(k["joints_at_limits"].empty());
  REQUIRE(k["moved_inside_limits"].size() == 1);
  CHECK(k["moved_inside_limits"][0]["to"].get<double>() == doctest::Approx(1e-3).epsilon(1e-12));
  CHECK(k["operating_point"]["state"][0].get<double>() == doctest::Approx(1e-3).epsilon(1e-12));
  for (const auto& mode : k["modes"]) CHECK(mode["natural_frequency"].get<double>() < 20.0);
}

TEST_CASE("cli: the Alpha 5 at home has three joints on their limits, whose ~36 Hz modes are marked as stops") {
  // README "Equilibria and linear models": axis_d, axis_c and axis_b sit on their lower limits
  // at home; each dominates one of three nearly undamped pairs of 224–245 rad/s (36–39 Hz: half
  // the 50 Hz stop's stiffness gives 35.4 Hz, the arm's coupling a little more), and
  // --inside-limits leaves no mode above 10 rad/s.
  const fs::path dir = fresh_dir("linearize_alpha5");
  const std::string scenario = std::string(UWSIM_SOURCE_DIR) + "/scenarios/kolano2024/alpha5_rest.yaml";
  const Outcome home = run_sim("linearize '" + scenario + "' -o home.h5", dir);
  REQUIRE(home.exit_code == 0);
  const nlohmann::json j = read_json(dir / "home.json");
  REQUIRE(j["joints_at_limits"].size() == 3);
  for (const auto& c : j["joints_at_limits"]) {
    CAPTURE(c.dump());
    CHECK(c["limit"] == "lower");
    CHECK(c["beyond"] == false);
    REQUIRE(c["modes"].size() == 2);
    const auto& mode = j["modes"][c["modes"][0].get<std::size_t>()];
    const double f_hz = mode["natural_frequency"].get<double>() / (2.0 * M_PI);
    CHECK(f_hz > 34.0);
    CHECK(f_hz < 40.0);
    CHECK(mode["damping_ratio"].get<double>() < 1e-3);
  }
  const Outcome inside = run_sim("linearize '" + scenario + "' --inside-limits -o inside.h5", dir);
  REQUIRE(inside.exit_code == 0);
  const nlohmann::json k = read_json(dir / "inside.json");
  CHECK(k["moved_inside_limits"].size() == 3);
  for (const auto& mode : k["modes"]) CHECK(mode["natural_frequency"].get<double>() < 10.0);
}
