// End-to-end: the `sim` executable on real scenario files. Exit codes, the output layout,
// byte-identical reruns, --set, errors with line and column, Ctrl-C and divergence.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <hdf5.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/sim_process.h"

namespace fs = std::filesystem;
using uwsim::test::fresh_dir;
using uwsim::test::kDefaultScenario;
using uwsim::test::kSim;
using uwsim::test::Outcome;
using uwsim::test::read_bytes;
using uwsim::test::run_sim;
using uwsim::test::write_file;

namespace {

std::vector<hsize_t> dataset_shape(hid_t file, const std::string& path) {
  const hid_t dataset = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  if (dataset < 0) return {};
  const hid_t space = H5Dget_space(dataset);
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  H5Sclose(space);
  H5Dclose(dataset);
  return dims;
}

std::string string_attribute(hid_t object, const std::string& name) {
  if (H5Aexists(object, name.c_str()) <= 0) return {};
  const hid_t attribute = H5Aopen(object, name.c_str(), H5P_DEFAULT);
  const hid_t type = H5Aget_type(attribute);
  char* value = nullptr;
  H5Aread(attribute, type, &value);
  std::string result = value ? value : "";
  H5free_memory(value);
  H5Tclose(type);
  H5Aclose(attribute);
  return result;
}

std::vector<double> read_column(hid_t file, const std::string& path, int column, int columns) {
  const std::vector<hsize_t> dims = dataset_shape(file, path);
  std::vector<double> all(dims[0] * static_cast<hsize_t>(columns));
  const hid_t dataset = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  // A failed read (e.g. a chunk index on disk that does not match the lengths) must not pass
  // for a column of zeros.
  const herr_t read = H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, all.data());
  H5Dclose(dataset);
  CAPTURE(path);
  REQUIRE(read >= 0);
  std::vector<double> out;
  for (hsize_t k = 0; k < dims[0]; ++k) out.push_back(all[k * static_cast<hsize_t>(columns) + static_cast<hsize_t>(column)]);
  return out;
}

std::string default_scenario_text() { return read_bytes(kDefaultScenario); }

}  // namespace

TEST_CASE("cli: the default scenario runs and writes the documented layout") {
  const fs::path dir = fresh_dir("layout");
  const Outcome out = run_sim("'" + kDefaultScenario + "'", dir);
  REQUIRE(out.exit_code == 0);
  const fs::path result = dir / "results" / "bluerov2_push.h5";
  REQUIRE(fs::exists(result));
  CHECK(out.output.find("results/bluerov2_push.h5") != std::string::npos);

  const hid_t file = H5Fopen(result.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  CHECK(dataset_shape(file, "/time") == std::vector<hsize_t>{1501});
  CHECK(dataset_shape(file, "/bodies/rov/position") == std::vector<hsize_t>{1501, 3});
  CHECK(dataset_shape(file, "/bodies/rov/quaternion") == std::vector<hsize_t>{1501, 4});
  CHECK(dataset_shape(file, "/bodies/rov/euler") == std::vector<hsize_t>{1501, 3});
  CHECK(dataset_shape(file, "/bodies/rov/velocity") == std::vector<hsize_t>{1501, 6});
  CHECK(dataset_shape(file, "/bodies/rov/acceleration") == std::vector<hsize_t>{1501, 6});
  const hid_t root = H5Gopen2(file, "/", H5P_DEFAULT);
  CHECK(string_attribute(root, "status") == "completed");
  CHECK(string_attribute(root, "scenario").find("bluerov2_push") != std::string::npos);
  CHECK(string_attribute(root, "simulator_version").size() > 0);
  CHECK(string_attribute(root, "command_line").find("bluerov2_push.yaml") != std::string::npos);
  H5Gclose(root);
  const hid_t velocity = H5Dopen2(file, "/bodies/rov/velocity", H5P_DEFAULT);
  CHECK(string_attribute(velocity, "units") == "m/s, rad/s");
  CHECK(string_attribute(velocity, "description").size() > 0);
  H5Dclose(velocity);
  // Pushed forward: the surge speed approaches its terminal value from below.
  const std::vector<double> u = read_column(file, "/bodies/rov/velocity", 0, 6);
  CHECK(u.front() == 0.0);
  CHECK(u.back() > 0.3);
  H5Fclose(file);
}

TEST_CASE("cli: the same scenario and command line twice give a byte-identical file, and another -o differs in the stored command line only") {
  const fs::path dir = fresh_dir("determinism");
  REQUIRE(run_sim("'" + kDefaultScenario + "' --duration 5 -o out.h5", dir).exit_code == 0);
  const std::string first = read_bytes(dir / "out.h5");
  REQUIRE(run_sim("'" + kDefaultScenario + "' --duration 5 -o out.h5", dir).exit_code == 0);
  CHECK(first.size() > 1000);
  CHECK(first == read_bytes(dir / "out.h5"));
  // The file stores the command line, so another -o gives another file, and only there: with
  // a name of the same length, the bytes are those of out.h5 with the name replaced.
  REQUIRE(run_sim("'" + kDefaultScenario + "' --duration 5 -o abc.h5", dir).exit_code == 0);
  std::string other = read_bytes(dir / "abc.h5");
  CHECK(other != first);
  REQUIRE(other.size() == first.size());
  const std::size_t at = other.find("-o abc.h5");
  REQUIRE(at != std::string::npos);
  CHECK(other.find("abc.h5", at + 4) == std::string::npos);  // once, in the command line
  other.replace(at, 9, "-o out.h5");
  CHECK(other == first);
}

TEST_CASE("cli: --set overrides a value and the file stores the resolved scenario") {
  const fs::path dir = fresh_dir("set");
  const Outcome out = run_sim("'" + kDefaultScenario + "' --duration 1 --set bodies.rov.mass=12.25 -o out.h5", dir);
  REQUIRE(out.exit_code == 0);
  const hid_t file = H5Fopen((dir / "out.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t root = H5Gopen2(file, "/", H5P_DEFAULT);
  CHECK(string_attribute(root, "scenario").find("12.25") != std::string::npos);
  H5Gclose(root);
  H5Fclose(file);
}

TEST_CASE("cli: a --set path that does not exist exits 2 and names the argument") {
  const fs::path dir = fresh_dir("badset");
  const Outcome out = run_sim("'" + kDefaultScenario + "' --set bodies.nope.mass=1 -o out.h5", dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("bodies.nope.mass") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out.h5"));
}

TEST_CASE("cli: a malformed file exits 2 naming line and column, and writes nothing") {
  const fs::path dir = fresh_dir("malformed");
  std::string text = default_scenario_text();
  const std::string key = "    mass: 11.5";
  REQUIRE(text.find(key) != std::string::npos);
  text.replace(text.find(key), key.size(), "    mass: -11.5");
  write_file(dir / "bad.yaml", text);
  // Line and column of the bad value in that file, counted here.
  const std::size_t offset = text.find("-11.5");
  const long line = std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n') + 1;
  const long column = static_cast<long>(offset - text.rfind('\n', offset));
  const Outcome out = run_sim("bad.yaml -o out.h5", dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("bad.yaml:" + std::to_string(line) + ":" + std::to_string(column) + ":") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out.h5"));
  CHECK_FALSE(fs::exists(dir / "results"));
}

TEST_CASE("cli: a diverging run exits 3, names the body and keeps a readable file") {
  const fs::path dir = fresh_dir("diverge");
  const Outcome out = run_sim("'" + kDefaultScenario + "' --set forces.push.force=[0,0,1e12] -o out.h5", dir);
  CHECK(out.exit_code == 3);
  CHECK(out.output.find("body 'rov'") != std::string::npos);
  const hid_t file = H5Fopen((dir / "out.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const hid_t root = H5Gopen2(file, "/", H5P_DEFAULT);
  CHECK(string_attribute(root, "status").rfind("failed: ", 0) == 0);
  H5Gclose(root);
  CHECK(dataset_shape(file, "/time").at(0) >= 1);
  H5Fclose(file);
}

TEST_CASE("cli: a connector's wrench is written at its point, in its first body's frame") {
  // A crate hung at rest from the world by a rigid connector at p: the connector carries
  // W − B upwards and the moment that balances weight and buoyancy about p.
  const fs::path dir = fresh_dir("hook");
  write_file(dir / "hook.yaml",
             "name: hook\n"
             "simulation: {duration: 0.1}\n"
             "bodies:\n"
             "  - {name: crate, mass: 10.0, inertia: [0.2, 0.2, 0.2], volume: 0.004,\n"
             "     center_of_gravity: [0.1, -0.05, 0.2], center_of_buoyancy: [-0.05, 0.0, 0.1]}\n"
             "connectors:\n"
             "  - {name: hook, type: rigid, bodies: [crate, world], point: [0.2, 0.1, -0.3]}\n");
  const Outcome out = run_sim("hook.yaml -o out.h5", dir);
  REQUIRE(out.exit_code == 0);
  const hid_t file = H5Fopen((dir / "out.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const double W = 10.0 * 9.81, B = 1000.0 * 9.81 * 0.004;
  const Eigen::Vector3d p(0.2, 0.1, -0.3), cg(0.1, -0.05, 0.2), cb(-0.05, 0.0, 0.1);
  const Eigen::Vector3d moment = -((cg - p).cross(Eigen::Vector3d(0, 0, W)) + (cb - p).cross(Eigen::Vector3d(0, 0, -B)));
  const double expected[6] = {0.0, 0.0, -(W - B), moment.x(), moment.y(), moment.z()};
  for (int c = 0; c < 6; ++c) {
    const std::vector<double> column = read_column(file, "/connectors/hook/wrench", c, 6);
    REQUIRE(!column.empty());
    CHECK(column.back() == doctest::Approx(expected[c]).epsilon(1e-9).scale(W));
  }
  CHECK(read_column(file, "/connectors/hook/violation", 0, 2).back() < 1e-12);
  H5Fclose(file);
}

TEST_CASE("cli: a connector pulled apart exits 3, names the connector and keeps a readable file") {
  // A top spinning about a ball joint at 150 rad/s with a 20 ms step: RK4 is unstable at
  // ω·h = 3, and the connector's error passes 1 mm before anything else explodes. The
  // Baumgarte frequency is set soft (2.5 Hz: ω·h = 0.3) so the spin, not the constraint
  // stabilisation, is what the step cannot follow.
  const fs::path dir = fresh_dir("connector");
  write_file(dir / "spin.yaml",
             "name: spin\n"
             "compliance: {constraint_frequency: 2.5}\n"
             "simulation: {duration: 2.0, step: 0.02}\n"
             "bodies:\n"
             "  - {name: top, mass: 5.0, inertia: [0.1, 0.2, 0.3], center_of_gravity: [0.0, 0.0, 0.3],\n"
             "     initial: {velocity: [0.0, 0.0, 0.0, 40.0, 3.0, 150.0]}}\n"
             "connectors:\n"
             "  - {name: pivot, type: ball, bodies: [top, world]}\n");
  const Outcome out = run_sim("spin.yaml -o out.h5", dir);
  CHECK(out.exit_code == 3);
  CHECK(out.output.find("connector 'pivot'") != std::string::npos);
  const hid_t file = H5Fopen((dir / "out.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  CHECK(dataset_shape(file, "/connectors/pivot/violation").at(0) >= 1);
  H5Fclose(file);
}

namespace {
// The line of `output` that holds `part`, or "" if none does.
std::string line_with(const std::string& output, const std::string& part) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (line.find(part) != std::string::npos) return line;
  return "";
}
}  // namespace

TEST_CASE("cli: an rk4 step too coarse for the connectors' Baumgarte frequency is warned about, by run and validate alike") {
  // ω = 2π·50 Hz at a 20 ms step: ω·h = 6.3, beyond rk4's real stability interval (≈ 2.8).
  const fs::path dir = fresh_dir("stiff_constraint");
  const std::string scenario =
      "simulation: {duration: 0.04, step: 0.02}\n"
      "bodies:\n"
      "  - {name: top, mass: 5.0, inertia: [0.1, 0.2, 0.3], center_of_gravity: [0.0, 0.0, 0.3]}\n"
      "connectors:\n"
      "  - {name: pivot, type: ball, bodies: [top, world]}\n";
  write_file(dir / "stiff.yaml", "name: stiff\n" + scenario);
  const std::string warned = line_with(run_sim("stiff.yaml -o out.h5", dir).output, "compliance.constraint_frequency");
  CHECK(warned.rfind("warning: compliance.constraint_frequency (50 Hz) is too stiff for a 0.02 s rk4 step", 0) == 0);
  // `sim validate` says the same before its verdict, and nothing of it with -q or for dopri5.
  const Outcome validated = run_sim("validate stiff.yaml", dir);
  CHECK(validated.exit_code == 0);
  CHECK(line_with(validated.output, "compliance.constraint_frequency") == warned);
  CHECK(line_with(run_sim("validate -q stiff.yaml", dir).output, "compliance.constraint_frequency").empty());
  CHECK(line_with(run_sim("validate stiff.yaml --set simulation.integrator=dopri5", dir).output,
                  "compliance.constraint_frequency").empty());
  // At 2 Hz (ω·h = 0.25) there is nothing to warn about.
  write_file(dir / "soft.yaml", "name: soft\ncompliance: {constraint_frequency: 2.0}\n" + scenario);
  CHECK(run_sim("soft.yaml -o out.h5", dir).output.find("compliance.constraint_frequency") == std::string::npos);
  CHECK(run_sim("validate soft.yaml", dir).output.find("compliance.constraint_frequency") == std::string::npos);
}

// Starts sim on a long run in `dir` and waits until it has written `bytes` of output (so its
// signal handlers are installed and chunks are on disk). Returns the child's pid.
pid_t start_long_run(const fs::path& dir, std::uintmax_t bytes) {
  const pid_t child = fork();
  if (child == 0) {
    if (chdir(dir.c_str()) != 0) _exit(99);
    if (!freopen("/dev/null", "w", stderr)) _exit(97);
    execl(kSim.c_str(), kSim.c_str(), kDefaultScenario.c_str(), "--duration", "100000", "-o", "out.h5", nullptr);
    _exit(98);
  }
  // A timed-out wait (heavy load) must fail here, not signal the run at an arbitrary moment.
  if (!uwsim::test::wait_for_file(dir / "out.h5.partial", bytes)) {
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    FAIL("sim did not write " << bytes << " bytes of out.h5.partial within the wait");
  }
  return child;
}

TEST_CASE("cli: Ctrl-C exits 130 and leaves a valid file that says it was interrupted") {
  const fs::path dir = fresh_dir("interrupt");
  const pid_t child = start_long_run(dir, 200'000);
  REQUIRE(child > 0);
  kill(child, SIGINT);
  int status = 0;
  waitpid(child, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  const hid_t file = H5Fopen((dir / "out.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const hid_t root = H5Gopen2(file, "/", H5P_DEFAULT);
  CHECK(string_attribute(root, "status") == "interrupted");
  H5Gclose(root);
  const std::vector<double> t = read_column(file, "/time", 0, 1);
  CHECK(t.size() > 10);
  CHECK(dataset_shape(file, "/bodies/rov/velocity").at(0) == t.size());
  H5Fclose(file);
}

TEST_CASE("cli: a run killed outright (SIGKILL) leaves <output>.partial readable up to its last chunk") {
  const fs::path dir = fresh_dir("kill");
  const pid_t child = start_long_run(dir, 400'000);
  REQUIRE(child > 0);
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  CHECK_FALSE(fs::exists(dir / "out.h5"));  // only a run that ends renames its file
  const hid_t file = H5Fopen((dir / "out.h5.partial").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const std::vector<double> t = read_column(file, "/time", 0, 1);
  const hsize_t velocity_rows = dataset_shape(file, "/bodies/rov/velocity").at(0);
  CAPTURE(velocity_rows);
  REQUIRE(t.size() >= 1024);
  CHECK(t.size() % 1024 == 0);  // whole chunks only: the last partial one died with the process
  CHECK(t.back() == doctest::Approx(static_cast<double>(t.size() - 1) / 50.0));
  CHECK(velocity_rows == t.size());
  const hid_t root = H5Gopen2(file, "/", H5P_DEFAULT);
  CHECK(string_attribute(root, "status") == "running");  // it says it never finished
  H5Gclose(root);
  H5Fclose(file);
}

TEST_CASE("cli: --duration keeps full precision") {
  const fs::path dir = fresh_dir("duration");
  REQUIRE(run_sim("'" + kDefaultScenario + "' --duration 0.0123456789 -o out.h5", dir).exit_code == 0);
  const hid_t file = H5Fopen((dir / "out.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const std::vector<double> t = read_column(file, "/time", 0, 1);
  CHECK(t.back() == 0.0123456789);
  H5Fclose(file);
}

TEST_CASE("cli: --help and --version exit 0 — an unknown option exits 2") {
  const fs::path dir = fresh_dir("help");
  const Outcome help = run_sim("--help", dir);
  CHECK(help.exit_code == 0);
  CHECK(help.output.find("--set") != std::string::npos);
  const Outcome version = run_sim("--version", dir);
  CHECK(version.exit_code == 0);
  CHECK(version.output.find("sim ") != std::string::npos);
  CHECK(run_sim("--no-such-option x.yaml", dir).exit_code == 2);
  CHECK(run_sim("run '" + kDefaultScenario + "' --duration 0.1 -o out.h5", dir).exit_code == 0);
}

TEST_CASE("cli: validate checks files without running them, reports every error, exits 2 if any is bad") {
  const fs::path dir = fresh_dir("validate");
  std::string bad = default_scenario_text();
  bad.replace(bad.find("    mass: 11.5"), 14, "    mass: -1.0");
  write_file(dir / "bad.yaml", bad);
  const Outcome good = run_sim("validate '" + kDefaultScenario + "'", dir);
  CHECK(good.exit_code == 0);
  CHECK(good.output.find("bluerov2_push.yaml: valid") != std::string::npos);
  const Outcome mixed = run_sim("validate '" + kDefaultScenario + "' bad.yaml", dir);
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.output.find("bad.yaml:") != std::string::npos);
  CHECK(mixed.output.find("expected a positive number") != std::string::npos);
  CHECK(run_sim("validate '" + kDefaultScenario + "' --set bodies.rov.mass=-3", dir).exit_code == 2);
  // Files after a --set are still files to check, not more overrides.
  const Outcome after_set = run_sim("validate '" + kDefaultScenario + "' --set simulation.duration=5 bad.yaml", dir);
  CHECK(after_set.exit_code == 2);
  CHECK(after_set.output.find("bodies[0].mass: expected a positive number") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "results"));  // nothing run, nothing written
}

TEST_CASE("cli: hostile documents (a 60 000-item list, 10 000-deep nesting, 2 MB) exit 2 with the limit") {
  const fs::path dir = fresh_dir("hostile");
  // Generated here rather than committed: the list is 180 kB.
  std::string huge = "name: huge\nsimulation: {duration: 1}\nbodies: [";
  for (int i = 0; i < 60000; ++i) huge += i == 0 ? "1" : ", 1";
  huge += "]\n";
  write_file(dir / "huge.yaml", huge);
  const Outcome big = run_sim("validate huge.yaml", dir);
  CHECK(big.exit_code == 2);
  CAPTURE(big.output);
  // The 40 001st value, on line 3: 9 values come before the items (2 mappings, 4 keys, 2
  // scalars, the list), so item 39 991 (from 0), at column 10 + 3·39991 ("bodies: [" then ", 1").
  CHECK(big.output.find("huge.yaml:3:" + std::to_string(10 + 3 * 39991) + ": error: the document is too large: more than 40000 values") !=
        std::string::npos);

  write_file(dir / "large.yaml", "name: large\n#" + std::string(std::size_t{2} << 20, 'x') + "\n");
  const Outcome large = run_sim("validate large.yaml", dir);
  CHECK(large.exit_code == 2);
  CHECK(large.output.find("large.yaml: error: the file is larger than 1 MiB") != std::string::npos);

  write_file(dir / "deep.yaml", std::string(10000, '[') + std::string(10000, ']') + "\n");
  const Outcome deep = run_sim("validate deep.yaml", dir);
  CHECK(deep.exit_code == 2);
  CAPTURE(deep.output);
  CHECK(deep.output.find("deep.yaml:1:33: error: the YAML is nested more than 32 levels deep") !=
        std::string::npos);
}

TEST_CASE("cli: -q prints errors only: a scenario's warnings are not printed by run or validate, and the file keeps them") {
  const fs::path dir = fresh_dir("quiet");
  write_file(dir / "degrees.yaml", "name: degrees\nsimulation: {duration: 0.1}\n"
                                   "bodies:\n  - {name: rov, mass: 11.5, inertia: [0.16, 0.16, 0.16], volume: 0.0115,\n"
                                   "     initial: {rpy: [0.0, 0.0, 90.0]}}\n");
  const std::string warning = "degrees.yaml:5:21: warning: bodies[0].initial.rpy: an angle beyond ±2π (90 rad)";
  Outcome out = run_sim("degrees.yaml -o loud.h5", dir);
  REQUIRE(out.exit_code == 0);
  CHECK(out.output.find(warning) != std::string::npos);  // without -q it is printed
  out = run_sim("-q degrees.yaml -o quiet.h5", dir);
  REQUIRE(out.exit_code == 0);
  CHECK(out.output == "");
  const hid_t file = H5Fopen((dir / "quiet.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const hid_t root = H5Gopen2(file, "/", H5P_DEFAULT);
  CHECK(string_attribute(root, "warnings").find(warning) != std::string::npos);
  H5Gclose(root);
  H5Fclose(file);
  CHECK(run_sim("validate degrees.yaml", dir).output.find(warning) != std::string::npos);
  out = run_sim("validate -q degrees.yaml", dir);
  CHECK(out.exit_code == 0);
  CHECK(out.output == "");
  // Errors still print under -q.
  write_file(dir / "bad.yaml", "name: bad\nsimulation: {duration: 0.1}\nbodies:\n  - {name: rov, mass: -1, inertia: [1, 1, 1]}\n");
  out = run_sim("validate -q bad.yaml", dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("bad.yaml:4:23: error: bodies[0].mass") != std::string::npos);
}

TEST_CASE("cli: a file name with an escape sequence is printed escaped, in the log and in diagnostics") {
  const fs::path dir = fresh_dir("escapes");
  write_file(dir / "s.yaml", "name: s\nsimulation: {duration: 0.1}\nbodies:\n  - {name: rov, mass: 11.5, inertia: [0.16, 0.16, 0.16], volume: 0.0115}\n");
  Outcome out = run_sim("s.yaml -o \"$(printf '\\033[2Jout.h5')\"", dir);  // sh has no $'…'
  REQUIRE(out.exit_code == 0);
  CHECK(fs::exists(dir / "\x1b[2Jout.h5"));
  CHECK(out.output.find("\\x1b[2Jout.h5") != std::string::npos);
  CHECK(out.output.find('\x1b') == std::string::npos);
  out = run_sim("validate \"$(printf '\\033]0;x\\007.yaml')\"", dir);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("\\x1b]0;x\\x07.yaml") != std::string::npos);
  CHECK(out.output.find('\x1b') == std::string::npos);
}
