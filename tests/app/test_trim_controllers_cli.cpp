// End-to-end: `sim trim` and `sim linearize --trim` on a scenario with controllers (issue 43,
// trap 1): the memory among the unknowns, each controller's held output in the table and the
// JSON, the trimmed scenario's header, and a linear model about a rest of the held plant.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/depth_hold.h"
#include "support/sim_process.h"

namespace fs = std::filesystem;
using uwsim::test::fresh_dir;
using uwsim::test::Outcome;
using uwsim::test::read_bytes;
using uwsim::test::run_sim;
using uwsim::test::write_file;

TEST_CASE("cli: sim trim under a depth-holding pose PID lists its integral and holds B − W, and linearize --trim holds it") {
  const fs::path dir = fresh_dir("trim_controllers");
  write_file(dir / "depth_hold.yaml", uwsim::test::depth_hold(false, "trim:\n  unknowns: [bodies.v/rov.down]\n"));
  const double B_minus_W = uwsim::test::kBlueRov2NetBuoyancy;
  const Outcome trim = run_sim("trim depth_hold.yaml -o trimmed.yaml --json trim.json", dir);
  REQUIRE(trim.exit_code == 0);
  CAPTURE(trim.output);
  CHECK(trim.output.find("controllers.depth.integral_z") != std::string::npos);
  CHECK(trim.output.find("controller depth") != std::string::npos);
  CHECK(trim.output.find("holds [0, 0, 1.98162") != std::string::npos);
  CHECK(trim.output.find("with the controllers' outputs held (the plant, not the closed loop)") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(read_bytes(dir / "trim.json"));
  CHECK(j["converged"] == true);
  REQUIRE(j["controllers"].size() == 1);
  CHECK(j["controllers"][0]["name"] == "depth");
  CHECK(j["controllers"][0]["output"][2].get<double>() == doctest::Approx(B_minus_W).epsilon(1e-9));
  CHECK(read_bytes(dir / "trimmed.yaml").find("# Controllers' integrators, filters and held outputs are not scenario keys") !=
        std::string::npos);

  const Outcome lin = run_sim("linearize depth_hold.yaml --trim -o lin.h5", dir);
  REQUIRE(lin.exit_code == 0);
  CHECK(lin.output.find("controllers: their outputs are held at what they hold at this point") != std::string::npos);
  const nlohmann::json l = nlohmann::json::parse(read_bytes(dir / "lin.json"));
  // Held at B − W, the vehicle is at rest: its heave acceleration is zero (held at 0, as before,
  // it would be (B − W)/(m + Z_ẇ) upwards).
  CHECK(std::abs(l["operating_point"]["rate"]["bodies.v/rov.w"].get<double>()) < 1e-9);
}
