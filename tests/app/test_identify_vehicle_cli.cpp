// sim identify --vehicle on recordings made by sim itself from known parameters (the BlueROV2
// Heavy driven by a CSV of motor PWM steps and sines), degraded as real logs are: binned to
// 0.2 s means, the inputs reaching the vehicle 0.3 s after the log says, noise, the heading
// zeroed at the start. The fit must find the known values back within its reported
// uncertainty; a fit to the clean recording to tight tolerance, with sway damping (no sway in
// the recording) reported as not determined; a model without the delay leaves residuals above
// the noise.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "spatial/rotation.h"
#include "support/recording.h"
#include "support/sim_process.h"

namespace {

namespace fs = std::filesystem;
using uwsim::test::fresh_dir;
using uwsim::test::run_sim;

const std::string kPart = std::string(UWSIM_SOURCE_DIR) + "/scenarios/vehicles/bluerov2_heavy.yaml";

// Motor PWM over 24 s: surge steps (motors 1–4), heave steps (5–8) and a pitching sine (5–8).
// The part's centre of buoyancy is raised to 3 cm above the CG here: with its own 1 cm the
// surge steps pitch it over (issue 38), and Euler-angle residuals near ±90° of pitch are
// meaningless.
std::string inputs_csv(double shift) {
  std::string out = "time,m1,m2,m3,m4,m5,m6,m7,m8\n";
  for (int k = 0; k <= 480; ++k) {
    const double t = 0.05 * k;
    const double surge = (t < 2 ? 0 : t < 8 ? 70 : t < 12 ? -60 : t < 18 ? 90 : 0);
    const double heave = (t < 4 ? 0 : t < 10 ? 80 : t < 14 ? -70 : t < 20 ? 50 : 0);
    const double pitch = 40.0 * std::sin(2 * M_PI * t / 5.0);
    const double m[8] = {1500 - surge, 1500 - surge, 1500 + surge, 1500 + surge,
                         1500 + heave + pitch, 1500 + heave + pitch, 1500 + heave - pitch, 1500 + heave - pitch};
    std::ostringstream row;
    row.precision(10);
    row << t + shift;
    for (double v : m) row << "," << v;
    out += row.str() + "\n";
  }
  return out;
}

std::string scenario_yaml(const std::string& inputs) {
  std::string y = "name: identify_vehicle_test\nsimulation: {duration: 24.0, integrator: rk4, step: 0.005, output_rate: 50.0}\n"
                  "include:\n  - file: " + kPart + "\n    name: heavy\n    position: [0.0, 0.0, 5.0]\n    set:\n"
                  "      bodies.rov.center_of_buoyancy: [0.0, 0.0, -0.03]\n";
  for (int k = 1; k <= 8; ++k) y += "      thrusters.motor" + std::to_string(k) + ".input: m" + std::to_string(k) + "\n";
  y += "inputs:\n";
  for (int k = 1; k <= 8; ++k)
    y += "  - {name: m" + std::to_string(k) + ", type: csv, file: " + inputs + ", column: m" + std::to_string(k) +
         ", interpolation: hold, units: us}\n";
  return y;
}

// The truth: damping and volume off the part's values; the initial heading 1 rad.
const std::vector<std::string> kTruth = {"bodies.heavy/rov.linear_damping=[20.0, 0.0, 40.0, 0.0, 0.8, 0.0]",
                                         "bodies.heavy/rov.quadratic_damping=[100.0, 217.0, 150.0, 1.192, 0.47, 1.5]",
                                         "bodies.heavy/rov.volume=0.01345", "bodies.heavy/rov.initial.rpy=[0.0, 0.0, 1.0]"};

struct Degrade {
  double bin = 0.0;      // s; 0: every sample as recorded
  double noise = 0.0;    // m/s, rad/s; angles get 0.6 of it (rad)
  bool zero_heading = false;
};

// The measured CSV of a recording.
std::string measured_csv(const uwsim::test::Recording& rec, const Degrade& g, unsigned seed) {
  const int b = rec.body("heavy/rov");
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, 1.0);
  const char* names[9] = {"u", "v", "w", "p", "q", "r", "roll", "pitch", "yaw"};
  std::string out = "time";
  for (int k = 0; k < 9; ++k) out += std::string(",bodies/heavy/rov/") + (k < 6 ? "velocity/" : "euler/") + names[k];
  out += ",bodies/heavy/rov/position/down\n";
  const double yaw0 = uwsim::spatial::euler_zyx_from_rotation(rec.bodies[0][static_cast<std::size_t>(b)].R_WB)[2];
  const auto sample = [&](std::size_t k) {
    const auto& s = rec.bodies[k][static_cast<std::size_t>(b)];
    std::array<double, 10> v{};
    for (int i = 0; i < 6; ++i) v[static_cast<std::size_t>(i)] = s.nu[i];
    const Eigen::Vector3d e = uwsim::spatial::euler_zyx_from_rotation(s.R_WB);
    for (int i = 0; i < 3; ++i) v[static_cast<std::size_t>(6 + i)] = e[i];
    if (g.zero_heading) v[8] = std::remainder(v[8] - yaw0, 2 * M_PI);
    v[9] = s.p_WB.z();
    return v;
  };
  const double dt = rec.t[1] - rec.t[0];
  const auto per_bin = static_cast<std::size_t>(std::lround(g.bin > 0 ? g.bin / dt : 1.0));
  for (std::size_t k0 = 0; k0 + per_bin <= rec.t.size(); k0 += per_bin) {
    std::array<double, 10> mean{};
    double t = 0.0;
    const auto first = sample(k0);
    for (std::size_t k = k0; k < k0 + per_bin; ++k) {
      auto v = sample(k);
      // Angles averaged on the branch of the bin's first sample: a bin across ±π would
      // otherwise average +π and −π to 0.
      for (std::size_t i = 6; i < 9; ++i) v[i] = first[i] + std::remainder(v[i] - first[i], 2 * M_PI);
      for (std::size_t i = 0; i < 10; ++i) mean[i] += v[i] / static_cast<double>(per_bin);
      t += rec.t[k] / static_cast<double>(per_bin);
    }
    for (std::size_t i = 6; i < 9; ++i) mean[i] = std::remainder(mean[i], 2 * M_PI);
    std::ostringstream row;
    row.precision(12);
    row << t;
    for (std::size_t i = 0; i < 10; ++i) row << "," << mean[i] + (i < 9 ? g.noise * (i >= 6 ? 0.6 : 1.0) * n(rng) : 0.0);
    out += row.str() + "\n";
  }
  return out;
}

struct Estimate {
  double value = NAN, sd = NAN;
  bool identified = false;
};

// The report's parameter table.
std::map<std::string, Estimate> estimates(const std::string& report) {
  std::map<std::string, Estimate> out;
  std::istringstream in(report);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    int index = 0;
    std::string name, value, sd;
    if (!(cells >> index >> name >> value >> sd)) continue;
    Estimate e;
    e.value = std::strtod(value.c_str(), nullptr);
    e.sd = std::strtod(sd.c_str(), nullptr);
    e.identified = line.find("NOT IDENTIFIED") == std::string::npos;
    out[name] = e;
  }
  return out;
}

struct Made {
  fs::path dir;
};

// Records the truth into `dir` (truth.yaml reads inputs shifted by `lag`; the fit's
// scenario.yaml the log's own inputs.csv) and writes measured.csv.
void make_recording(const fs::path& dir, double lag, const Degrade& g, unsigned seed, const std::string& stem) {
  uwsim::test::write_file(dir / (stem + ".inputs.csv"), inputs_csv(0.0));
  uwsim::test::write_file(dir / (stem + ".lagged.csv"), inputs_csv(lag));
  uwsim::test::write_file(dir / (stem + ".truth.yaml"), scenario_yaml(stem + ".lagged.csv"));
  uwsim::test::write_file(dir / (stem + ".yaml"), scenario_yaml(stem + ".inputs.csv"));
  const uwsim::test::Recording rec = uwsim::test::record((dir / (stem + ".truth.yaml")).string(), kTruth);
  uwsim::test::write_file(dir / (stem + ".measured.csv"), measured_csv(rec, g, seed));
}

const char* kUnknowns =
    "--unknown linear_damping/u,quadratic_damping/u,linear_damping/w,quadratic_damping/w,volume,delay,linear_damping/v";

}  // namespace

TEST_CASE("identify --vehicle: an undegraded recording gives the known damping and volume back to tight tolerance") {
  const fs::path dir = fresh_dir("identify_vehicle_clean");
  make_recording(dir, 0.0, {}, 1, "a");
  const auto r = run_sim(std::string("identify --vehicle --record a.yaml a.measured.csv ") + kUnknowns, dir);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  auto e = estimates(r.output);
  CHECK(e["linear_damping/u"].value == doctest::Approx(20.0).epsilon(2e-3));
  CHECK(e["quadratic_damping/u"].value == doctest::Approx(100.0).epsilon(2e-3));
  CHECK(e["linear_damping/w"].value == doctest::Approx(40.0).epsilon(2e-3));
  CHECK(e["quadratic_damping/w"].value == doctest::Approx(150.0).epsilon(2e-3));
  CHECK(e["volume"].value == doctest::Approx(0.01345).epsilon(1e-4));
  CHECK(std::abs(e["delay"].value) < 2e-3);
  // No sway at all: nothing depends on sway damping.
  CHECK_FALSE(e["linear_damping/v"].identified);
  CHECK(r.output.find("not determined by the data (no residual depends on it): linear_damping/v") != std::string::npos);
}

TEST_CASE("identify --vehicle: binned, lagged, noisy recordings with a zeroed heading are identified within their uncertainty") {
  const fs::path dir = fresh_dir("identify_vehicle_degraded");
  const Degrade g{0.2, 0.005, true};
  make_recording(dir, 0.3, g, 11, "a");
  make_recording(dir, 0.3, g, 12, "b");
  const auto r = run_sim(std::string("identify --vehicle --record a.yaml a.measured.csv --validate b.yaml b.measured.csv "
                                     "--write-part fitted.yaml --predictions predicted.csv ") + kUnknowns, dir);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  auto e = estimates(r.output);
  const std::map<std::string, double> truth = {{"linear_damping/u", 20.0}, {"quadratic_damping/u", 100.0}, {"linear_damping/w", 40.0},
                                               {"quadratic_damping/w", 150.0}, {"volume", 0.01345}, {"delay", 0.3}};
  for (const auto& [name, value] : truth) {
    INFO(name);
    CHECK(e[name].identified);
    CHECK(std::abs(e[name].value - value) <= 3.0 * e[name].sd);
  }
  // Not checked here: sway damping. With noise, each window restarts from a noisy sway speed
  // the model then lets decay, and the fit "sees" sway damping in the noise (errors in the
  // restart state; found 77 ± 13 kg/s against 0 on this recording): a known limitation,
  // README "Fitting a vehicle". The noise-free case above reports it as undetermined.
  // The part holds the fitted damping (the scenario's sway damping, not identified).
  const std::string part = uwsim::test::read_bytes(dir / "fitted.yaml");
  CHECK(part.find("linear_damping: [") != std::string::npos);
  CHECK(part.find("motor8") != std::string::npos);
  // --predictions: the validation recording's measured and predicted series; the RMSE of its
  // u columns is the report's free-run "fitted" u of b.measured.csv (printed to 3 digits).
  std::ifstream in(dir / "predicted.csv");
  std::string header, line;
  REQUIRE(std::getline(in, header));
  CHECK(header.rfind("time [s],bodies/heavy/rov/velocity/u [m/s],bodies/heavy/rov/velocity/u_predicted [m/s],", 0) == 0);
  CHECK(header.find("bodies/heavy/rov/euler/yaw_predicted [rad]") != std::string::npos);
  double sum = 0.0;
  int rows = 0;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    double t = NAN, u = NAN, u_predicted = NAN;
    char comma = 0;
    cells >> t >> comma >> u >> comma >> u_predicted;
    sum += (u - u_predicted) * (u - u_predicted), ++rows;
  }
  CHECK(rows == 119);  // 24 s in 0.2 s bins: 120 samples, the first the run's start
  // The report's last row for b.measured.csv with the fitted values: the free run's.
  std::istringstream report(r.output);
  std::string row;
  double report_u = NAN;
  while (std::getline(report, row))
    if (row.find("b.measured.csv") != std::string::npos && row.find(" fitted ") != std::string::npos)
      std::istringstream(row.substr(row.find(" fitted ") + 8)) >> report_u;
  CHECK(std::sqrt(sum / rows) == doctest::Approx(report_u).epsilon(5e-3));
}

// Motor PWM over 24 s for the centre of drag: sway steps (ArduSub's lateral factors +1 −1 +1 −1
// on motors 1–4) and surge steps, no yaw command. Off the origin, the sway and surge drag
// have a yaw moment, so yaw follows sway and surge only through the centre of drag.
std::string sway_inputs_csv() {
  std::string out = "time,m1,m2,m3,m4,m5,m6,m7,m8\n";
  for (int k = 0; k <= 480; ++k) {
    const double t = 0.05 * k;
    const double sway = (t < 1 ? 0 : t < 7 ? 90 : t < 11 ? -80 : t < 16 ? 0 : t < 21 ? 70 : 0);
    const double surge = (t < 11 ? 0 : t < 16 ? 80 : 0);
    const double m[8] = {1500 + sway - surge, 1500 - sway - surge, 1500 + sway + surge, 1500 - sway + surge, 1500, 1500, 1500, 1500};
    std::ostringstream row;
    row.precision(10);
    row << t;
    for (double v : m) row << "," << v;
    out += row.str() + "\n";
  }
  return out;
}

TEST_CASE("identify --vehicle: the centre of drag (cd/x, cd/y) comes back from sway and surge steps") {
  // Truth: the drag acting 4 cm ahead of and 2 cm to port of the origin. With the drag at the
  // origin the model turns no yaw from these inputs, so yaw rate alone tells the centre.
  // Clean (heading zeroed): back to 2e-3, as the clean case above. Binned to 0.2 s with
  // 0.005 noise: within 3 σ for cd/x; cd/y and sway damping came out 2 % and 1 % off, 3-9 σ:
  // each of the 6 windows restarts from one noisy sample of v and r, an error shared by all of
  // that window's residuals, which the σ (independent residuals) do not count (README
  // "Fitting a vehicle", errors-in-variables); bounded here by 5 %.
  const fs::path dir = fresh_dir("identify_vehicle_cd");
  uwsim::test::write_file(dir / "in.csv", sway_inputs_csv());
  uwsim::test::write_file(dir / "s.yaml", scenario_yaml("in.csv"));
  std::vector<std::string> truth = kTruth;
  truth.push_back("bodies.heavy/rov.center_of_drag=[0.04, -0.02, 0.0]");
  const uwsim::test::Recording rec = uwsim::test::record((dir / "s.yaml").string(), truth);
  uwsim::test::write_file(dir / "clean.csv", measured_csv(rec, {0.0, 0.0, true}, 31));
  uwsim::test::write_file(dir / "binned.csv", measured_csv(rec, {0.2, 0.005, true}, 31));
  // The fit starts from the truth's damping and volume (kTruth without the heading) and the
  // part's centre of drag, the origin.
  std::string sets;
  for (std::size_t k = 0; k + 1 < kTruth.size(); ++k) sets += " --set \"" + kTruth[k] + "\"";
  const std::map<std::string, double> want{{"cd/x", 0.04}, {"cd/y", -0.02}, {"quadratic_damping/v", 217.0}};
  const auto clean = run_sim("identify --vehicle --record s.yaml clean.csv --unknown cd/x,cd/y,quadratic_damping/v --write-part fitted.yaml" + sets, dir);
  INFO(clean.output);
  REQUIRE(clean.exit_code == 0);
  auto e = estimates(clean.output);
  for (const auto& [name, value] : want) {
    INFO(name);
    CHECK(e[name].identified);
    CHECK(e[name].value == doctest::Approx(value).epsilon(2e-3));
  }
  const std::string part = uwsim::test::read_bytes(dir / "fitted.yaml");
  CHECK(part.find("center_of_drag: [") != std::string::npos);
  const auto binned = run_sim("identify --vehicle --record s.yaml binned.csv --unknown cd/x,cd/y,quadratic_damping/v" + sets, dir);
  INFO(binned.output);
  REQUIRE(binned.exit_code == 0);
  e = estimates(binned.output);
  CHECK(std::abs(e["cd/x"].value - 0.04) <= 3.0 * e["cd/x"].sd);
  for (const auto& [name, value] : want) {
    INFO(name);
    CHECK(e[name].identified);
    CHECK(e[name].value == doctest::Approx(value).epsilon(0.05));
  }
}

TEST_CASE("identify --vehicle: a wrong model is not hidden: without the delay the residuals stay above the noise") {
  // The same degraded recording fitted without `delay`: surge and heave RMSE on the windows
  // well above the 0.005 m/s noise; with it, at the noise.
  const fs::path dir = fresh_dir("identify_vehicle_wrong");
  make_recording(dir, 0.3, {0.0, 0.005, false}, 21, "a");
  const auto with = run_sim(std::string("identify --vehicle --record a.yaml a.measured.csv ") + kUnknowns, dir);
  const auto without = run_sim("identify --vehicle --record a.yaml a.measured.csv "
                               "--unknown linear_damping/u,quadratic_damping/u,linear_damping/w,quadratic_damping/w,volume", dir);
  REQUIRE(with.exit_code == 0);
  REQUIRE(without.exit_code == 0);
  // The first "fitted" row of the windows' table: u is its first number.
  const auto fitted_u = [](const std::string& report) {
    const auto at = report.find(" fitted ");
    std::istringstream cells(report.substr(at + 8));
    double u = NAN;
    cells >> u;
    return u;
  };
  INFO(with.output);
  INFO(without.output);
  CHECK(fitted_u(with.output) < 0.0065);
  CHECK(fitted_u(without.output) > 1.5 * fitted_u(with.output));
}

TEST_CASE("identify --vehicle: a measured file without the velocities is refused, naming the series") {
  const fs::path dir = fresh_dir("identify_vehicle_refused");
  uwsim::test::write_file(dir / "in.csv", inputs_csv(0.0));
  uwsim::test::write_file(dir / "s.yaml", scenario_yaml("in.csv"));
  uwsim::test::write_file(dir / "m.csv", "time,bodies/heavy/rov/velocity/u\n0,0\n0.1,0\n0.2,nan\n");
  const auto r = run_sim("identify --vehicle --record s.yaml m.csv --unknown volume", dir);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("m.csv") != std::string::npos);
  const auto r2 = run_sim("identify --vehicle --record s.yaml s.yaml --unknown volume --write-part s.yaml", dir);
  CHECK(r2.exit_code == 2);
  CHECK(uwsim::test::read_bytes(dir / "s.yaml") == scenario_yaml("in.csv"));
}

// The part's T200 table (every motor of bluerov2_heavy.yaml has it) times `scale`, as a --set
// of thruster `motor`: the truth of a thruster weaker or stronger than its sisters, written
// here without the fit's own scaling code.
std::string scaled_table(int motor, double scale) {
  const double reverse[4][2] = {{1100.0, -39.913}, {1184.0, -28.832}, {1308.0, -13.239}, {1472.0, 0.0}};
  const double forward[6][2] = {{1528.0, 0.0}, {1624.0, 8.532}, {1728.0, 21.771}, {1840.0, 41.678}, {1864.0, 46.189}, {1900.0, 51.485}};
  std::ostringstream out;
  out.precision(12);
  out << "thrusters.heavy/motor" << motor << ".table={reverse: [";
  for (int k = 0; k < 4; ++k) out << (k ? ", [" : "[") << reverse[k][0] << ", " << scale * reverse[k][1] << "]";
  out << "], forward: [";
  for (int k = 0; k < 6; ++k) out << (k ? ", [" : "[") << forward[k][0] << ", " << scale * forward[k][1] << "]";
  out << "]}";
  return out.str();
}

TEST_CASE("identify --vehicle: one thruster's thrust scale and a constant yaw moment come back from sway and surge steps") {
  // Truth: motor1 (front right) 15 % weak, motor3 (rear right) 10 % strong, and a constant
  // 0.15 N m yaw moment in the body frame (a tether's pull). No yaw command: the yaw comes from
  // the unequal thrusters (their lever about z) while they push and from the moment always.
  // The fit starts from equal thrusters and no moment, the truth's damping and volume.
  const fs::path dir = fresh_dir("identify_vehicle_thruster_scale");
  uwsim::test::write_file(dir / "in.csv", sway_inputs_csv());
  uwsim::test::write_file(dir / "s.yaml", scenario_yaml("in.csv"));
  std::vector<std::string> truth = kTruth;
  truth.push_back(scaled_table(1, 0.85));
  truth.push_back(scaled_table(3, 1.10));
  truth.push_back("forces=[{name: tether, body: heavy/rov, frame: body, moment: [0.0, 0.0, 0.15]}]");
  const uwsim::test::Recording rec = uwsim::test::record((dir / "s.yaml").string(), truth);
  uwsim::test::write_file(dir / "clean.csv", measured_csv(rec, {0.0, 0.0, true}, 41));
  uwsim::test::write_file(dir / "binned.csv", measured_csv(rec, {0.2, 0.005, true}, 41));
  std::string sets;
  for (std::size_t k = 0; k + 1 < kTruth.size(); ++k) sets += " --set \"" + kTruth[k] + "\"";
  const std::string unknowns = " --unknown thrust_scale/motor1,thrust_scale/heavy/motor3,moment/z";
  const std::map<std::string, double> want{{"thrust_scale/motor1", 0.85}, {"thrust_scale/heavy/motor3", 1.10}, {"moment/z", 0.15}};
  const auto clean = run_sim("identify --vehicle --record s.yaml clean.csv --write-part fitted.yaml" + unknowns + sets, dir);
  INFO(clean.output);
  REQUIRE(clean.exit_code == 0);
  auto e = estimates(clean.output);
  for (const auto& [name, value] : want) {
    INFO(name);
    CHECK(e[name].identified);
    CHECK(e[name].value == doctest::Approx(value).epsilon(2e-3));
  }
  // The part: motor1's table at 0.85 of the T200's (51.485 N at 1900 µs), motor2's as it was;
  // the moment, which a part cannot hold, in its header.
  const std::string part = uwsim::test::read_bytes(dir / "fitted.yaml");
  const auto motor1 = part.find("name: motor1"), motor2 = part.find("name: motor2");
  REQUIRE(motor1 != std::string::npos);
  REQUIRE(motor2 != std::string::npos);
  const std::string m1 = part.substr(motor1, motor2 - motor1);
  const auto at = m1.find("[1900");
  REQUIRE(at != std::string::npos);
  CHECK(std::strtod(m1.c_str() + m1.find(',', at) + 1, nullptr) == doctest::Approx(0.85 * 51.485).epsilon(2e-3));
  CHECK(part.find("[1900.0, 51.485]", motor2) != std::string::npos);
  CHECK(part.find("# moment [0, 0, 0.15") != std::string::npos);
  // Binned to 0.2 s with noise: within 3 σ.
  const auto binned = run_sim("identify --vehicle --record s.yaml binned.csv" + unknowns + sets, dir);
  INFO(binned.output);
  REQUIRE(binned.exit_code == 0);
  e = estimates(binned.output);
  for (const auto& [name, value] : want) {
    INFO(name);
    CHECK(e[name].identified);
    CHECK(std::abs(e[name].value - value) <= 3.0 * e[name].sd);
  }
}

TEST_CASE("identify --vehicle: a thruster name that is not one, or not one only, is refused with the scenario's thrusters") {
  const fs::path dir = fresh_dir("identify_vehicle_thruster_name");
  uwsim::test::write_file(dir / "in.csv", sway_inputs_csv());
  uwsim::test::write_file(dir / "s.yaml", scenario_yaml("in.csv"));
  std::string m = "time";
  for (const char* c : {"velocity/u", "velocity/v", "velocity/w", "velocity/p", "velocity/q", "velocity/r", "euler/roll", "euler/pitch"})
    m += std::string(",bodies/heavy/rov/") + c;
  m += "\n0,0,0,0,0,0,0,0,0\n0.1,0,0,0,0,0,0,0,0\n0.2,0,0,0,0,0,0,0,0\n";
  uwsim::test::write_file(dir / "m.csv", m);
  const auto r = run_sim("identify --vehicle --record s.yaml m.csv --unknown thrust_scale/motor9", dir);
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("no thruster 'motor9'") != std::string::npos);
  CHECK(r.output.find("heavy/motor8") != std::string::npos);
}

TEST_CASE("identify --vehicle --format json: the text report's estimates, σ, undetermined parameters and RMSE, parsed") {
  // The same fit twice (deterministic): as text and as JSON. Every number of the text (6 digits
  // for estimates, 3 for σ and RMSE) must be the JSON's rounded; the sway damping nothing
  // depends on is in both as undetermined.
  const fs::path dir = fresh_dir("identify_vehicle_json");
  make_recording(dir, 0.0, {}, 1, "a");
  make_recording(dir, 0.0, {0.2, 0.005, false}, 2, "b");
  const std::string cmd = std::string("identify --vehicle --record a.yaml a.measured.csv --validate b.yaml b.measured.csv --max-iterations 3 ") + kUnknowns;
  const auto text = run_sim(cmd, dir);
  const auto js = run_sim(cmd + " --format json -o report.json", dir);
  INFO(text.output);
  REQUIRE(text.exit_code == 0);
  REQUIRE(js.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(uwsim::test::read_bytes(dir / "report.json"));
  const auto e = estimates(text.output);
  REQUIRE(j["parameters"].size() == 7);
  for (const auto& p : j["parameters"]) {
    const std::string name = p["name"];
    INFO(name);
    REQUIRE(e.count(name) == 1);
    CHECK(p["identified"].get<bool>() == e.at(name).identified);
    CHECK(p["estimate"].get<double>() == doctest::Approx(e.at(name).value).epsilon(1e-5));
    if (p["std_dev"].is_null()) CHECK(std::isnan(e.at(name).sd));
    else CHECK(p["std_dev"].get<double>() == doctest::Approx(e.at(name).sd).epsilon(1e-2));
  }
  REQUIRE(j["undetermined"].size() == 1);
  CHECK(j["undetermined"][0] == nlohmann::json::array({"linear_damping/v"}));
  CHECK(j["rank"].get<int>() == 6);
  CHECK(text.output.find("rank of J 6 of 7") != std::string::npos);
  const auto& c = j["correlation"];
  REQUIRE(c.size() == 7);
  CHECK(c[0][0].get<double>() == doctest::Approx(1.0));
  CHECK(c[0][1].get<double>() == doctest::Approx(c[1][0].get<double>()));
  // The free-run RMSE of the validation recording with the fitted values: u is the first number
  // of the text's last "fitted" row for b.measured.csv.
  std::istringstream report(text.output);
  std::string row;
  double report_u = NAN, report_r = NAN;
  while (std::getline(report, row))
    if (row.find("b.measured.csv") != std::string::npos && row.find(" fitted ") != std::string::npos) {
      std::istringstream cells(row.substr(row.find(" fitted ") + 8));
      double v[6];
      for (double& x : v) cells >> x;
      report_u = v[0], report_r = v[5];
    }
  int found = 0;
  for (const auto& r : j["rmse"])
    if (r["set"] == "validation" && r["run"] == "free" && r["model"] == "fitted") {
      ++found;
      CHECK(r["recording"] == "b.measured.csv");
      CHECK(r["rmse"]["u"].get<double>() == doctest::Approx(report_u).epsilon(5e-3));
      CHECK(r["rmse"]["r"].get<double>() == doctest::Approx(report_r).epsilon(5e-3));
    }
  CHECK(found == 1);
  CHECK(j["rmse"].size() == 8);  // 2 recordings × windows, free run × scenario, fitted
}

// Motor PWM over 24 s: one surge command held from the start (motors 1–4), nothing else.
std::string steady_surge_csv() {
  std::string out = "time,m1,m2,m3,m4,m5,m6,m7,m8\n";
  for (int k = 0; k <= 48; ++k) out += std::to_string(0.5 * k) + ",1430,1430,1570,1570,1500,1500,1500,1500\n";
  return out;
}

TEST_CASE("identify --vehicle: thrust scales that the data cannot tell from each other or from the damping are reported so") {
  const fs::path dir = fresh_dir("identify_vehicle_scales_apart");
  // 1. The global scale with all eight thrusters' own: the global is their common factor, so
  //    one direction of the nine is not seen at all (exactly, to first order).
  make_recording(dir, 0.0, {}, 1, "a");
  std::string all = " --unknown thrust_scale";
  for (int k = 1; k <= 8; ++k) all += ",thrust_scale/motor" + std::to_string(k);
  const auto nine = run_sim("identify --vehicle --record a.yaml a.measured.csv --max-iterations 2" + all, dir);
  INFO(nine.output);
  REQUIRE(nine.exit_code == 0);
  const bool undetermined = nine.output.find("not determined by the data (only a combination of them): thrust_scale") != std::string::npos;
  const bool correlated = nine.output.find("estimates correlated by 0.9 or more") != std::string::npos &&
                          nine.output.find("thrust_scale – thrust_scale/motor") != std::string::npos;
  CHECK((undetermined || correlated));
  // 2. Surge held at one speed (the windows after 12 s, when it has settled) with the drag acting
  //    at the thrusters' height: thrust·scale = drag(u) is all the data say, so the scale of
  //    the surge thrusters and the quadratic surge damping come only as a ratio.
  uwsim::test::write_file(dir / "steady.csv", steady_surge_csv());
  uwsim::test::write_file(dir / "s.yaml", scenario_yaml("steady.csv"));
  std::vector<std::string> truth = kTruth;
  truth.push_back("bodies.heavy/rov.center_of_drag=[0.0, 0.0, 0.085]");
  const uwsim::test::Recording rec = uwsim::test::record((dir / "s.yaml").string(), truth);
  uwsim::test::write_file(dir / "m.csv", measured_csv(rec, {0.0, 0.0, true}, 51));
  std::string sets;
  for (const std::string& t : truth)
    if (t.find("initial") == std::string::npos) sets += " --set \"" + t + "\"";
  const auto steady = run_sim("identify --vehicle --record s.yaml m.csv --from 12 --window 4 --max-iterations 2 --unknown thrust_scale,quadratic_damping/u" + sets, dir);
  INFO(steady.output);
  REQUIRE(steady.exit_code == 0);
  CHECK((steady.output.find("not determined by the data (only a combination of them): thrust_scale quadratic_damping/u") != std::string::npos ||
         steady.output.find("thrust_scale – quadratic_damping/u: ") != std::string::npos));
  // The first 12 s, the speed rising from rest, where the known added mass sets how fast: the
  // two come apart (still correlated, 0.94 here, but the scaled J far from singular).
  const auto rising = run_sim("identify --vehicle --record s.yaml m.csv --to 12 --window 4 --max-iterations 2 --unknown thrust_scale,quadratic_damping/u" + sets, dir);
  INFO(rising.output);
  REQUIRE(rising.exit_code == 0);
  CHECK(rising.output.find("not determined") == std::string::npos);
  CHECK(rising.output.find("thrust_scale – quadratic_damping/u: 1\n") == std::string::npos);
  const auto scaled_condition = [](const std::string& report) {
    const std::string key = "columns scaled to unit norm: ";
    return std::strtod(report.c_str() + report.find(key) + key.size(), nullptr);
  };
  CHECK(scaled_condition(rising.output) < 100.0);
  CHECK(scaled_condition(steady.output) > 1e4);
}
