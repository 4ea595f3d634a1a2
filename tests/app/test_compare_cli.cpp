// `sim compare` end to end: a run against measurements written in the test from closed forms
// (units converted, angles on the circle, names mapped), its CSV/JSON reports and figures, and
// bad measurement files reported at their line and column with exit code 2.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "app/series_files.h"
#include "support/sim_process.h"

namespace fs = std::filesystem;
using uwsim::test::write_file;
using uwsim::test::Outcome;
using uwsim::test::run_sim;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("uwsim_compare_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A run of the default scenario (2 s, 50 Hz) and measurements made from it: north in cm with
// an offset of 3 cm, yaw with 0.2 rad added and wrapped, pitch delayed by 0.3 s.
struct Fixture {
  fs::path dir;
  uwsim::app::SeriesFile run;
  Fixture() : dir(scratch("fixture")) {
    REQUIRE(run_sim("-q " + std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_push.yaml --duration 4 -o run.h5", dir).exit_code == 0);
    run = uwsim::app::read_series_file((dir / "run.h5").string());
  }
  ~Fixture() { fs::remove_all(dir); }
};

}  // namespace

TEST_CASE("compare cli: measurements with known offsets give RMSE, mean error and R from their closed forms") {
  Fixture f;
  const auto* north = f.run.find("bodies/rov/position/north");
  const auto* yaw = f.run.find("bodies/rov/euler/yaw");
  REQUIRE(north);
  REQUIRE(yaw);
  CHECK(north->units == "m");
  std::ostringstream csv;
  csv.precision(17);
  csv << "# bench log\ntime,bodies/rov/position/north [cm],heading [deg]\n";
  for (std::size_t k = 0; k < north->time.size(); ++k) {
    const double heading = std::remainder(yaw->values[k] + 3.3, 2.0 * M_PI);  // 3.3 rad ≡ 3.3 − 2π: on the circle, −2.98
    csv << north->time[k] << "," << 100.0 * (north->values[k] + 0.03) << "," << heading * 180.0 / M_PI << "\n";
  }
  write_file(f.dir / "log.csv", csv.str());
  const Outcome out = run_sim("compare run.h5 log.csv --map bodies/rov/euler/yaw=heading --format json -o report.json", f.dir);
  INFO(out.output);
  REQUIRE(out.exit_code == 0);
  const nlohmann::json report = nlohmann::json::parse(std::ifstream(f.dir / "report.json"));
  REQUIRE(report["series"].size() == 2);
  for (const auto& s : report["series"]) {
    if (s["name"] == "bodies/rov/position/north") {
      CHECK(s["rmse"].get<double>() == doctest::Approx(0.03).epsilon(1e-6));   // cm → m
      CHECK(s["mean_error"].get<double>() == doctest::Approx(0.03).epsilon(1e-6));
      CHECK(s["pearson_r"].get<double>() == doctest::Approx(1.0).epsilon(1e-9));
      CHECK(s["samples"] == 201);  // A's samples within B's span: B ends with A
    } else {
      CHECK(s["name"] == "bodies/rov/euler/yaw");
      CHECK(s["rmse"].get<double>() == doctest::Approx(2.0 * M_PI - 3.3).epsilon(1e-6));  // not 3.3
      CHECK(s["mean_error"].get<double>() == doctest::Approx(3.3 - 2.0 * M_PI).epsilon(1e-6));
    }
  }
}

TEST_CASE("compare cli: a delayed series gives its shift — tables, CSV and SVG figures are written") {
  Fixture f;
  const auto* pitch = f.run.find("bodies/rov/euler/pitch");
  REQUIRE(pitch);
  // B(t) = A(t − 0.3): B lags A by 0.3 s.
  std::ostringstream csv;
  csv.precision(17);
  csv << "time,bodies/rov/euler/pitch,unused\n";
  std::size_t hint = 0;
  for (double t = 0.3; t <= 4.0 + 1e-9; t += 0.01)
    csv << t << "," << uwsim::analysis::value_at(*pitch, t - 0.3, hint) << ",1\n";
  write_file(f.dir / "late.csv", csv.str());
  const Outcome out = run_sim("compare run.h5 late.csv --max-shift 1 --format csv -o r.csv --plot figures", f.dir);
  INFO(out.output);
  REQUIRE(out.exit_code == 0);
  CHECK(out.output.find("not compared") != std::string::npos);  // the column 'unused'
  CHECK(out.output.find("unused") != std::string::npos);
  std::ifstream in(f.dir / "r.csv");
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  CHECK(header.find("shift") != std::string::npos);
  const auto cells = [&] {
    std::vector<std::string> c;
    std::stringstream ss(row);
    for (std::string cell; std::getline(ss, cell, ',');) c.push_back(cell);
    return c;
  }();
  REQUIRE(cells.size() == 13);
  CHECK(std::stod(cells[11]) == doctest::Approx(0.3).epsilon(0.02));
  CHECK(fs::exists(f.dir / "figures" / "bodies.rov.euler.pitch.svg"));  // plot_file_name: '/' → '.'
  const Outcome table = run_sim("compare run.h5 run.h5 --series 'bodies/rov/velocity/*'", f.dir);
  CHECK(table.exit_code == 0);
  CHECK(table.output.find("bodies/rov/velocity/u") != std::string::npos);
  CHECK(table.output.find("bodies/rov/velocity/r") != std::string::npos);
  CHECK(table.output.find("bodies/rov/position") == std::string::npos);
}

TEST_CASE("compare cli: bad measurements are reported at their CSV line and column, exit 2, nothing written") {
  Fixture f;
  write_file(f.dir / "nan.csv", "time,bodies/rov/position/north\n0.0,1.0\n0.1,nan\n0.2,\n");
  Outcome out = run_sim("compare run.h5 nan.csv -o report.txt", f.dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("nan.csv:3:5: error: column 'bodies/rov/position/north': expected a number, got 'nan'") != std::string::npos);
  CHECK(out.output.find("nan.csv:4:5: error:") != std::string::npos);
  CHECK_FALSE(fs::exists(f.dir / "report.txt"));
  write_file(f.dir / "back.csv", "time,bodies/rov/position/north\n0.0,1.0\n0.2,1.0\n0.1,1.0\n");
  out = run_sim("compare run.h5 back.csv", f.dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("back.csv:4:1: error: times must increase: 0.1 s follows 0.2 s (line 3)") != std::string::npos);
  write_file(f.dir / "notime.csv", "t,bodies/rov/position/north\n0.0,1.0\n");
  out = run_sim("compare run.h5 notime.csv", f.dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("notime.csv:1:1: error: no time column 'time'") != std::string::npos);
  write_file(f.dir / "short.csv", "time,x\n0.0,1.0\n0.1\n");
  out = run_sim("compare run.h5 short.csv", f.dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("short.csv:3:1: error: expected 2 cells") != std::string::npos);
  write_file(f.dir / "other.csv", "time,x\n0.0,1.0\n0.1,2.0\n");
  out = run_sim("compare run.h5 other.csv --map bodies/rov/position/nort=x", f.dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("did you mean 'bodies/rov/position/north'") != std::string::npos);
  out = run_sim("compare run.h5 other.csv", f.dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("nothing to compare") != std::string::npos);
  write_file(f.dir / "feet.csv", "time,bodies/rov/position/north [ft]\n0.0,1.0\n0.1,2.0\n");
  out = run_sim("compare run.h5 feet.csv", f.dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("A is in 'm', B (bodies/rov/position/north) in 'ft'") != std::string::npos);
}
