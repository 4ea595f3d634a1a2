// End to end: every subcommand keeps `sim run`'s promises about the files it writes and the
// files it reads (issue 37; the rule is output/output_file.h, its unit tests
// tests/output/test_output_file.cpp). No output may be an input of its command, under any name
// (a hard link too); a FIFO, a device, a link at the output or at a name beside it are never
// written through or replaced; `-o ""` is refused before any work; a second writer of a running
// `sim run`'s output, or of its `.partial`, is refused naming the run, whose data stay whole;
// and a stored scenario is data: no file it names is opened, none is copied into a page or a
// message.
#include <doctest/doctest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/sim_process.h"

namespace fs = std::filesystem;
using namespace uwsim::test;

namespace {

const std::string kSource = UWSIM_SOURCE_DIR;
const std::string kSurge = kSource + "/scenarios/stability/bluerov2_surge_stability.yaml";

int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status); }

// The bytes of every regular file in `dir` (not below), by name: what a refused command must
// leave as it found it.
std::map<std::string, std::string> contents(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().filename() != "log.txt")
      out[entry.path().filename().string()] = read_bytes(entry.path());
  return out;
}

// Runs `sim ARGS` in `dir`, which must refuse it: exit 2, the message contains `expected`, and
// no file of the folder changed (nor was one added, besides the log).
void refused(const std::string& args, const fs::path& dir, const std::string& expected) {
  const auto before = contents(dir);
  const Outcome out = run_sim(args, dir);
  CAPTURE(args);
  CAPTURE(out.output);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find(expected) != std::string::npos);
  CHECK(contents(dir) == before);
}

// The scenario's vehicle part and the surge scenario beside it, including it as
// vehicles/bluerov2.yaml, with an extra CSV channel (log.csv) that nothing uses.
void trim_fixture(const fs::path& dir) {
  fs::create_directories(dir / "vehicles");
  fs::copy_file(kSource + "/scenarios/vehicles/bluerov2.yaml", dir / "vehicles/bluerov2.yaml");
  std::string text = read_bytes(kSurge);
  text.replace(text.find("../vehicles/"), 12, "vehicles/");
  text.replace(text.find("inputs:\n"), 8, "inputs:\n  - {name: logged, type: csv, file: log.csv, column: x}\n");
  write_file(dir / "surge.yaml", text);
  write_file(dir / "log.csv", "time,x\n0,0\n100,1\n");
}

// Replaces the root attribute `scenario` of a result file (as sim writes it: a scalar
// variable-length UTF-8 string).
void set_stored_scenario(const fs::path& file, const std::string& text) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  REQUIRE(f >= 0);
  H5Adelete(f, "scenario");
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attribute = H5Acreate2(f, "scenario", type, space, H5P_DEFAULT, H5P_DEFAULT);
  const char* value = text.c_str();
  CHECK(H5Awrite(attribute, type, &value) >= 0);
  H5Aclose(attribute);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(f);
}

}  // namespace

TEST_CASE("outputs: replay onto its own result file (by name, by its default name, by a hard link) is refused, the result untouched") {
  // `sim replay r.h5 -o r.h5` made r.h5 HTML, exit 0.
  const fs::path dir = fresh_dir("replay_onto_input");
  REQUIRE(run_sim("-q '" + kDefaultScenario + "' --duration 1 -o r.h5", dir).exit_code == 0);
  fs::copy_file(dir / "r.h5", dir / "r.html");  // a result named .html: its default page is itself
  fs::create_hard_link(dir / "r.h5", dir / "hard.html");
  refused("replay r.h5 -o r.h5", dir, "-o: the output r.h5 is an input of this command (r.h5)");
  refused("replay r.h5 -o ./r.h5", dir, "is an input of this command");
  refused("replay r.html", dir, "-o: the output r.html is an input of this command (r.html)");
  refused("replay r.h5 -o hard.html", dir, "-o: the output hard.html is an input of this command (r.h5)");
  CHECK(ResultFile(dir / "r.h5").ok());
}

TEST_CASE("outputs: replay never writes through a link planted beside its output, and refuses a FIFO or a device as -o") {
  // Replay wrote its page to <output>.partial through whatever was there, then renamed that
  // name onto the output: a link planted at out.html.partial had its target overwritten, and a
  // FIFO or a device given as -o was replaced by a regular file.
  const fs::path dir = fresh_dir("replay_planted");
  REQUIRE(run_sim("-q '" + kDefaultScenario + "' --duration 1 -o r.h5", dir).exit_code == 0);
  write_file(dir / "victim.txt", "precious");
  for (const char* side : {"out.html.partial", "out.html.partial.new", "out.html.tmp"})
    fs::create_symlink("victim.txt", dir / side);
  const Outcome page = run_sim("replay -q r.h5 -o out.html", dir);
  CAPTURE(page.output);
  CHECK(page.exit_code == 0);
  CHECK(read_bytes(dir / "victim.txt") == "precious");
  for (const char* side : {"out.html.partial", "out.html.partial.new", "out.html.tmp"}) CHECK(fs::is_symlink(dir / side));
  CHECK(read_bytes(dir / "out.html").find("<html") != std::string::npos);

  REQUIRE(::mkfifo((dir / "pipe.html").c_str(), 0644) == 0);
  refused("replay r.h5 -o pipe.html", dir, "-o: the output pipe.html is a FIFO (named pipe), not a file");
  CHECK(fs::is_fifo(fs::symlink_status(dir / "pipe.html")));
  fs::create_symlink("victim.txt", dir / "link.html");
  refused("replay r.h5 -o link.html", dir, "-o: the output link.html is a symbolic link (to victim.txt)");
  CHECK(read_bytes(dir / "victim.txt") == "precious");
  // A device: a twin of /dev/null made in the scratch folder (the real one is never risked);
  // making one needs root.
  if (::mknod((dir / "null.html").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    refused("replay r.h5 -o null.html", dir, "-o: the output null.html is a character device, not a file");
    CHECK(fs::is_character_file(dir / "null.html"));
  } else {
    MESSAGE("not root: the character-device case is left out (mknod needs CAP_MKNOD)");
  }
}

TEST_CASE("outputs: compare refuses -o and every --plot figure onto A, B, the units file or a hard link to one, all untouched") {
  // `sim compare … -o m.csv` replaced the measurement it read, exit 0.
  const fs::path dir = fresh_dir("compare_onto_input");
  REQUIRE(run_sim("-q '" + kDefaultScenario + "' --duration 1 -o r.h5", dir).exit_code == 0);
  const std::string csv = "time,bodies/rov/position/north\n0,0\n0.5,0.01\n1,0.04\n";
  write_file(dir / "m.csv", csv);
  write_file(dir / "units.yaml", "bodies/rov/position/north: m\n");
  fs::create_hard_link(dir / "m.csv", dir / "hard.csv");
  // B named as its own figure: --plot . writes bodies.rov.position.north.svg.
  write_file(dir / "bodies.rov.position.north.svg", csv);
  const std::string compare = "compare r.h5 m.csv --units units.yaml --series 'bodies/rov/position/north' ";
  for (const char* output : {"m.csv", "r.h5", "units.yaml", "hard.csv"})
    refused(compare + "-o " + output, dir, std::string("-o: the output ") + output + " is an input of this command");
  refused("compare r.h5 bodies.rov.position.north.svg --series 'bodies/rov/position/north' --plot .", dir,
          "--plot: the output ./bodies.rov.position.north.svg is an input of this command");
  refused(compare + "--plot . -o bodies.rov.position.north.svg", dir, "given twice as an output of this command");
  // And the same command with other outputs works.
  const Outcome fine = run_sim(compare + "-o report.txt --plot figures", dir);
  CAPTURE(fine.output);
  CHECK(fine.exit_code == 0);
  CHECK(fs::exists(dir / "figures/bodies.rov.position.north.svg"));
  CHECK(read_bytes(dir / "m.csv") == csv);
}

TEST_CASE("outputs: identify refuses -o, --predictions and --write-part onto its scenario, part, data or validation record") {
  // identify --predictions, --write-part and -o replaced their inputs, exit 0.
  const fs::path dir = fresh_dir("identify_onto_input");
  write_file(dir / "arm.yaml",
             "manipulators:\n  - name: arm\n    base: world\n    convention: mdh\n    links:\n"
             "      - joint: {type: revolute, mdh: {alpha: 0.0, d: 0.0, theta: 0.0, r: 0.0}, damping: 0.2}\n"
             "        mass: 3.0\n        center_of_gravity: [0.2, 0.0, 0.0]\n        inertia: [0.01, 0.05, 0.05]\n");
  write_file(dir / "arm_scenario.yaml",
             "name: arm\nsimulation: {duration: 4.0, step: 0.001, output_rate: 100.0}\n"
             "environment: {water_density: 1.2}\ninclude:\n  - {file: arm.yaml, name: rig}\n"
             "inputs:\n  - {name: q1, type: fourier, units: rad, frequency: 0.5, harmonics: [[0.5, 0.2], [0.3, -0.3]]}\n"
             "controllers:\n  - {name: c1, type: pid, joint: rig/arm/joint1, rate: 500.0, setpoint: q1, kp: 70.0, kd: 7.0}\n");
  REQUIRE(run_sim("-q arm_scenario.yaml -o data.h5", dir).exit_code == 0);
  fs::copy_file(dir / "data.h5", dir / "validation.h5");
  fs::create_hard_link(dir / "arm.yaml", dir / "hard.yaml");
  const std::string identify = "identify arm_scenario.yaml data.h5 --validate validation.h5 ";
  for (const char* option : {"-o", "--predictions", "--write-part"})
    for (const char* input : {"arm_scenario.yaml", "arm.yaml", "data.h5", "validation.h5", "hard.yaml"})
      refused(identify + option + " " + input, dir, std::string(option) + ": the output " + input + " is an input of this command");
  write_file(dir / "tank.csv", "speed,force\n-1,-35\n-0.5,-9\n0.5,9\n1,35\n");
  refused("identify --drag tank.csv --speed speed --force force -o tank.csv", dir, "-o: the output tank.csv is an input of this command (tank.csv)");
  // Two of its own outputs on one file are refused too, before the work.
  refused(identify + "--predictions p.csv -o ./p.csv", dir, "given twice as an output of this command");
}

TEST_CASE("outputs: identify --drag --write-part refuses its scenario, an included part, a CSV channel's file and its points") {
  // The drag fit's part goes through the same output rule as every other output (issue 38).
  const fs::path dir = fresh_dir("drag_part_onto_input");
  trim_fixture(dir);
  write_file(dir / "tank.csv", "speed,force\n-1,-35\n-0.5,-9\n0.5,9\n1,35\n");
  const std::string drag = "identify surge.yaml --drag tank.csv --speed speed --force force --body bluerov2/rov --axis u --write-part ";
  for (const char* input : {"surge.yaml", "vehicles/bluerov2.yaml", "log.csv", "tank.csv"})
    refused(drag + input, dir, std::string("--write-part: the output ") + input + " is an input of this command");
  const std::string part = read_bytes(dir / "vehicles/bluerov2.yaml");
  CHECK(part == read_bytes(kSource + "/scenarios/vehicles/bluerov2.yaml"));
  // The same command onto a fresh file writes it.
  REQUIRE(run_sim(drag + "fitted.yaml", dir).exit_code == 0);
  CHECK(fs::exists(dir / "fitted.yaml"));
}

TEST_CASE("outputs: trim refuses -o and --json onto its scenario, an included part, a CSV channel's file or a hard link") {
  // `trim -o` onto an included part and `trim --json` onto the scenario replaced them, exit 0.
  const fs::path dir = fresh_dir("trim_onto_input");
  trim_fixture(dir);
  fs::create_hard_link(dir / "vehicles/bluerov2.yaml", dir / "hard.yaml");
  const auto part = read_bytes(dir / "vehicles/bluerov2.yaml");
  for (const char* option : {"-o", "--json"})
    for (const char* input : {"surge.yaml", "vehicles/bluerov2.yaml", "log.csv", "hard.yaml", "./vehicles/../surge.yaml"})
      refused("trim surge.yaml " + std::string(option) + " " + input, dir,
              std::string(option) + ": the output " + input + " is an input of this command");
  CHECK(read_bytes(dir / "vehicles/bluerov2.yaml") == part);
  const Outcome fine = run_sim("trim surge.yaml -o trimmed.yaml --json trim.json", dir);
  CAPTURE(fine.output);
  CHECK(fine.exit_code == 0);
}

TEST_CASE("outputs: linearize refuses an HDF5 or JSON output onto its scenario, a part or a CSV channel's file") {
  // `linearize -o` onto the scenario replaced it, exit 0; its JSON beside the HDF5 file too.
  const fs::path dir = fresh_dir("linearize_onto_input");
  trim_fixture(dir);
  fs::copy_file(dir / "surge.yaml", dir / "surge.json");  // YAML in a .json file: `-o surge.h5` puts the JSON on it
  refused("linearize surge.yaml -o surge.yaml", dir, "-o: the output surge.yaml is an input of this command");
  refused("linearize surge.json -o surge.h5", dir, "-o, its JSON file: the output surge.json is an input of this command");
  refused("linearize surge.yaml -o vehicles/bluerov2.yaml", dir, "is an input of this command");
  refused("linearize surge.yaml -o log.csv", dir, "is an input of this command");
}

TEST_CASE("outputs: run refuses a hard link to its scenario as -o, and every subcommand refuses -o \"\" before any work") {
  const fs::path dir = fresh_dir("empty_names");
  trim_fixture(dir);
  fs::create_hard_link(dir / "surge.yaml", dir / "hard.h5");
  refused("surge.yaml -o hard.h5", dir, "the output hard.h5 is an input of this run (surge.yaml)");
  // `sim run -o ""` ran the whole simulation, then exited 5 and left ./.partial.
  REQUIRE(run_sim("-q '" + kDefaultScenario + "' --duration 1 -o r.h5", dir).exit_code == 0);
  write_file(dir / "m.csv", "time,bodies/rov/position/north\n0,0\n1,0.04\n");
  write_file(dir / "tank.csv", "speed,force\n-1,-35\n-0.5,-9\n0.5,9\n1,35\n");
  for (const std::string args :
       {"surge.yaml --duration 1 -o ''", "replay r.h5 -o ''", "compare r.h5 m.csv -o ''", "compare r.h5 m.csv --plot ''",
        "identify --drag tank.csv --speed speed --force force -o ''", "identify surge.yaml r.h5 --predictions ''",
        "identify surge.yaml r.h5 --write-part ''", "trim surge.yaml -o ''", "trim surge.yaml --json ''", "linearize surge.yaml -o ''"})
    refused(args, dir, "an empty name is no file; give a file name");
  for (const auto& entry : fs::directory_iterator(dir)) CHECK(entry.path().filename().string().rfind(".partial", 0) != 0);
}

TEST_CASE("outputs: aimed at a running sim run's output or its .partial, replay, trim and run are refused naming it, and its data stay whole") {
  // Replay aimed at a running run's output wrote its page to <output>.partial (the run's data)
  // and renamed it onto the output: both the previous result and the run's data were lost.
  // `sim run -o X.partial` while another run wrote X replaced that run's data.
  const fs::path dir = fresh_dir("second_writer_subcommands");
  trim_fixture(dir);
  REQUIRE(run_sim("-q '" + kDefaultScenario + "' --duration 1 -o prev.h5", dir).exit_code == 0);
  REQUIRE(run_sim("-q '" + kDefaultScenario + "' --duration 1 -o out.h5", dir).exit_code == 0);
  const std::string before = read_bytes(dir / "out.h5");
  SimProcess run(dir, {kDefaultScenario, "--duration", "100000", "-o", "out.h5"});
  REQUIRE(wait_for_file(dir / "out.h5.partial", 200'000));
  struct stat partial_before {};
  REQUIRE(stat((dir / "out.h5.partial").c_str(), &partial_before) == 0);
  const std::string pid = "(pid " + std::to_string(run.pid()) + " on ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"replay prev.h5 -o out.h5", "out.h5 is being written by another run " + pid},
      {"trim surge.yaml -o out.h5", "out.h5 is being written by another run " + pid},
      {"trim surge.yaml --json out.h5.partial", "out.h5.partial holds the data of the run writing out.h5 " + pid},
      {"replay prev.h5 -o out.h5.partial", "out.h5.partial holds the data of the run writing out.h5 " + pid},
      {"'" + kDefaultScenario + "' --duration 1 -o out.h5.partial", "out.h5.partial holds the data of the run writing out.h5 " + pid},
      {"'" + kDefaultScenario + "' --duration 1 -o out.h5.partial.new", "out.h5.partial.new holds the data of the run writing out.h5 " + pid},
      {"'" + kDefaultScenario + "' --duration 1 -o out.h5.lock", "a name ending in .lock is where sim keeps the lock"},
      {"replay prev.h5 -o out.h5.lock", "a name ending in .lock is where sim keeps the lock"},
  };
  for (const auto& [args, expected] : cases) {
    const Outcome out = run_sim(args, dir);
    CAPTURE(args);
    CAPTURE(out.output);
    CHECK(out.exit_code == 2);
    CHECK(out.output.find(expected) != std::string::npos);
    CHECK(read_bytes(dir / "out.h5") == before);
    struct stat partial_after {};
    REQUIRE(stat((dir / "out.h5.partial").c_str(), &partial_after) == 0);
    CHECK(partial_after.st_ino == partial_before.st_ino);  // the run's own file, still growing
  }
  run.signal(SIGINT);
  CHECK(exit_code(run.wait()) == 130);
  const ResultFile result(dir / "out.h5");
  REQUIRE(result.ok());
  CHECK(result.root_attribute("status") == "interrupted");
  CHECK(result.values("/time").size() > 1024);
}

TEST_CASE("outputs: a stored scenario is data — its includes and files are not opened, nothing of them reaches a page or a message") {
  // Replaying a received result whose stored scenario had `include: [{file: /etc/passwd, …}]`
  // copied the file into the page and onto stderr.
  const fs::path dir = fresh_dir("stored_scenario");
  write_file(dir / "secret.txt", "root:x:0:0:SECRET-4711-LINE:/root:/bin/bash\n");
  write_file(dir / "secret.urdf", "<robot name=\"SECRET-4711-URDF\"><link name=\"SECRET-4711-LINK\"/></robot>\n");
  write_file(dir / "secret.csv", "time,SECRET-4711-COLUMN\n0,1\n");
  REQUIRE(run_sim("-q '" + kDefaultScenario + "' --duration 1 -o r.h5", dir).exit_code == 0);
  const std::string stored = ResultFile(dir / "r.h5").root_attribute("scenario");
  REQUIRE(stored.find("name: bluerov2_push") != std::string::npos);
  const std::string secret = (dir / "secret").string();
  const std::vector<std::string> hostile = {
      stored + "include:\n  - {file: " + secret + ".txt, name: p}\n",
      stored + "include:\n  - {file: " + secret + ".urdf, name: p}\n",
      stored + "include:\n  - {file: secret.txt, name: p}\n",
  };
  for (const std::string& text : hostile) {
    CAPTURE(text);
    fs::copy_file(dir / "r.h5", dir / "hostile.h5", fs::copy_options::overwrite_existing);
    set_stored_scenario(dir / "hostile.h5", text);
    const Outcome page = run_sim("replay hostile.h5 -o page.html", dir);
    CAPTURE(page.output);
    CHECK(page.exit_code == 0);
    CHECK(page.output.find("SECRET-4711") == std::string::npos);
    const std::string html = read_bytes(dir / "page.html");
    CHECK(html.find("SECRET-4711") == std::string::npos);
    CHECK(html.find("\"source\":\"unknown\"") != std::string::npos);  // marker boxes
    CHECK(page.output.find("include: not opened") != std::string::npos);
    CHECK(page.output.find("drawing the bodies as marker boxes") != std::string::npos);
    const Outcome describe = run_sim("describe hostile.h5", dir);
    CHECK(describe.exit_code == 0);
    CHECK(describe.output.find("SECRET-4711") == std::string::npos);
    const Outcome compare = run_sim("compare hostile.h5 r.h5", dir);
    CHECK(compare.exit_code == 0);
    CHECK(compare.output.find("SECRET-4711") == std::string::npos);
  }
  // A CSV channel's file is not read either: the channel reads as 0 and the page draws the body.
  const std::string with_csv = stored + "inputs:\n  - {name: c, type: csv, file: " + secret + ".csv, column: SECRET-4711-COLUMN}\n";
  fs::copy_file(dir / "r.h5", dir / "hostile.h5", fs::copy_options::overwrite_existing);
  set_stored_scenario(dir / "hostile.h5", with_csv);
  const Outcome page = run_sim("replay hostile.h5 -o page.html", dir);
  CAPTURE(page.output);
  CHECK(page.exit_code == 0);
  CHECK(read_bytes(dir / "page.html").find("\"source\":\"unknown\"") == std::string::npos);
  CHECK(page.output.find("marker boxes") == std::string::npos);
}
