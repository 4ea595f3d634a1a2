// The loader against inputs that used to stall it or mislead (issue 12): line ends, byte order
// marks, files that are not files, the limits and their messages, and the rough edges a new
// user hit. How fast the limits act is measured by tools/check_hostile_input, not here.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scenario/load_scenario.h"
#include "scenario/yaml_reader.h"
#include "support/scenario_errors.h"

namespace fs = std::filesystem;
using namespace uwsim::scenario;
using uwsim::test::all_text;
using uwsim::test::diagnostics_of;

namespace {

fs::path scratch() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("uwsim_test_input_limits_" + std::to_string(getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path path = scratch() / name;
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

const std::string kScenario =
    "# yaml-language-server: $schema=../schemas/scenario.schema.json\n"
    "name: lines\n"
    "simulation:\n"
    "  duration: 1.0\n"
    "bodies:\n"
    "  - name: rov\n"
    "    mass: 11.5\n"
    "    inertia: [0.16, 0.16, 0.16]\n"
    "    volume: 0.0115\n";

std::string with_line_ends(std::string text, const std::string& end) {
  std::string out;
  for (const char c : text) out += c == '\n' ? end : std::string(1, c);
  return out;
}

// A scenario replaying column `pwm` of `csv_file` (relative to the scenario).
std::string csv_scenario(const std::string& csv_file) {
  return "name: replay\nsimulation: {duration: 0.5}\n"
         "inputs:\n  - {name: pwm, type: csv, file: " + csv_file + ", column: pwm}\n"
         "bodies:\n  - {name: rov, mass: 11.5, inertia: [0.16, 0.16, 0.16], volume: 0.0115}\n"
         "thrusters:\n  - {name: t, body: rov, input: pwm, model: linear, gain: 0.01}\n";
}

const std::string kCsv = "time,pwm\n0.0,1500\n0.1,1520\n0.2,1610.5\n";

}  // namespace

TEST_CASE("line ends: a scenario with CR or CR LF line ends reads as with LF, errors at the same line and column") {
  const Scenario lf = load_scenario(write_temp("lf.yaml", kScenario));
  for (const std::string end : {"\r", "\r\n"}) {
    CAPTURE(end.size());
    const Scenario s = load_scenario(write_temp("ends.yaml", with_line_ends(kScenario, end)));
    CHECK(s.bodies.size() == 1);
    CHECK(s.bodies[0].mass == lf.bodies[0].mass);
    CHECK(s.resolved_yaml == lf.resolved_yaml);
    std::string bad = kScenario;
    bad.replace(bad.find("mass: 11.5"), 10, "mass: -1.5");
    const auto ds = diagnostics_of(write_temp("bad_ends.yaml", with_line_ends(bad, end)));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].line == 7);
    CHECK(ds[0].column == 11);
  }
}

TEST_CASE("CSV inputs: a byte order mark and CR or CR LF line ends are read like plain LF") {
  write_temp("csv/plain.csv", kCsv);
  const Scenario plain = load_scenario(write_temp("csv/plain.yaml", csv_scenario("plain.csv")));
  REQUIRE(plain.inputs.size() == 1);
  for (const std::string& variant : {"\xEF\xBB\xBF" + kCsv, with_line_ends(kCsv, "\r"), with_line_ends(kCsv, "\r\n"),
                                     "\xEF\xBB\xBF" + with_line_ends(kCsv, "\r")}) {
    write_temp("csv/variant.csv", variant);
    const Scenario s = load_scenario(write_temp("csv/variant.yaml", csv_scenario("variant.csv")));
    REQUIRE(s.inputs.size() == 1);
    CHECK(s.inputs[0].channel.table.x == plain.inputs[0].channel.table.x);
    CHECK(s.inputs[0].channel.table.y == plain.inputs[0].channel.table.y);
  }
  // Errors keep their line under CR line ends: the bad cell is on line 3.
  write_temp("csv/bad.csv", with_line_ends("time,pwm\n0.0,1500\n0.1,x\n", "\r"));
  const auto ds = diagnostics_of(write_temp("csv/bad.yaml", csv_scenario("bad.csv")));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].line == 3);
  CHECK(ds[0].column == 5);
}

TEST_CASE("CSV inputs: a device, a FIFO and a folder are refused at once, and a missing file says where it looked") {
  const std::string dir = (scratch() / "odd").string();
  fs::create_directories(dir);
  fs::create_symlink("/dev/zero", dir + "/zero.csv");
  REQUIRE(mkfifo((dir + "/fifo.csv").c_str(), 0600) == 0);  // would block a reader for ever
  fs::create_directories(dir + "/folder.csv");
  const struct {
    const char* file;
    const char* why;
  } cases[] = {{"zero.csv", "is a character device, not a file"},
               {"fifo.csv", "is a FIFO (named pipe), not a file"},
               {"folder.csv", "is a folder, not a file"},
               {"missing.csv", "no such file (looked for " /* the absolute path follows */}};
  for (const auto& c : cases) {
    CAPTURE(c.file);
    const auto ds = diagnostics_of(write_temp("odd/uses.yaml", csv_scenario(c.file)));
    const std::string text = all_text(ds);
    CAPTURE(text);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].line == 4);  // at the channel's file
    CHECK(text.find(c.why) != std::string::npos);
  }
  const auto missing = diagnostics_of(write_temp("odd/uses.yaml", csv_scenario("missing.csv")));
  CHECK(missing[0].message.find("looked for " + (fs::path(dir) / "missing.csv").string()) != std::string::npos);
}

TEST_CASE("CSV inputs over 16 MiB and YAML files over 1 MiB are refused without being read") {
  write_temp("big/huge.csv", "");
  fs::resize_file(scratch() / "big/huge.csv", (std::uintmax_t{16} << 20) + 1);  // sparse: no disk used
  const auto csv = diagnostics_of(write_temp("big/uses.yaml", csv_scenario("huge.csv")));
  REQUIRE(csv.size() == 1);
  CHECK(csv[0].message.find("is larger than 16 MiB") != std::string::npos);

  const std::string yaml = write_temp("big/huge.yaml", "");
  fs::resize_file(yaml, (std::uintmax_t{1} << 20) + 1);
  const auto ds = diagnostics_of(yaml);
  REQUIRE(ds.size() == 1);
  CHECK(format(ds[0]) == yaml + ": error: the file is larger than 1 MiB; a scenario takes a few kB");
}

TEST_CASE("CSV inputs: cells, columns and reported problems are bounded, and a file of short cells within 16 MiB is refused at its cell count") {
  // 16 MiB of two-character cells would be 8 million cells: the bound stops it at 1.5 million,
  // at the row that crosses it.
  std::string zeros = "time,pwm\n";
  for (int k = 0; k < 750'001; ++k) zeros += std::to_string(k) + ",0\n";
  write_temp("bounds/zeros.csv", zeros);
  const auto cells = diagnostics_of(write_temp("bounds/zeros.yaml", csv_scenario("zeros.csv")));
  REQUIRE(cells.size() == 1);
  CHECK(cells[0].line == 750'002);
  CHECK(cells[0].message.find("more than 1500000 cells (rows × columns)") != std::string::npos);

  std::string wide;
  for (int k = 0; k < 10'001; ++k) wide += (k ? ",c" : "c") + std::to_string(k);
  write_temp("bounds/wide.csv", wide + "\n");
  const auto columns = diagnostics_of(write_temp("bounds/wide.yaml", csv_scenario("wide.csv")));
  REQUIRE(columns.size() == 1);
  CHECK(columns[0].message.find("the header names 10001 columns; a CSV file has at most 10000") != std::string::npos);

  // 1000 bad cells and 1000 short rows: the first 20 of each kind, then a count.
  std::string bad = "time,pwm\n";
  for (int k = 0; k < 1000; ++k) bad += std::to_string(k) + ",x\n";
  write_temp("bounds/bad.csv", bad);
  const auto cells_bad = diagnostics_of(write_temp("bounds/bad.yaml", csv_scenario("bad.csv")));
  REQUIRE(cells_bad.size() == 21);
  CHECK(cells_bad[19].line == 21);
  CHECK(cells_bad[20].line == 1001);
  CHECK(cells_bad[20].message == "and 980 more cells of column 'pwm' that are not numbers (the last at this line)");
  std::string short_rows = "time,pwm\n";
  for (int k = 0; k < 1000; ++k) short_rows += std::to_string(k) + "\n";
  write_temp("bounds/short.csv", short_rows);
  const auto rows_bad = diagnostics_of(write_temp("bounds/short.yaml", csv_scenario("short.csv")));
  REQUIRE(rows_bad.size() == 21);
  CHECK(rows_bad[0].message == "expected 2 cells as in the header (line 1), got 1");
  CHECK(rows_bad[20].message == "and 980 more rows with another number of cells than the header (the last at this line)");
}

TEST_CASE("URDF parts: over 1000 links or 1 MiB are refused before urdfdom reads them") {
  // A chain of 10 000 massless links (1 MiB) took 7 s; 16 MiB of links 4 s and 800 MB.
  std::string chain = "<robot name=\"r\">\n<link name=\"l0\"><inertial><mass value=\"1\"/>"
                      "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n";
  for (int k = 1; k <= 1000; ++k) {
    const std::string n = std::to_string(k), p = std::to_string(k - 1);
    chain += "<link name=\"l" + n + "\"/><joint name=\"j" + n + "\" type=\"fixed\"><parent link=\"l" + p +
             "\"/><child link=\"l" + n + "\"/></joint>\n";
  }
  chain += "</robot>\n";
  write_temp("urdf/chain.urdf", chain);
  const std::string uses = "name: u\nsimulation: {duration: 1}\ninclude:\n  - {file: %s, name: arm}\n";
  auto including = [&](const std::string& file) {
    std::string text = uses;
    text.replace(text.find("%s"), 2, file);
    return write_temp("urdf/uses.yaml", text);
  };
  const auto links = diagnostics_of(including("chain.urdf"));
  REQUIRE(links.size() == 1);
  CHECK(links[0].line == 1);
  CHECK(links[0].message.find("the robot has 1001 links and 1000 joints; a URDF part has at most 1000 of each") !=
        std::string::npos);

  write_temp("urdf/huge.urdf", "");
  fs::resize_file(scratch() / "urdf/huge.urdf", (std::uintmax_t{1} << 20) + 1);
  const auto size = diagnostics_of(including("huge.urdf"));
  REQUIRE(size.size() == 1);
  CHECK(size[0].message.find("is larger than 1 MiB") != std::string::npos);
}

TEST_CASE("nesting: flow collections 33 deep are refused at the 33rd bracket, before yaml-cpp reads them") {
  const std::string deep = write_temp("deep.yaml", "a: " + std::string(100000, '[') + "\n");
  const auto ds = diagnostics_of(deep);
  REQUIRE(ds.size() == 1);
  CHECK(format(ds[0]) == deep + ":1:36: error: the YAML is nested more than 32 levels deep (a scenario needs about six)");
  // Brackets in quotes, comments and block scalars open nothing.
  const std::string brackets(40, '[');
  std::string text = kScenario;
  text.insert(text.find("simulation:"), "description: |\n  " + brackets + "\n  text\n# " + brackets + "\n");
  text += "    # " + brackets + "\n";
  const Scenario s = load_scenario(write_temp("brackets_in_text.yaml", text));
  CHECK(s.description == brackets + "\ntext\n");
  std::string quoted = kScenario;
  quoted.insert(quoted.find("simulation:"), "description: '" + brackets + "'\n");
  CHECK(load_scenario(write_temp("quoted_brackets.yaml", quoted)).description == brackets);
}

TEST_CASE("a document with thousands of problems lists 500, with a count or saying where reading stopped") {
  // 600 unknown keys: all counted.
  std::string text = kScenario + "environment:\n";
  for (int i = 0; i < 600; ++i) text += "  key" + std::to_string(i) + ": 1\n";
  const auto some = diagnostics_of(write_temp("600_keys.yaml", text));
  REQUIRE(some.size() == 501);
  CHECK(some[0].message.find("unknown key 'key0'") != std::string::npos);
  CHECK(format(some[500]).find("error: 100 more errors (the first 500 are listed)") != std::string::npos);
  // 30 000 items that are not bodies: reading stops at 1000.
  std::string items = "name: many\nsimulation: {duration: 1.0}\nbodies: [";
  for (int i = 0; i < 30000; ++i) items += i ? ", 1" : "1";
  const auto many = diagnostics_of(write_temp("30000_items.yaml", items + "]\n"));
  REQUIRE(many.size() == 501);
  CHECK(format(many[500]).find("error: more than 1000 errors: reading stopped there (the first 500 are listed)") !=
        std::string::npos);
}

TEST_CASE("the value budget covers a scenario and the parts it includes") {
  std::string part = "bodies:\n  - name: box\n    mass: 2.0\n    inertia: [0.01, 0.01, 0.01]\n    description: [";
  for (int i = 0; i < 25000; ++i) part += i ? ", 1" : "1";
  write_temp("budget/part.yaml", part + "]\n");
  const auto ds = diagnostics_of(write_temp(
      "budget/twice.yaml",
      "name: twice\nsimulation: {duration: 1.0}\ninclude:\n  - {file: part.yaml, name: a}\n  - {file: part.yaml, name: b}\n"));
  const std::string text = all_text(ds);
  CAPTURE(text);
  CHECK(text.find("the document is too large: more than 40000 values with the files it includes") != std::string::npos);
}

TEST_CASE("did you mean: suggestions between names of at most 64 characters") {
  CHECK(closest_match("bodys", {"bodies", "joints"}) == std::optional<std::string>("bodies"));
  const std::string long_name(65, 'a');
  CHECK_FALSE(closest_match(long_name, {long_name.substr(1)}).has_value());
  CHECK_FALSE(closest_match("abc", {long_name}).has_value());
  CHECK(closest_match(std::string(64, 'a'), {std::string(63, 'a') + "b"}).has_value());
}

TEST_CASE("--set reaches a value of an optional block the file leaves out") {
  // kScenario has no environment block.
  const std::string path = write_temp("no_environment.yaml", kScenario);
  const Scenario s = load_scenario(path, {"environment.gravity=0", "bodies.rov.initial.velocity=[0.5,0,0,0,0,0]"});
  CHECK(s.environment.gravity == 0.0);
  CHECK(s.bodies[0].initial.nu_B[0] == 0.5);
  // A misspelt block is still a misspelt key, reported at the argument.
  const auto ds = diagnostics_of(path, {"enviroment.gravity=0"});
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == "--set enviroment.gravity=0");
  CHECK(ds[0].message.find("key 'enviroment' not found in the top level") != std::string::npos);
}

TEST_CASE("an include's set with an unknown key is reported at the set's line and column") {
  const std::string part = (fs::path(UWSIM_TEST_DATA_DIR) / "malformed/parts/small_box.yaml").string();
  const std::string path = write_temp(
      "set_unknown.yaml", "name: s\nsimulation: {duration: 1.0}\ninclude:\n  - file: " + part +
                              "\n    name: a\n    set:\n      bodies.box.masss: 3.0\n");
  const auto ds = diagnostics_of(path);
  CAPTURE(all_text(ds));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == path);
  CHECK(ds[0].line == 7);
  CHECK(ds[0].column == 25);
  CHECK(ds[0].message.find("unknown key 'masss', did you mean 'mass'?") != std::string::npos);
}

TEST_CASE("an rpy beyond ±2π warns that it looks like degrees, and the scenario loads") {
  std::string text = kScenario + "    initial: {rpy: [0.0, 0.0, 90.0]}\n";
  const std::string path = write_temp("degrees.yaml", text);
  const Scenario s = load_scenario(path);
  REQUIRE(s.warnings.size() == 1);
  CHECK(s.warnings[0] == path + ":10:20: warning: bodies[0].initial.rpy: an angle beyond ±2π (90 rad): rpy is in "
                               "radians; was it written in degrees?");
  CHECK(load_scenario(write_temp("radians.yaml", kScenario + "    initial: {rpy: [0.0, 0.0, 1.57]}\n")).warnings.empty());
}

TEST_CASE("a file that is not YAML says so") {
  const std::string path = write_temp("result.h5", std::string("\x89HDF\r\n\x1a\n", 8) + std::string(100, '\0'));
  const auto ds = diagnostics_of(path);
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].message.rfind("not a YAML file: an HDF5 file", 0) == 0);
  const auto binary = diagnostics_of(write_temp("binary.yaml", std::string("name: x\n\0\0\0", 11)));
  REQUIRE(binary.size() == 1);
  CHECK(binary[0].message == "not a YAML file: a binary file (it holds NUL bytes)");
}
