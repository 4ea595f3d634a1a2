// `sim describe`: the summary of a real result file written by the `sim` executable, and
// exit code 2 for files that are not result files. Odd-but-valid files are built by hand.
#include "app/describe_command.h"

#include <doctest/doctest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/sim_process.h"

namespace fs = std::filesystem;

namespace {

const std::string kSim = UWSIM_SIM_EXE;
const std::string kSwingScenario = std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_arm_swing.yaml";

const fs::path& test_dir() {
  static const fs::path dir = uwsim::test::fresh_dir("describe");  // removed when the tests exit
  return dir;
}

// One 1 s run of the arm-swing scenario, shared by the tests that read it.
const fs::path& swing_file() {
  static const fs::path path = [] {
    const fs::path out = test_dir() / "swing.h5";
    const std::string command = "'" + kSim + "' -q '" + kSwingScenario + "' --duration 1 -o '" + out.string() + "'";
    const int status = std::system(command.c_str());
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    return out;
  }();
  return path;
}

struct Described {
  int exit_code;
  std::string text;
};

Described describe(const fs::path& path) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  REQUIRE(out != nullptr);
  const int code = uwsim::app::describe_result(path.string(), out);
  std::fclose(out);
  std::string text(buffer, size);
  std::free(buffer);
  return {code, text};
}

// The output line that starts with `prefix`, or "" if there is none.
std::string line_starting(const std::string& text, const std::string& prefix) {
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    if (line.starts_with(prefix)) return line;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return {};
}

// A minimal HDF5 file: an optional 1-D /time and, optionally, an integer `status`.
void write_hdf5(const fs::path& path, const std::vector<double>* time, bool integer_status = false) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(file >= 0);
  if (time != nullptr) {
    const hsize_t n = time->size();
    const hid_t space = H5Screate_simple(1, &n, nullptr);
    const hid_t dataset = H5Dcreate2(file, "time", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (n > 0) H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, time->data());
    H5Dclose(dataset);
    H5Sclose(space);
  } else {
    const hid_t group = H5Gcreate2(file, "bodies", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(group);
  }
  if (integer_status) {
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(file, "status", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT);
    const int value = 7;
    H5Awrite(attribute, H5T_NATIVE_INT, &value);
    H5Aclose(attribute);
    H5Sclose(space);
  }
  H5Fclose(file);
}

}  // namespace

TEST_CASE("describe: a completed sim run shows its status, 51 samples, 5 bodies and 4 joints") {
  const Described d = describe(swing_file());
  REQUIRE(d.exit_code == 0);
  CHECK(line_starting(d.text, "status:") == "status:     completed");
  CHECK(line_starting(d.text, "scenario:").find("bluerov2_arm_swing") != std::string::npos);
  CHECK(line_starting(d.text, "simulator:").starts_with("simulator:  sim "));
  CHECK(line_starting(d.text, "samples:") == "samples:    51, t = 0 … 1 s (every 0.02 s)");
  CHECK(line_starting(d.text, "bodies (5): ").find("arm/upper_arm") != std::string::npos);
  CHECK(line_starting(d.text, "joints (4): ").find("arm/joint1") != std::string::npos);
  CHECK(line_starting(d.text, "scenario text: ").find(" lines (stored in the root attribute 'scenario')") !=
        std::string::npos);
  // The YAML itself is not printed.
  CHECK(d.text.find("manipulators:") == std::string::npos);
}

TEST_CASE("describe: a dataset line shows its shape, units, description and columns") {
  const Described d = describe(swing_file());
  REQUIRE(d.exit_code == 0);
  const std::string velocity = line_starting(d.text, "  /bodies/uvms/arm/upper_arm/velocity ");
  REQUIRE(!velocity.empty());
  CHECK(velocity.find(" 51 × 6 ") != std::string::npos);
  CHECK(velocity.find(" m/s, rad/s ") != std::string::npos);
  CHECK(velocity.find("body-frame velocity") != std::string::npos);
  CHECK(velocity.ends_with("[u, v, w, p, q, r]"));
  CHECK(line_starting(d.text, "  /time ").find(" 51 ") != std::string::npos);
  CHECK(line_starting(d.text, "  /joints/uvms/arm/joint1/effort ").find(" N m ") != std::string::npos);
}

TEST_CASE("describe: a text file is not a result file and gives exit code 2") {
  const fs::path path = test_dir() / "notes.h5";
  std::ofstream(path) << "not an HDF5 file\n";
  const Described d = describe(path);
  CHECK(d.exit_code == 2);
  CHECK(d.text.empty());
}

TEST_CASE("describe: a missing path gives exit code 2") {
  CHECK(describe(test_dir() / "does_not_exist.h5").exit_code == 2);
}

TEST_CASE("describe: an HDF5 file without /time gives exit code 2") {
  const fs::path path = test_dir() / "no_time.h5";
  write_hdf5(path, nullptr);
  CHECK(describe(path).exit_code == 2);
}

TEST_CASE("describe: zero and one samples are described without a spacing") {
  const fs::path empty = test_dir() / "empty.h5";
  const std::vector<double> none;
  write_hdf5(empty, &none);
  const Described d0 = describe(empty);
  REQUIRE(d0.exit_code == 0);
  CHECK(line_starting(d0.text, "samples:") == "samples:    0");
  CHECK(line_starting(d0.text, "bodies (0):") == "bodies (0):");

  const fs::path single = test_dir() / "single.h5";
  const std::vector<double> one{2.5};
  write_hdf5(single, &one);
  const Described d1 = describe(single);
  REQUIRE(d1.exit_code == 0);
  CHECK(line_starting(d1.text, "samples:") == "samples:    1, t = 2.5 s");
}

TEST_CASE("describe: uneven time steps are reported as irregular") {
  const fs::path path = test_dir() / "irregular.h5";
  const std::vector<double> time{0.0, 0.1, 0.3};
  write_hdf5(path, &time);
  const Described d = describe(path);
  REQUIRE(d.exit_code == 0);
  CHECK(line_starting(d.text, "samples:") == "samples:    3, t = 0 … 0.3 s (irregular)");
}

TEST_CASE("describe: an attribute of the wrong type prints ? and missing ones are named missing") {
  const fs::path path = test_dir() / "odd.h5";
  const std::vector<double> time{0.0, 1.0};
  write_hdf5(path, &time, true);
  const Described d = describe(path);
  REQUIRE(d.exit_code == 0);
  CHECK(line_starting(d.text, "status:") == "status:     ?");
  CHECK(line_starting(d.text, "scenario:") == "scenario:   (missing)");
  CHECK(line_starting(d.text, "samples:") == "samples:    2, t = 0 … 1 s (every 1 s)");
}

TEST_CASE("describe: a run with thrusters lists them, and their datasets carry units") {
  const fs::path out = test_dir() / "surge.h5";
  const std::string scenario = std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_surge_free.yaml";
  const std::string command = "'" + kSim + "' -q '" + scenario + "' --duration 0.5 -o '" + out.string() + "'";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  const Described d = describe(out);
  REQUIRE(d.exit_code == 0);
  CHECK(line_starting(d.text, "thrusters (8): ").find("bluerov2/front_right") != std::string::npos);
  CHECK(line_starting(d.text, "  /thrusters/bluerov2/front_right/thrust ").find(" N ") != std::string::npos);
  CHECK(line_starting(d.text, "  /thrusters/bluerov2/front_right/command ").find(" us ") != std::string::npos);
  CHECK(line_starting(d.text, "  /thrusters/bluerov2/vertical_rear_left/command ").find(" 1 ") != std::string::npos);
  CHECK(line_starting(d.text, "  /inputs/surge_pwm ").find(" us ") != std::string::npos);
}

TEST_CASE("describe: a run with sensors lists each with its kind, and a run with connectors lists them") {
  const fs::path out = test_dir() / "sensors.h5";
  const std::string scenario = std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_sensors.yaml";
  const std::string command = "'" + kSim + "' -q '" + scenario + "' --duration 0.2 -o '" + out.string() + "'";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  const Described d = describe(out);
  REQUIRE(d.exit_code == 0);
  CHECK(line_starting(d.text, "sensors (4): ") == "sensors (4): depth (pressure), depth_late (pressure), dvl (dvl), imu (imu)");
  CHECK(line_starting(d.text, "  /sensors/imu/specific_force ").find(" m/s^2 ") != std::string::npos);
  const fs::path pair = test_dir() / "rigid.h5";
  const std::string rigid = std::string(UWSIM_SOURCE_DIR) + "/scenarios/two_bluerov_rigid.yaml";
  const int pair_status = std::system(("'" + kSim + "' -q '" + rigid + "' --duration 0.1 -o '" + pair.string() + "'").c_str());
  REQUIRE(WIFEXITED(pair_status));
  REQUIRE(WEXITSTATUS(pair_status) == 0);
  CHECK(line_starting(describe(pair).text, "connectors (2): ") == "connectors (2): port_bolt, starboard_bolt");
}
