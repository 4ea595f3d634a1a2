// `sim identify` end to end: a two-joint arm with a gear motor and a ball-screw lever driven by
// known currents, identified from its own result file; the estimates written back as a part
// reproduce them; towing-tank data give paper 000's drag coefficients; bad input exits 2 with
// the file, line and column.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include <hdf5.h>

#include "analysis/identification.h"
#include "app/text_output.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"
#include "support/fixed_trees.h"
#include "support/sim_process.h"

namespace fs = std::filesystem;
using uwsim::test::write_file;
using uwsim::test::Outcome;
using uwsim::test::run_sim;
using namespace uwsim;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("uwsim_identify_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The arm as a part (a shoulder about a horizontal axis with a gear motor, an elbow with a
// lever), and a scenario whose joint PDs make it follow multi-sine paths with motor currents;
// no dry friction (its sign at reversals is --min-speed's business, tested in the scenario
// folder).
const char* kArmPart = R"(# yaml-language-server: $schema=../schemas/part.schema.json
manipulators:
  - name: arm
    base: world
    mount: {xyz: [0.0, 0.0, 0.0], rpy: [1.5707963267948966, 0.0, 0.0]}
    convention: mdh
    links:
      - joint:
          type: revolute
          mdh: {alpha: 0.0, d: 0.0, theta: 0.0, r: 0.0}
          damping: 0.2
          actuator: {type: gear_motor, torque_constant: 0.05, gear_ratio: 50.0, rotor_inertia: 1.0e-05, viscous_friction: 2.0e-05}
        mass: 3.0
        center_of_gravity: [0.2, 0.01, 0.0]
        inertia: [0.01, 0.05, 0.05]
      - joint:
          type: revolute
          mdh: {alpha: 0.0, d: 0.4, theta: 0.0, r: 0.0}
          limits: {lower: -1.0, upper: 1.0}
          damping: 0.1
          actuator: {type: linear_actuator, torque_constant: 0.03, gear_ratio: 5.0, rotor_inertia: 1.0e-05, viscous_friction: 1.0e-05,
                     pitch: 0.002, l1: 0.25, l2: 0.05, angle_offset: 1.5707963267948966, nut_mass: 0.2}
        mass: 1.5
        center_of_gravity: [0.15, -0.02, 0.0]
        inertia: [0.004, 0.02, 0.02]
)";

const char* kScenario = R"(# yaml-language-server: $schema=../schemas/scenario.schema.json
name: two_link
simulation: {duration: 30.0, step: 0.001, output_rate: 100.0}
environment: {water_density: 1.2}
include:
  - {file: arm.yaml, name: rig}
inputs:
  - {name: q1, type: fourier, units: rad, frequency: 0.1, harmonics: [[0.5, 0.2], [0.3, -0.3], [0.1, 0.1], [0.05, 0.05]]}
  - {name: q2, type: fourier, units: rad, frequency: 0.13, harmonics: [[0.3, -0.1], [0.1, 0.15], [-0.05, 0.05]]}
controllers:
  - {name: c1, type: pid, joint: rig/arm/joint1, rate: 500.0, setpoint: q1, kp: 70.0, kd: 7.0, feed_forward: true}
  - {name: c2, type: pid, joint: rig/arm/joint2, rate: 500.0, setpoint: q2, kp: 100.0, kd: 10.0, feed_forward: true}
)";


// A CSV record of the arm of kScenario along q1(t) (a sum of sines) with joint 2 held at 0.2 rad,
// its currents from the model's own inverse dynamics at the exact rates (support/fixed_trees.h).
std::string still_elbow_record(const fs::path& dir) {
  const scenario::Scenario sc = scenario::load_scenario((dir / "scenario.yaml").string());
  const dynamics::Model model = model::build_model(sc);
  analysis::Regressor reg(model, {});
  std::string text = "time,joints/rig/arm/joint1/position,joints/rig/arm/joint1/current,joints/rig/arm/joint2/position,"
                     "joints/rig/arm/joint2/current\n";
  char line[256];
  for (int k = 0; k <= 3000; ++k) {
    const double t = 0.01 * k, w1 = 2.0 * M_PI * 0.1, w2 = 2.0 * M_PI * 0.23;
    const std::vector<double> q = {0.5 * std::sin(w1 * t) + 0.3 * std::sin(w2 * t + 1.0), 0.2};
    const std::vector<double> qd = {0.5 * w1 * std::cos(w1 * t) + 0.3 * w2 * std::cos(w2 * t + 1.0), 0.0};
    const std::vector<double> qdd = {-0.5 * w1 * w1 * std::sin(w1 * t) - 0.3 * w2 * w2 * std::sin(w2 * t + 1.0), 0.0};
    const std::vector<double> i = test::drive_at(model, reg, q, qd, qdd);
    std::snprintf(line, sizeof line, "%.17g,%.17g,%.17g,%.17g,%.17g\n", t, q[0], i[0], q[1], i[1]);
    text += line;
  }
  return text;
}

// Writes `value` into sample `index` of a 1-D dataset of an HDF5 file.
void poke(const fs::path& file, const char* dataset, hsize_t index, double value) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  REQUIRE(f >= 0);
  const hid_t d = H5Dopen2(f, dataset, H5P_DEFAULT);
  REQUIRE(d >= 0);
  const hid_t space = H5Dget_space(d);
  const hsize_t count = 1;
  H5Sselect_hyperslab(space, H5S_SELECT_SET, &index, nullptr, &count, nullptr);
  const hid_t one = H5Screate_simple(1, &count, nullptr);
  CHECK(H5Dwrite(d, H5T_NATIVE_DOUBLE, one, space, H5P_DEFAULT, &value) >= 0);
  H5Sclose(one), H5Sclose(space), H5Dclose(d), H5Fclose(f);
}

}  // namespace

TEST_CASE("identify cli: an arm driven along known paths gives back its base parameters, and --write-part reproduces them") {
  const fs::path dir = scratch("arm");
  fs::create_directories(dir / "schemas");  // the written part's modeline points at the nearest schemas/ above
  fs::copy_file(std::string(UWSIM_SOURCE_DIR) + "/schemas/part.schema.json", dir / "schemas" / "part.schema.json");
  write_file(dir / "arm.yaml", kArmPart);
  write_file(dir / "scenario.yaml", kScenario);
  Outcome out = run_sim("-q scenario.yaml -o run.h5", dir);
  INFO(out.output);
  REQUIRE(out.exit_code == 0);
  out = run_sim("identify scenario.yaml run.h5 --from 1 --format json -o fit.json --write-part identified/arm.yaml --predictions p.csv", dir);
  INFO(out.output);
  REQUIRE(out.exit_code == 0);
  const nlohmann::json fit = nlohmann::json::parse(std::ifstream(dir / "fit.json"));
  REQUIRE(fit["models"].size() == 2);
  const auto& with = fit["models"][0];
  CHECK(with["name"] == "with_actuators");
  // Exact records, positions differentiated through the filter: the currents are predicted to
  // 1e-3 of their peak (6.7 and 12.8 A), and every base parameter the data determine to 1 % (σ
  // below 1 % of its value) is within 5 % of the scenario's: exact records still carry the
  // filter's and the differences' small errors, which σ (from the residual) does not describe.
  // (The elbow's joint friction hides behind the motor's, 60 times larger at the joint: σ is
  // half its value.)
  CHECK(with["rmse"][0].get<double>() < 6.7e-3);
  CHECK(with["rmse"][1].get<double>() < 12.8e-3);
  double largest = 0.0;
  int determined = 0;
  for (const auto& p : with["parameters"]) largest = std::max(largest, std::abs(p["scenario"].get<double>()));
  for (const auto& p : with["parameters"]) {
    INFO(p["expression"].get<std::string>());
    const double e = p["estimate"], s = p["scenario"], sd = p["std"];
    if (sd > 1e-2 * std::abs(s)) continue;
    ++determined;
    CHECK(std::abs(e - s) < 5e-2 * std::abs(s));
  }
  CHECK(determined >= 9);
  // The classical model cannot follow the motors' configuration-dependent inertia and friction.
  CHECK(fit["models"][1]["rmse"][1].get<double>() > 5.0 * with["rmse"][1].get<double>());
  CHECK(fs::exists(dir / "p.csv"));

  // The written part, included under the same name, has the identified base parameters.
  std::ifstream part_in(dir / "identified" / "arm.yaml");
  std::string first;
  std::getline(part_in, first);
  CHECK(first == "# yaml-language-server: $schema=../schemas/part.schema.json");
  std::string scenario_text = kScenario;
  scenario_text.replace(scenario_text.find("file: arm.yaml"), 14, "file: identified/arm.yaml");
  const scenario::Scenario rewritten = scenario::load_scenario_text(scenario_text, (dir / "check.yaml").string());
  const dynamics::Model model = model::build_model(rewritten);
  analysis::Regressor reg(model, {});
  const analysis::BaseParameters base = analysis::base_parameters_of(reg, 1);
  const Eigen::VectorXd beta = base.of(reg.model_values());
  REQUIRE(beta.size() == static_cast<Eigen::Index>(with["parameters"].size()));
  for (Eigen::Index k = 0; k < beta.size(); ++k) {
    const auto& p = with["parameters"][static_cast<std::size_t>(k)];
    CHECK(base.expression(static_cast<int>(k), reg.parameters()) == p["expression"].get<std::string>());
    // Estimates more than 3σ from the scenario's value are written; the rest keep it.
    const double e = p["estimate"], s = p["scenario"], sd = p["std"];
    CHECK(beta[k] == doctest::Approx(std::abs(e - s) > 3.0 * sd ? e : s).epsilon(1e-9).scale(1e-9 * largest));
  }
  fs::remove_all(dir);
}

TEST_CASE("identify cli: towing-tank points give paper 000's drag coefficients (eq. 38)") {
  const fs::path dir = scratch("drag");
  std::ostringstream csv;
  csv.precision(17);
  csv << "speed,force,variance\n";
  for (int k = -10; k <= 10; ++k) {
    if (k == 0) continue;
    const double u = 0.1 * k;
    csv << u << "," << 34.96 * std::abs(u) * u + 0.5 * u << ",0.25\n";
  }
  write_file(dir / "tank.csv", csv.str());
  Outcome out = run_sim("identify --drag tank.csv --speed speed --force force --variance variance --format json -o drag.json", dir);
  INFO(out.output);
  REQUIRE(out.exit_code == 0);
  const nlohmann::json r = nlohmann::json::parse(std::ifstream(dir / "drag.json"));
  CHECK(r["quadratic"].get<double>() == doctest::Approx(34.96).epsilon(1e-10));
  CHECK(r["linear"].get<double>() == doctest::Approx(0.5).epsilon(1e-9));
  CHECK(r["points"] == 20);
  out = run_sim("identify --drag tank.csv --speed speed --force thrust", dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("tank.csv:1:1: error: no column 'thrust' (--force)") != std::string::npos);
  // Every run at one speed: the split of c1·|u| + c2 is unknown, so no split is printed.
  write_file(dir / "one.csv", "speed,force\n0.5,10\n-0.5,-10\n0.5,10\n");
  out = run_sim("identify --drag one.csv --speed speed --force force -o one.txt", dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("one.csv: every point is at one speed, |u| = 0.5") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "one.txt"));
  fs::remove_all(dir);
}

TEST_CASE("identify cli: missing series, a bad cell and a free-floating scenario exit 2 with where and why") {
  const fs::path dir = scratch("errors");
  write_file(dir / "arm.yaml", kArmPart);
  write_file(dir / "scenario.yaml", kScenario);
  write_file(dir / "log.csv", "time,joints/rig/arm/joint1/position,joints/rig/arm/joint1/current,q2,joints/rig/arm/joint2/current\n"
                         "0.0,0.1,1.0,0.2,0.1\n0.01,0.1,x,0.2,0.1\n");
  Outcome out = run_sim("identify scenario.yaml log.csv", dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("log.csv:3:10: error: column 'joints/rig/arm/joint1/current': expected a number, got 'x'") != std::string::npos);
  write_file(dir / "log.csv", "time,joints/rig/arm/joint1/position,joints/rig/arm/joint1/current,q2,joints/rig/arm/joint2/current\n"
                         "0.0,0.1,1.0,0.2,0.1\n0.01,0.1,1.0,0.2,0.1\n");
  out = run_sim("identify scenario.yaml log.csv", dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("log.csv:1:1: error: no series 'joints/rig/arm/joint2/position' (the position of joint rig/arm/joint2); "
                        "name the column with --column joints/rig/arm/joint2/position=COLUMN") != std::string::npos);
  out = run_sim("identify scenario.yaml log.csv --column joints/rig/arm/joint2/position=q2", dir);
  CHECK(out.exit_code == 2);  // now only too few samples
  CHECK(out.output.find("too few") != std::string::npos);
  out = run_sim("identify " + std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_push.yaml log.csv", dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("body 'rov' is free-floating") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("identify cli: a joint that never moves leaves base parameters undetermined: the rank and which, exit 2, nothing written") {
  const fs::path dir = scratch("still");
  write_file(dir / "arm.yaml", kArmPart);
  write_file(dir / "scenario.yaml", kScenario);
  write_file(dir / "still.csv", still_elbow_record(dir));
  Outcome out = run_sim("identify scenario.yaml still.csv -o fit.txt --write-part part.yaml --predictions p.csv", dir);
  INFO(out.output);
  CHECK(out.exit_code == 2);
  // 2 × 2961 rows (3001 samples less 20 at each end). The elbow's friction and motor terms
  // multiply its speed and acceleration, 0 in every sample:
  // five base parameters nothing observes. Its link's inertia is still seen (it holds the load).
  CHECK(out.output.find("still.csv: the data do not determine every base parameter (With actuator dynamics): the observation "
                        "matrix F (5922 × 13) has rank 8; not determined:") != std::string::npos);
  for (const char* p : {"#9 rig/arm/joint2.fv", "#10 rig/arm/joint2.fc", "#11 rig/arm/joint2.Jm", "#12 rig/arm/joint2.fvm",
                        "#13 rig/arm/joint2.fcm"})
    CHECK(out.output.find(std::string(p) + ": no observation depends on it") != std::string::npos);
  CHECK(out.output.find("joint rig/arm/joint2 does not move") != std::string::npos);
  CHECK(out.output.find("joint rig/arm/joint1 does not move") == std::string::npos);
  CHECK(out.output.find("nan") == std::string::npos);
  for (const char* file : {"fit.txt", "part.yaml", "p.csv"}) CHECK_FALSE(fs::exists(dir / file));
  // With --min-speed the elbow's rows are left out too: its link's parameters then reach the
  // fit only through the shoulder's rows, combined with the shoulder link's.
  out = run_sim("identify scenario.yaml still.csv --min-speed 0.05", dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find(": the data give only a combination of them") != std::string::npos);
  CHECK(out.output.find("joint rig/arm/joint2 does not move at --min-speed or faster") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("identify cli: a NaN sample in a result file and a burst of samples 1e-12 s apart are refused, exit 2") {
  const fs::path dir = scratch("samples");
  write_file(dir / "arm.yaml", kArmPart);
  write_file(dir / "scenario.yaml", kScenario);
  REQUIRE(run_sim("-q scenario.yaml --duration 5 -o run.h5", dir).exit_code == 0);
  poke(dir / "run.h5", "/joints/rig/arm/joint1/position", 200, std::nan(""));
  Outcome out = run_sim("identify scenario.yaml run.h5", dir);
  INFO(out.output);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("run.h5: error: series joints/rig/arm/joint1/position: /joints/rig/arm/joint1/position[200] is nan (at t = 2 s): values must be finite") != std::string::npos);
  // 1500 samples 1e-12 s apart, then 500 at 100 Hz: the median interval is 1e-12 s, and a grid at
  // it over 5 s would hold 5e12 samples (the old code asked for them and aborted).
  std::string csv = "time,joints/rig/arm/joint1/position,joints/rig/arm/joint1/current,joints/rig/arm/joint2/position,"
                    "joints/rig/arm/joint2/current\n";
  char line[160];
  for (int k = 0; k < 2000; ++k) {
    const double t = k < 1500 ? 1e-12 * k : 0.01 * (k - 1499);
    std::snprintf(line, sizeof line, "%.17g,%.17g,1.0,0.2,0.5\n", t, 0.1 * std::sin(t));
    csv += line;
  }
  write_file(dir / "burst.csv", csv);
  out = run_sim("identify scenario.yaml burst.csv", dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("burst.csv: error: the samples are not evenly spaced: at their median interval, 1e-12 s, a uniform grid "
                        "over 0–5 s would hold 5e+12 samples for the 2000 recorded there") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("identify cli: CSV cells of --predictions are quoted where a name holds a comma, a quote or a line end") {
  CHECK(app::csv_cell("joints/rig/arm/joint1/current") == "joints/rig/arm/joint1/current");
  CHECK(app::csv_cell("joints/a,b/current") == "\"joints/a,b/current\"");
  CHECK(app::csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(app::csv_cell("two\nlines") == "\"two\nlines\"");
  CHECK(app::csv_cell(" padded") == "\" padded\"");
  CHECK(app::csv_cell("") == "");
}
