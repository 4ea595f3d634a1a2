// `sim compare` and `sim identify --drag` for real logs (issue 38, item 6): a window of A's
// times (--from, --to), a mapping file written once for a log's layout (errors at its line and
// column), --series over mapped pairs too, one warning naming the CSV columns without a unit
// (and --in-a-units to say so deliberately), and --drag --write-part writing the scenario's
// part or saying why not. Every figure checked is derived here from the data the test writes.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "model/build_model.h"
#include "scenario/load_scenario.h"
#include "support/crafted_hdf5.h"
#include "support/sim_process.h"

namespace fs = std::filesystem;
using uwsim::test::has;
using uwsim::test::write_file;
using uwsim::test::read_bytes;
using uwsim::test::CraftedFile;
using uwsim::test::fresh_dir;
using uwsim::test::ramp;
using uwsim::test::run_sim;

namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// A: /time 0, 0.1, …, 10 s (101 samples), /pos = sin t in m, /vel = cos t in m/s.
constexpr int kSamples = 101;
double a_pos(double t) { return std::sin(t); }
double a_vel(double t) { return std::cos(t); }

void write_a(const fs::path& dir) {
  CraftedFile f((dir / "a.h5").string());
  const std::vector<double> t = ramp(kSamples);
  std::vector<double> pos, vel;
  for (double tk : t) pos.push_back(a_pos(tk)), vel.push_back(a_vel(tk));
  f.series("/time", t);
  f.series("/pos", pos);
  f.text("/pos", "units", "m");
  f.series("/vel", vel);
  f.text("/vel", "units", "m/s");
}

// B at A's times under `header`, each row's cells from `cells(t)`.
template <class Cells>
void write_b(const fs::path& path, const std::string& header, Cells cells) {
  std::ostringstream csv;
  csv.precision(17);
  csv << header << "\n";
  for (double t : ramp(kSamples)) csv << t << "," << cells(t) << "\n";
  write_file(path, csv.str());
}

nlohmann::json series_named(const nlohmann::json& report, const std::string& name) {
  for (const auto& s : report["series"])
    if (s["name"] == name) return s;
  FAIL("no series " << name << " in the report");
  return {};
}

}  // namespace

TEST_CASE("compare real logs: --from and --to compare only A's samples within them, an offset there alone gives its RMSE") {
  const fs::path dir = fresh_dir("window");
  write_a(dir);
  // B = A + 0.25 m on [2, 5] s (31 of A's samples) and A + 1 m elsewhere (70 samples).
  const auto inside = [](double t) { return t > 1.95 && t < 5.05; };
  write_b(dir / "b.csv", "time [s],pos [m]", [&](double t) { return a_pos(t) + (inside(t) ? 0.25 : 1.0); });
  auto out = run_sim("compare a.h5 b.csv --from 1.95 --to 5.05 --format json -o window.json", dir);
  INFO(out.output);
  REQUIRE(out.exit_code == 0);
  nlohmann::json report = nlohmann::json::parse(read_bytes(dir / "window.json"));
  CHECK(report["from"].get<double>() == 1.95);
  CHECK(report["to"].get<double>() == 5.05);
  nlohmann::json pos = series_named(report, "pos");
  CHECK(pos["samples"] == 31);
  CHECK(pos["start"].get<double>() == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(pos["stop"].get<double>() == doctest::Approx(5.0).epsilon(1e-12));
  CHECK(pos["rmse"].get<double>() == doctest::Approx(0.25).epsilon(1e-12));
  CHECK(pos["max_error"].get<double>() == doctest::Approx(0.25).epsilon(1e-12));
  CHECK(pos["mean_error"].get<double>() == doctest::Approx(0.25).epsilon(1e-12));
  // The default DTW window is 10 % of the span compared: 0.3 s, not 1 s.
  CHECK(pos["dtw_window"].get<double>() == doctest::Approx(0.3).epsilon(1e-12));

  // Without the window, every sample: RMSE² = (31·0.25² + 70·1²)/101.
  REQUIRE(run_sim("compare a.h5 b.csv --format json -o all.json", dir).exit_code == 0);
  pos = series_named(nlohmann::json::parse(read_bytes(dir / "all.json")), "pos");
  CHECK(pos["samples"] == kSamples);
  CHECK(pos["rmse"].get<double>() == doctest::Approx(std::sqrt((31 * 0.0625 + 70.0) / kSamples)).epsilon(1e-12));

  // One side only: --from 5.05 keeps 5.1 … 10 s (50 samples, all with 1 m); the table says so.
  out = run_sim("compare a.h5 b.csv --from 5.05", dir);
  REQUIRE(out.exit_code == 0);
  CHECK(has(out.output, "within both spans and --from 5.05 s;"));
  REQUIRE(run_sim("compare a.h5 b.csv --from 5.05 --format json -o after.json", dir).exit_code == 0);
  pos = series_named(nlohmann::json::parse(read_bytes(dir / "after.json")), "pos");
  CHECK(pos["samples"] == 50);
  CHECK(pos["rmse"].get<double>() == doctest::Approx(1.0).epsilon(1e-12));

  // B keeps its samples around the window: B given at 0 and 10 s only (the line 0.3 t) is
  // interpolated at A's 4, 4.1, …, 6 s; e_k = 0.3 t_k − sin t_k there.
  write_file(dir / "coarse.csv", "time,pos [m]\n0,0\n10,3\n");
  REQUIRE(run_sim("compare a.h5 coarse.csv --from 3.95 --to 6.05 --format json -o coarse.json", dir).exit_code == 0);
  pos = series_named(nlohmann::json::parse(read_bytes(dir / "coarse.json")), "pos");
  double sum2 = 0.0;
  for (int k = 40; k <= 60; ++k) sum2 += std::pow(0.3 * (0.1 * k) - a_pos(0.1 * k), 2);
  CHECK(pos["samples"] == 21);
  CHECK(pos["rmse"].get<double>() == doctest::Approx(std::sqrt(sum2 / 21)).epsilon(1e-9));
  // The shift search is of the window too: B = A 0.3 s late on [2, 8] s and 5 m off outside.
  write_b(dir / "late.csv", "time,pos [m]", [](double t) { return t > 1.95 && t < 8.05 ? a_pos(t - 0.3) : a_pos(t) + 5.0; });
  REQUIRE(run_sim("compare a.h5 late.csv --from 3 --to 7 --max-shift 1 --format json -o late.json", dir).exit_code == 0);
  pos = series_named(nlohmann::json::parse(read_bytes(dir / "late.json")), "pos");
  CHECK(pos["shift"].get<double>() == doctest::Approx(0.3).epsilon(0.01));
  CHECK(pos["rmse_at_shift"].get<double>() < 2e-3);  // linear interpolation of B between its 0.1 s samples

  // Checked like every numeric option, and against each other; a window without 2 samples.
  out = run_sim("compare a.h5 b.csv --from nan", dir);
  CHECK(out.exit_code == 2);
  CHECK(has(out.output, "--from: expected a finite number of seconds, got nan"));
  CHECK(run_sim("compare a.h5 b.csv --to inf", dir).exit_code == 2);
  out = run_sim("compare a.h5 b.csv --from 6 --to 3 -o r.txt", dir);
  CHECK(out.exit_code == 2);
  CHECK(has(out.output, "--from 6 s is after --to 3 s"));
  out = run_sim("compare a.h5 b.csv --from 2.01 --to 2.09 -o r.txt", dir);
  CHECK(out.exit_code == 2);
  CHECK(has(out.output, "series pos: 0 of A's samples lie within --from 2.01 --to 2.09 s (A spans 0–10 s)"));
  CHECK_FALSE(fs::exists(dir / "r.txt"));
}

TEST_CASE("compare real logs: a --map-file pairs as --map does, and its mistakes are reported at file:line:column") {
  const fs::path dir = fresh_dir("map_file");
  write_a(dir);
  // A log's own names, with offsets 0.1 m and −0.2 m/s.
  write_b(dir / "tank.csv", "t [s],x [m],spd [m/s]", [](double t) {
    std::ostringstream row;
    row.precision(17);
    row << a_pos(t) + 0.1 << "," << a_vel(t) - 0.2;
    return row.str();
  });
  write_file(dir / "tank.map", "# the tank's layout, written once\n\npos = x\n  vel=spd   # the DVL's speed\n");
  auto out = run_sim("compare a.h5 tank.csv --time-column t --map-file tank.map --format json -o file.json", dir);
  INFO(out.output);
  REQUIRE(out.exit_code == 0);
  const nlohmann::json by_file = nlohmann::json::parse(read_bytes(dir / "file.json"));
  REQUIRE(by_file["series"].size() == 2);
  CHECK(series_named(by_file, "pos")["b_name"] == "x");
  CHECK(series_named(by_file, "pos")["rmse"].get<double>() == doctest::Approx(0.1).epsilon(1e-12));
  CHECK(series_named(by_file, "vel")["b_name"] == "spd");
  CHECK(series_named(by_file, "vel")["mean_error"].get<double>() == doctest::Approx(-0.2).epsilon(1e-12));
  REQUIRE(run_sim("compare a.h5 tank.csv --time-column t --map pos=x --map vel=spd --format json -o args.json", dir).exit_code == 0);
  CHECK(nlohmann::json::parse(read_bytes(dir / "args.json"))["series"] == by_file["series"]);

  // --series filters mapped pairs too (before: a mapped pair was always compared).
  REQUIRE(run_sim("compare a.h5 tank.csv --time-column t --map-file tank.map --series vel --format json -o vel.json", dir).exit_code == 0);
  const nlohmann::json vel = nlohmann::json::parse(read_bytes(dir / "vel.json"));
  REQUIRE(vel["series"].size() == 1);
  CHECK(vel["series"][0]["name"] == "vel");
  REQUIRE(run_sim("compare a.h5 tank.csv --time-column t --map pos=x --map vel=spd --series 'p*' --format json -o p.json", dir).exit_code == 0);
  const nlohmann::json p = nlohmann::json::parse(read_bytes(dir / "p.json"));
  REQUIRE(p["series"].size() == 1);
  CHECK(p["series"][0]["name"] == "pos");

  // Names neither file has, at the column each name starts.
  write_file(dir / "typos.map", "pos = xx\n\tposs = x\n");
  out = run_sim("compare a.h5 tank.csv --time-column t --map-file typos.map -o r.txt", dir);
  CHECK(out.exit_code == 2);
  CHECK(has(out.output, "typos.map:1:7: error: no series 'xx' in B (tank.csv); did you mean 'x'?"));
  CHECK(has(out.output, "typos.map:2:2: error: no series 'poss' in A (a.h5); did you mean 'pos'?"));
  // Problems are listed up to 20, then counted: a map of 60 000 unknown names (0.8 MB) stays quick.
  std::string many;
  for (int k = 0; k < 60000; ++k) many += "nope" + std::to_string(k) + " = x\n";
  write_file(dir / "many.map", many);
  out = run_sim("compare a.h5 tank.csv --time-column t --map-file many.map", dir);
  CHECK(out.exit_code == 2);
  CHECK(count(out.output, "error: no series 'nope") == 20);
  CHECK(has(out.output, "many.map: error: and 59980 more pairs not checked after these problems"));
  // A line of another form, a name paired twice (in the file, or by --map and the file).
  write_file(dir / "form.map", "pos = x\nvel spd\n = spd\n");
  out = run_sim("compare a.h5 tank.csv --time-column t --map-file form.map -o r.txt", dir);
  CHECK(out.exit_code == 2);
  CHECK(has(out.output, "form.map:2:1: error: expected `A_NAME = B_NAME`"));
  CHECK(has(out.output, "form.map:3:2: error: expected `A_NAME = B_NAME`"));
  write_file(dir / "twice.map", "pos = x\n  pos = spd\n");
  out = run_sim("compare a.h5 tank.csv --time-column t --map-file twice.map -o r.txt", dir);
  CHECK(out.exit_code == 2);
  CHECK(has(out.output, "twice.map:2:3: error: A's pos is paired twice: with B's x at twice.map:1, and here with spd"));
  out = run_sim("compare a.h5 tank.csv --time-column t --map pos=x --map-file tank.map -o r.txt", dir);
  CHECK(out.exit_code == 2);
  CHECK(has(out.output, "tank.map:3:1: error: A's pos is paired twice: with B's x by --map pos=x, and here with x"));
  CHECK(has(run_sim("compare a.h5 tank.csv --time-column t --map-file none.map", dir).output, "none.map: error: no such file"));
  CHECK_FALSE(fs::exists(dir / "r.txt"));
  // The map file is an input: a report aimed at it is refused and it is left as it was.
  const std::string map_text = read_bytes(dir / "tank.map");
  CHECK(run_sim("compare a.h5 tank.csv --time-column t --map-file tank.map -o ./tank.map", dir).exit_code == 2);
  CHECK(read_bytes(dir / "tank.map") == map_text);
}

TEST_CASE("compare real logs: CSV columns without a unit are named in one warning, unless --in-a-units says so") {
  const fs::path dir = fresh_dir("unitless");
  write_a(dir);
  // B in A's units, neither column with a unit: compared as they are (an offset of 0.5 each).
  write_b(dir / "b.csv", "time,pos,vel", [](double t) {
    std::ostringstream row;
    row.precision(17);
    row << a_pos(t) + 0.5 << "," << a_vel(t) + 0.5;
    return row.str();
  });
  auto out = run_sim("compare a.h5 b.csv --format json -o r.json", dir);
  INFO(out.output);
  REQUIRE(out.exit_code == 0);
  CHECK(count(out.output, "give no unit") == 1);
  CHECK(has(out.output, "warning: 2 column(s) of B (b.csv) give no unit and are compared in A's: pos (m), vel (m/s)."));
  CHECK(has(out.output, "--in-a-units"));
  for (const auto& s : nlohmann::json::parse(read_bytes(dir / "r.json"))["series"])
    CHECK(s["rmse"].get<double>() == doctest::Approx(0.5).epsilon(1e-12));
  // Said deliberately: no warning, the same figures.
  out = run_sim("compare a.h5 b.csv --in-a-units", dir);
  CHECK(out.exit_code == 0);
  CHECK_FALSE(has(out.output, "give no unit"));
  // A unit from a --units file is a unit; a mapped column is named by B's name.
  write_file(dir / "b.units", "pos: m\n");
  out = run_sim("compare a.h5 b.csv --units b.units --map vel=vel", dir);
  CHECK(out.exit_code == 0);
  CHECK(has(out.output, "warning: 1 column(s) of B (b.csv) give no unit and are compared in A's: vel (m/s)."));
  write_b(dir / "speed.csv", "time,speed", [](double t) { return a_vel(t); });
  CHECK(has(run_sim("compare a.h5 speed.csv --map vel=speed", dir).output, "speed (m/s, as A's vel)"));
  // Nothing to warn of where every column has its unit, nor about a result file B.
  write_b(dir / "units.csv", "time,pos [m],vel [m/s]", [](double t) {
    std::ostringstream row;
    row.precision(17);
    row << a_pos(t) << "," << a_vel(t);
    return row.str();
  });
  out = run_sim("compare a.h5 units.csv", dir);
  CHECK(out.exit_code == 0);
  CHECK_FALSE(has(out.output, "warning"));
  out = run_sim("compare a.h5 a.h5 --in-a-units", dir);
  CHECK(out.exit_code == 2);
  CHECK(has(out.output, "--in-a-units is for a CSV file's columns without a unit"));
}

TEST_CASE("compare real logs: a CSV in tools/import_log's layout needs no map, and no unit warning") {
  // import_log's measured CSV (README "Real logs"): `#` lines, `time [s]`, sim's series names,
  // every column with its unit. A run of the default scenario against such a file made from it,
  // with surge 0.05 m/s too fast between 1 and 3 s only.
  const fs::path dir = fresh_dir("import_layout");
  REQUIRE(run_sim("-q " + uwsim::test::kDefaultScenario + " --duration 4 -o run.h5", dir).exit_code == 0);
  // The run's times (0, 0.02, …, 4 s) and its u and w, read with the HDF5 C API.
  const std::string h5 = (dir / "run.h5").string();
  std::vector<double> t, u, w;
  {
    const hid_t file = H5Fopen(h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(file >= 0);
    const auto read_all = [&](const char* name, std::size_t columns) {
      const hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
      const hid_t space = H5Dget_space(set);
      hsize_t dims[2] = {0, 0};
      H5Sget_simple_extent_dims(space, dims, nullptr);
      std::vector<double> v(dims[0] * columns);
      H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
      H5Sclose(space);
      H5Dclose(set);
      return v;
    };
    t = read_all("/time", 1);
    const std::vector<double> velocity = read_all("/bodies/rov/velocity", 6);
    for (std::size_t k = 0; k < t.size(); ++k) u.push_back(velocity[6 * k]), w.push_back(velocity[6 * k + 2]);
    H5Fclose(file);
  }
  std::ostringstream csv;
  csv.precision(17);
  csv << "# measured: rosbag2 /odom (nav_msgs/msg/Odometry)\n# world ENU -> NED, body FLU -> FRD\n"
         "time [s],bodies/rov/velocity/u [m/s],bodies/rov/velocity/w [m/s]\n";
  for (std::size_t k = 0; k < t.size(); ++k) csv << t[k] << "," << u[k] + (t[k] >= 1.0 && t[k] <= 3.0 ? 0.05 : 0.0) << "," << w[k] << "\n";
  csv << "# 0 samples dropped\n";
  write_file(dir / "run.measured.csv", csv.str());
  const auto out = run_sim("compare run.h5 run.measured.csv --from 1 --to 3 --format json -o r.json", dir);
  INFO(out.output);
  REQUIRE(out.exit_code == 0);
  CHECK_FALSE(has(out.output, "warning"));
  CHECK_FALSE(has(out.output, "not compared"));
  const nlohmann::json report = nlohmann::json::parse(read_bytes(dir / "r.json"));
  REQUIRE(report["series"].size() == 2);
  const nlohmann::json su = series_named(report, "bodies/rov/velocity/u");
  CHECK(su["samples"] == 101);  // 1, 1.02, …, 3 s
  CHECK(su["rmse"].get<double>() == doctest::Approx(0.05).epsilon(1e-9));
  CHECK(series_named(report, "bodies/rov/velocity/w")["rmse"].get<double>() < 1e-12);
}

TEST_CASE("identify drag: --write-part writes the scenario's body with the fitted axis, or says why not") {
  const fs::path dir = fresh_dir("drag_part");
  // f = 34.96|v|v + 0.5 v in sway (paper 000's surge figures, on another axis): points at 20 speeds.
  std::ostringstream csv;
  csv.precision(17);
  csv << "speed,force\n";
  for (int k = -10; k <= 10; ++k)
    if (k != 0) csv << 0.1 * k << "," << 34.96 * std::abs(0.1 * k) * 0.1 * k + 0.5 * 0.1 * k << "\n";
  write_file(dir / "tank.csv", csv.str());
  const std::string vehicle = std::string(UWSIM_SOURCE_DIR) + "/scenarios/vehicles/bluerov2.yaml";
  write_file(dir / "scenario.yaml", "name: drag_part\nsimulation: {duration: 1.0, step: 0.01}\ninclude:\n  - {file: " + vehicle + ", name: left}\n");
  write_file(dir / "can.yaml", "name: can\nsimulation: {duration: 1.0, step: 0.01}\nbodies:\n  - {name: can, mass: 2.0, shape: {cylinder: {radius: 0.05, length: 0.3}, "
                          "center: [0.1, 0.0, 0.0]}}\n");

  // Without a scenario, a body and an axis there is no part: exit 2, nothing written (was: exit 0, no file).
  auto out = run_sim("identify --drag tank.csv --speed speed --force force --write-part drag.yaml", dir);
  CHECK(out.exit_code == 2);
  CHECK(has(out.output, "--write-part with --drag: the fit gives c1 and c2 of one axis, not a part"));
  CHECK_FALSE(fs::exists(dir / "drag.yaml"));
  out = run_sim("identify scenario.yaml --drag tank.csv --speed speed --force force --body left/rvo --axis v --write-part drag.yaml", dir);
  CHECK(out.exit_code == 2);
  CHECK(has(out.output, "--body left/rvo: no body of that name in scenario.yaml; did you mean 'left/rov'?"));
  CHECK_FALSE(fs::exists(dir / "drag.yaml"));
  out = run_sim("identify scenario.yaml --drag tank.csv --speed speed --force force", dir);
  CHECK(out.exit_code == 2);  // a scenario silently unused
  CHECK(has(out.output, "only to write a part"));

  out = run_sim("identify scenario.yaml --drag tank.csv --speed speed --force force --body left/rov --axis v --write-part drag.yaml", dir);
  INFO(out.output);
  REQUIRE(out.exit_code == 0);
  CHECK(has(out.output, "c1 (quadratic)"));  // the report as before
  const std::string part = read_bytes(dir / "drag.yaml");
  CHECK(has(part, "# Written by sim identify --drag from tank.csv (scenario scenario.yaml): body left/rov, axis v"));
  // Read back in place of the original: sway has the fit, the other axes and bodies the scenario's.
  const uwsim::scenario::Scenario before = uwsim::scenario::load_scenario((dir / "scenario.yaml").string());
  const uwsim::scenario::Scenario after = uwsim::scenario::load_scenario_text(
      "name: check\nsimulation: {duration: 1.0, step: 0.01}\ninclude:\n  - {file: drag.yaml, name: left}\n", (dir / "check.yaml").string());
  const auto body = [](const uwsim::scenario::Scenario& s, const std::string& name) {
    for (const auto& b : s.bodies)
      if (b.name == name) return b;
    FAIL("no body " << name);
    return uwsim::model::BodySpec{};
  };
  const auto rov = body(after, "left/rov"), old = body(before, "left/rov");
  CHECK(rov.quadratic_damping[1] == doctest::Approx(34.96).epsilon(1e-10));
  CHECK(rov.linear_damping[1] == doctest::Approx(0.5).epsilon(1e-9));
  for (int i : {0, 2, 3, 4, 5}) {
    CHECK(rov.quadratic_damping[i] == old.quadratic_damping[i]);
    CHECK(rov.linear_damping[i] == old.linear_damping[i]);
  }
  CHECK(rov.mass == old.mass);
  CHECK(after.thrusters.size() == 8);

  // A body whose drag came from its shape keeps its derived axes and its centre of drag (the
  // shape's centre; given damping alone would move it to the origin).
  REQUIRE(run_sim("identify can.yaml --drag tank.csv --speed speed --force force --body can --axis u --write-part can_part.yaml",
                  dir).exit_code == 0);
  const uwsim::scenario::Scenario can_after = uwsim::scenario::load_scenario_text(
      "name: check\nsimulation: {duration: 1.0, step: 0.01}\ninclude:\n  - {file: can_part.yaml, name: x}\n", (dir / "check.yaml").string());
  const auto can = body(can_after, "x/can"), can_old = body(uwsim::scenario::load_scenario((dir / "can.yaml").string()), "can");
  CHECK(can.quadratic_damping[0] == doctest::Approx(34.96).epsilon(1e-10));
  for (int i = 1; i < 6; ++i) CHECK(can.quadratic_damping[i] == doctest::Approx(can_old.quadratic_damping[i]).epsilon(1e-15));
  CHECK(can_old.p_BoBcd_B.x() == 0.1);
  CHECK(can.p_BoBcd_B.x() == 0.1);
}
