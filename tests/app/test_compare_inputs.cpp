// `sim compare` on the inputs a hostile tester gives it: CSV times with units, columns named
// twice, units on one side only, `--units` files (a FIFO, unknown and repeated columns),
// names that need quoting in a CSV report or escaping in a figure's file name, numeric
// options that are NaN, infinite or absurd, and series long enough to make DTW and the shift
// search unbounded. UWSIM_TEST_SIM=/path/to/sim runs the end-to-end cases against another
// build (how each was seen to fail on the code before these checks).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "analysis/compare_metrics.h"
#include "app/compare_command.h"
#include "app/series_files.h"
#include "support/crafted_hdf5.h"
#include "support/sim_process.h"

namespace fs = std::filesystem;
using uwsim::test::has;
using uwsim::test::write_file;
using uwsim::test::read_bytes;
using uwsim::test::CraftedFile;
using uwsim::test::Outcome;
using uwsim::test::run_sim;
using uwsim::test::ramp;

namespace {

// A: /time 0, 0.1, …, 1.0 s and /pos = 2 t in m.
fs::path run_a(const fs::path& dir) {
  const fs::path path = dir / "a.h5";
  CraftedFile f(path.string());
  f.series("/time", ramp(11));
  f.series("/pos", ramp(11, 0.2));
  f.text("/pos", "units", "m");
  return path;
}

}  // namespace

TEST_CASE("compare inputs: a CSV time column in ms, min or h is converted to seconds, and another unit is refused") {
  const fs::path dir = uwsim::test::fresh_dir("time_units");
  run_a(dir);
  // B = A's positions exactly, its times in the header's unit: RMSE 0 over all 11 samples.
  for (const auto& [unit, per_second] : {std::pair{"ms", 1000.0}, {"min", 1.0 / 60.0}, {"h", 1.0 / 3600.0}, {"s", 1.0}}) {
    CAPTURE(unit);
    std::ostringstream csv;
    csv.precision(17);
    csv << "time [" << unit << "],pos [m]\n";
    for (int k = 0; k <= 10; ++k) csv << 0.1 * k * per_second << "," << 0.2 * k << "\n";
    write_file(dir / "b.csv", csv.str());
    const Outcome r = run_sim("compare a.h5 b.csv --format json -o r.json", dir);
    REQUIRE(r.exit_code == 0);
    const nlohmann::json report = nlohmann::json::parse(read_bytes(dir / "r.json"));
    CHECK(report["series"][0]["samples"] == 11);  // in ms as seconds: 2 samples shared (0 and 0.1 s… of 0–1000)
    CHECK(report["series"][0]["rmse"].get<double>() < 1e-12);
  }
  write_file(dir / "days.csv", "time [d],pos\n0,0\n1,1\n");
  const Outcome r = run_sim("compare a.h5 days.csv", dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.output, "days.csv:1:1: error: time column 'time [d]': the unit 'd' is not one of " + uwsim::app::time_unit_list()));
  write_file(dir / "back.csv", "time [ms],pos\n0,0\n200,1\n100,1\n");
  CHECK(has(run_sim("compare a.h5 back.csv", dir).output, "back.csv:4:1: error: times must increase: 100 ms follows 200 ms (line 3)"));
}

TEST_CASE("compare inputs: two columns of one name are an error, not compared twice") {
  const fs::path dir = uwsim::test::fresh_dir("duplicate_columns");
  run_a(dir);
  write_file(dir / "b.csv", "time,pos,pos [cm]\n0,0,0\n1,2,200\n");
  const Outcome r = run_sim("compare a.h5 b.csv", dir);
  CHECK(r.exit_code == 2);  // was: exit 0, pos listed twice
  CHECK(has(r.output, "b.csv:1:1: error: columns 2 and 3 are both named 'pos': rename one"));
}

TEST_CASE("compare inputs: B's unit where A gives none is a warning, not ignored in silence") {
  const fs::path dir = uwsim::test::fresh_dir("one_unit");
  {
    CraftedFile f((dir / "a.h5").string());
    f.series("/time", ramp(3));
    f.series("/x", {0, 1, 2});
  }
  write_file(dir / "b.csv", "time,x [cm]\n0,0\n0.2,2\n");
  const Outcome r = run_sim("compare a.h5 b.csv", dir);
  CHECK(r.exit_code == 0);
  CHECK(has(r.output, "warning: series x: A gives no unit, B (x) is in 'cm': compared as they are, unconverted"));
}

TEST_CASE("compare inputs: a --units file is read line by line, and a FIFO, unknown and repeated columns are errors at their line") {
  const fs::path dir = uwsim::test::fresh_dir("units_file");
  run_a(dir);
  write_file(dir / "b.csv", "time,pos\n0,0\n1,200\n");
  write_file(dir / "units.txt", "# the bench's units\npos: cm  # centimetres\n");
  Outcome r = run_sim("compare a.h5 b.csv --units units.txt --format json -o r.json", dir);
  REQUIRE(r.exit_code == 0);
  CHECK(nlohmann::json::parse(read_bytes(dir / "r.json"))["series"][0]["rmse"].get<double>() < 1e-12);  // 200 cm = 2 m
  write_file(dir / "bad.txt", "pso: cm\npos: cm\npos: mm\nnot a line\n");
  r = run_sim("compare a.h5 b.csv --units bad.txt", dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.output, "bad.txt:1:1: error: no column 'pso' in b.csv; did you mean 'pos'?"));
  CHECK(has(r.output, "bad.txt:3:1: error: 'pos' is given a unit twice (also at line 2)"));
  CHECK(has(r.output, "bad.txt:4:1: error: expected `column: unit` (e.g. `north: cm`)"));
  REQUIRE(mkfifo((dir / "pipe").c_str(), 0600) == 0);
  r = run_sim("compare a.h5 b.csv --units pipe", dir);
  CHECK(r.exit_code == 2);  // was: blocked for ever
  CHECK(has(r.output, "pipe: error: is a FIFO (named pipe), not a file"));
  r = run_sim("compare a.h5 a.h5 --units units.txt", dir);
  CHECK(r.exit_code == 2);  // was: ignored
  CHECK(has(r.output, "--units gives the units of a CSV file's columns; B (a.h5) is a result file"));
  r = run_sim("compare a.h5 pipe", dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.output, "pipe: error: is a FIFO (named pipe), not a file"));
}

TEST_CASE("compare inputs: names are quoted in a CSV report (RFC 4180) and escaped injectively in figure names") {
  const fs::path dir = uwsim::test::fresh_dir("names");
  {
    CraftedFile f((dir / "a.h5").string());
    f.series("/time", ramp(5));
    f.series("/a,b", {0, 1, 2, 3, 4});
    f.series("/say \"hi\"", {0, 1, 2, 3, 4});
    f.series("/a/b", {0, 1, 2, 3, 4});
    f.series("/a_b", {4, 3, 2, 1, 0});
  }
  Outcome r = run_sim("compare a.h5 a.h5 --format csv -o r.csv --plot figures", dir);
  REQUIRE(r.exit_code == 0);
  const std::string report = read_bytes(dir / "r.csv");
  CHECK(has(report, "\n\"a,b\",,5,"));            // was: a,b,,5 — one cell more than the header
  CHECK(has(report, "\n\"say \"\"hi\"\"\",,5,"));
  // a/b and a_b were both figures/a_b.svg, one overwriting the other.
  CHECK(fs::exists(dir / "figures" / "a.b.svg"));
  CHECK(fs::exists(dir / "figures" / "a_b.svg"));
  CHECK(fs::exists(dir / "figures" / "a%2Cb.svg"));
  CHECK(has(read_bytes(dir / "figures" / "a.b.svg"), "a/b: RMSE"));
  CHECK(has(read_bytes(dir / "figures" / "a_b.svg"), "a_b: RMSE"));
  // Injective: distinct names, distinct files — also where escapes could meet.
  const std::vector<std::string> names = {"a/b", "a_b", "a.b", "a%2Eb", "a%2Fb", "a b", "a", "a/", "/a", "%"};
  std::set<std::string> files;
  for (const std::string& n : names) files.insert(uwsim::app::plot_file_name(n));
  CHECK(files.size() == names.size());
  CHECK(uwsim::app::plot_file_name("bodies/rov/euler/yaw") == "bodies.rov.euler.yaw.svg");
  CHECK(uwsim::app::plot_file_name("a.b") == "a%2Eb.svg");
}

TEST_CASE("compare inputs: a run's status and unpaired names in notes are printed escaped, not as terminal controls") {
  const fs::path dir = uwsim::test::fresh_dir("escaped_notes");
  run_a(dir);
  {
    CraftedFile f((dir / "b.h5").string());
    f.series("/time", ramp(11));
    f.series("/pos", ramp(11, 0.2));
    f.text("/pos", "units", "m");
    f.text("/", "status", "failed: \x1b]0;owned\x07\x1b[2J");
  }
  // A CSV column that A lacks is named in a note.
  write_file(dir / "b.csv", "time [s],pos [m],only\u202Ein b [m]\n0,0,1\n0.5,1,1\n1,2,1\n");
  Outcome r = run_sim("compare a.h5 b.h5", dir);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(!has(r.output, "\x1b"));  // no ESC or BEL reaches the terminal
  CHECK(!has(r.output, "\x07"));
  CHECK(has(r.output, "warning: b.h5: the run's status is 'failed: \\x1b]0;owned\\x07\\x1b[2J'"));
  r = run_sim("compare a.h5 b.csv", dir);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(!has(r.output, "\u202E"));  // nor a RIGHT-TO-LEFT OVERRIDE
  CHECK(has(r.output, "note: not compared, no series of that name in A (use --map A_NAME=B_NAME): only\\u202ein b"));
}

TEST_CASE("compare inputs: the conversions the message offers are the table's, and README lists the same") {
  const fs::path dir = uwsim::test::fresh_dir("conversions");
  run_a(dir);
  write_file(dir / "b.csv", "time,pos [ft]\n0,0\n1,2\n");
  const Outcome r = run_sim("compare a.h5 b.csv", dir);
  CHECK(r.exit_code == 2);
  // Was "(conversions offered: deg, deg/s, mm, cm, mA, kN)": no deg/s^2, mm/s or cm/s.
  CHECK(has(r.output, "give B in A's units (conversions offered: " + uwsim::app::unit_conversion_list() + ")"));
  CHECK(has(uwsim::app::unit_conversion_list(), "cm/s → m/s"));
  const std::string readme = read_bytes(fs::path(UWSIM_SOURCE_DIR) / "README.md");
  CHECK(has(readme, "converted: " + uwsim::app::unit_conversion_list() + "."));
  CHECK(has(readme, "time column in " + uwsim::app::time_unit_list() + " (by its header"));
}

TEST_CASE("compare inputs: NaN, inf and out-of-range numbers are refused at parse time by every subcommand") {
  const fs::path dir = uwsim::test::fresh_dir("numbers");
  run_a(dir);
  const std::string scenario = uwsim::test::kDefaultScenario;
  struct Case {
    std::string command, option;
  };
  const std::vector<Case> cases = {
      {"compare a.h5 a.h5", "--dtw-window"},  // nan was exit 139 (heap corruption), 1e300 too
      {"compare a.h5 a.h5", "--max-shift"},   // nan was accepted and ignored
      {"identify '" + scenario + "' a.h5", "--cutoff"},
      {"identify '" + scenario + "' a.h5", "--min-speed"},
      {"identify '" + scenario + "' a.h5", "--from"},
      {"identify '" + scenario + "' a.h5", "--to"},
      {"identify '" + scenario + "' a.h5", "--filter-order"},
      {"trim '" + scenario + "'", "--tolerance"},
      {"linearize '" + scenario + "'", "--at"},
      {"linearize '" + scenario + "'", "--fd-step"},
      {"replay a.h5", "--frames"},
      {"'" + scenario + "'", "--duration"},
  };
  for (const Case& c : cases)
    for (const char* value : {"nan", "inf", "-inf"}) {
      CAPTURE(c.option);
      CAPTURE(value);
      const Outcome r = run_sim(c.command + " " + c.option + " " + value + " -o out.x", dir);
      CHECK(r.exit_code == 2);
      CHECK(has(r.output, c.option + ": expected "));
      CHECK(has(r.output, std::string(", got ") + value));
      CHECK_FALSE(fs::exists(dir / "out.x"));
    }
  CHECK(has(run_sim("compare a.h5 a.h5 --dtw-window -1", dir).output, "--dtw-window: expected a number ≥ 0 of seconds, got -1"));
  CHECK(has(run_sim("replay a.h5 --frames 2.5", dir).output, "--frames: expected an integer in [2, 1000000], got 2.5"));
  CHECK(has(run_sim("linearize '" + scenario + "' --fd-step 1", dir).output, "--fd-step: expected a number in (0, 0.1], got 1"));
  // Finite but absurd: a window of 1e300 s is the whole matrix, refused beyond the DTW budget
  // only where it costs more (here 11 samples: computed).
  CHECK(run_sim("compare a.h5 a.h5 --dtw-window 1e300 --max-shift 1e300", dir).exit_code == 0);
}

TEST_CASE("compare inputs: DTW and the shift search on 200 001 samples stay within their budgets") {
  const fs::path dir = uwsim::test::fresh_dir("long_series");
  const std::size_t n = 200'001;
  {
    CraftedFile a((dir / "a.h5").string()), b((dir / "b.h5").string());
    const std::vector<double> t = ramp(n, 0.01);
    std::vector<double> x(n), y(n);
    for (std::size_t k = 0; k < n; ++k) x[k] = std::sin(t[k]), y[k] = std::sin(t[k] - 0.3);
    a.series("/time", t);
    a.series("/x", x);
    b.series("/time", t);
    b.series("/x", y);
  }
  // The default window (10 % of 2000 s: 20 000 samples) would take 8·10^9 cells (54 s before).
  Outcome r = run_sim("compare a.h5 b.h5 --format json -o r.json", dir);
  REQUIRE(r.exit_code == 0);
  CHECK(has(r.output, "note: the DTW window of 1 of the 1 series is narrower than the default 10 % of the span"));
  const nlohmann::json s = nlohmann::json::parse(read_bytes(dir / "r.json"))["series"][0];
  const double window_samples = s["dtw_window"].get<double>() / 0.01;
  CHECK(n * (2 * window_samples + 1) <= static_cast<double>(uwsim::analysis::kMaxCompareWork));
  CHECK(window_samples >= 190);  // (8·10^7 / 200 001 − 1) / 2 = 199: the widest that fits
  // A window asked for beyond the budget is refused, saying the widest within it.
  r = run_sim("compare a.h5 b.h5 --dtw-window 100", dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.output, "--dtw-window 100 over these 1 series takes more than 80000000 DTW cells"));
  r = run_sim("compare a.h5 b.h5 --dtw-window 1 --max-shift 1e300", dir);
  CHECK(r.exit_code == 2);  // was: a shift grid of 10^302 steps
  // (8·10^7 − 50 · 200 001) / (2 · 200 001 / 0.01 s) = 1.75 s
  CHECK(has(r.output, "DTW cells and shift samples one comparison computes: give at most --max-shift 1.75"));
  r = run_sim("compare a.h5 b.h5 --dtw-window 1 --max-shift 0.5 --format json -o r.json", dir);
  CHECK(r.exit_code == 0);
  CHECK(nlohmann::json::parse(read_bytes(dir / "r.json"))["series"][0]["shift"].get<double>() == doctest::Approx(0.3).epsilon(1e-3));
}

TEST_CASE("compare inputs: a CSV of 10 000 columns against a result of 10 000 series pairs them by name") {
  const fs::path dir = uwsim::test::fresh_dir("many_series");
  const int count = 9'999;  // and the time column: the most columns a CSV may have
  {
    CraftedFile f((dir / "a.h5").string());
    f.series("/time", ramp(3));
    std::vector<double> values(3 * static_cast<std::size_t>(count));
    for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<double>(k % 7);
    f.dataset("/s", 3, count, values);
  }
  std::string csv = "time";
  for (int c = count - 1; c >= 0; --c) csv += ",s/" + std::to_string(c);  // in the other order
  csv += "\n";
  for (int k = 0; k < 3; ++k) {
    csv += std::to_string(0.1 * k);
    for (int c = count - 1; c >= 0; --c) csv.append(",").append(std::to_string((k * count + c) % 7));
    csv += "\n";
  }
  write_file(dir / "b.csv", csv);
  const Outcome r = run_sim("compare a.h5 b.csv --format csv -o r.csv", dir);
  REQUIRE(r.exit_code == 0);
  const std::string report = read_bytes(dir / "r.csv");
  CHECK(std::count(report.begin(), report.end(), '\n') == count + 1);
  CHECK(has(report, "\ns/4711,,3,0,0.20000000000000001,0,0,0,"));  // equal values: every error 0
}
