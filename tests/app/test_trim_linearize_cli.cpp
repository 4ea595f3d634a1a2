// End-to-end: `sim trim` and `sim linearize` on real scenario files — exit codes, the files they
// write (and never overwrite: the input scenario), and a trimmed scenario that reads back at
// its equilibrium.
#include <doctest/doctest.h>

#include <hdf5.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/sim_process.h"

namespace fs = std::filesystem;
using uwsim::test::Outcome;
using uwsim::test::run_sim;
using uwsim::test::kSim;

namespace {

const std::string kSurge = std::string(UWSIM_SOURCE_DIR) + "/scenarios/stability/bluerov2_surge_stability.yaml";

struct Scratch {
  fs::path dir;
  explicit Scratch(const std::string& name)
      : dir(fs::temp_directory_path() / ("uwsim_trim_" + name + "_" + std::to_string(getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

nlohmann::json read_json(const fs::path& path) { return nlohmann::json::parse(read_text(path)); }

}  // namespace

TEST_CASE("cli: sim trim solves the scenario's trim block and writes a scenario that starts at the equilibrium") {
  Scratch s("write");
  const Outcome first = run_sim("trim '" + kSurge + "' -o trimmed.yaml --json trim.json", s.dir);
  CAPTURE(first.output);
  REQUIRE(first.exit_code == 0);
  CHECK(first.output.find("converged") != std::string::npos);
  const nlohmann::json j = read_json(s.dir / "trim.json");
  CHECK(j["converged"] == true);
  CHECK(j["unknowns"].size() == 3);
  const std::string text = read_text(s.dir / "trimmed.yaml");
  // The schema modeline, relative to the new file's folder.
  CHECK(text.rfind("# yaml-language-server: $schema=", 0) == 0);
  CHECK(text.find("type: constant") != std::string::npos);
  // Read back, it is already at its equilibrium: no iteration needed; and it validates.
  const Outcome again = run_sim("trim trimmed.yaml --json again.json", s.dir);
  CAPTURE(again.output);
  REQUIRE(again.exit_code == 0);
  const nlohmann::json k = read_json(s.dir / "again.json");
  CHECK(k["iterations"] == 0);
  for (std::size_t i = 0; i < 3; ++i)
    CHECK(k["unknowns"][i]["value"].get<double>() == doctest::Approx(j["unknowns"][i]["value"].get<double>()).epsilon(1e-12));
  CHECK(run_sim("validate -q trimmed.yaml", s.dir).exit_code == 0);
}

TEST_CASE("cli: sim trim never overwrites its input, and exits 4 where there is no equilibrium") {
  Scratch s("refuse");
  fs::copy_file(kSurge, s.dir / "input.yaml");
  fs::create_directories(s.dir / "vehicles");
  fs::copy_file(std::string(UWSIM_SOURCE_DIR) + "/scenarios/vehicles/bluerov2.yaml", s.dir / "vehicles" / "bluerov2.yaml");
  std::string text = read_text(s.dir / "input.yaml");
  const std::string original = text;
  // The copy includes ../vehicles/...: make that vehicles/... beside it.
  text.replace(text.find("../vehicles/"), 12, "vehicles/");
  std::ofstream(s.dir / "input.yaml") << text;
  const Outcome same = run_sim("trim input.yaml -o ./input.yaml", s.dir);
  CHECK(same.exit_code == 2);
  CHECK(same.output.find("-o: the output ./input.yaml is an input of this command (input.yaml)") != std::string::npos);
  CHECK(read_text(s.dir / "input.yaml") == text);
  // The surge force held at 10 N with only the pitch free: u̇ cannot vanish at 0.5 m/s.
  const Outcome none = run_sim("trim input.yaml --unknown bodies.bluerov2/rov.pitch -o out.yaml", s.dir);
  CAPTURE(none.output);
  CHECK(none.exit_code == 4);
  CHECK(none.output.find("no equilibrium") != std::string::npos);
  CHECK_FALSE(fs::exists(s.dir / "out.yaml"));
  // A name that is no variable: exit 2, naming it.
  const Outcome bad = run_sim("trim input.yaml --unknown bodies.bluerov2/rov.pich", s.dir);
  CHECK(bad.exit_code == 2);
  CHECK(bad.output.find("pich") != std::string::npos);
}

TEST_CASE("cli: sim linearize writes A, B and the modes to HDF5 and JSON and prints the table") {
  Scratch s("linear");
  const Outcome r = run_sim("linearize '" + kSurge + "' --trim -o lin.h5", s.dir);
  CAPTURE(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("unstable") != std::string::npos);
  const nlohmann::json j = read_json(s.dir / "lin.json");
  const std::size_t n = j["states"].size();
  CHECK(n == 12);
  CHECK(j["A"].size() == n);
  CHECK(j["A"][0].size() == n);
  CHECK(j["B"][0].size() == 1);
  CHECK(j["modes"].size() == n);
  CHECK(j["operating_point"]["description"] == "the trim solution");
  const hid_t file = H5Fopen((s.dir / "lin.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  for (const char* path : {"/A", "/B", "/A_error", "/modes/eigenvalue", "/modes/participation", "/operating_point/state"}) {
    CAPTURE(path);
    CHECK(H5Lexists(file, path, H5P_DEFAULT) > 0);
  }
  H5Fclose(file);
  // --at and --trim together, or a bad option: exit 2, nothing written.
  CHECK(run_sim("linearize '" + kSurge + "' --trim --at 1 -o other.h5", s.dir).exit_code == 2);
  CHECK_FALSE(fs::exists(s.dir / "other.h5"));
}

TEST_CASE("cli: sim linearize --at simulates first — connected vehicles get their constraints removed") {
  Scratch s("pair");
  const Outcome r = run_sim("linearize '" + std::string(UWSIM_SOURCE_DIR) + "/scenarios/two_bluerov_rigid.yaml' --at 2 -o pair.h5", s.dir);
  CAPTURE(r.output);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = read_json(s.dir / "pair.json");
  CHECK(j["operating_point"]["time"] == 2.0);
  CHECK(j["states"].size() == 36);
  CHECK(j["constraints"]["rank"] == 24);
  CHECK(j["modes"].size() == 12);
  // A simulation to --at that diverges: exit 3, naming the body, and nothing written.
  const Outcome bad = run_sim("linearize '" + std::string(UWSIM_SOURCE_DIR) +
                                  "/scenarios/bluerov2_push.yaml' --set forces.push.force=[0,0,1e12] --at 1 -o bad.h5",
                              s.dir);
  CHECK(bad.exit_code == 3);
  CHECK(bad.output.find("body 'rov'") != std::string::npos);
  CHECK_FALSE(fs::exists(s.dir / "bad.h5"));
  CHECK_FALSE(fs::exists(s.dir / "bad.json"));
}

namespace {

// `count` free bodies with damping, neutrally buoyant, side by side; trim unknowns: their heave speeds.
std::string free_bodies(int count) {
  std::string text = "name: many\nsimulation: {duration: 1.0}\nbodies:\n";
  for (int k = 0; k < count; ++k)
    text += "  - {name: b" + std::to_string(k) + ", mass: 1.0, inertia: [1.0, 1.0, 1.0], volume: 0.001, "
            "linear_damping: [1, 1, 1, 1, 1, 1], initial: {position: [" + std::to_string(k) + ".0, 0.0, 5.0]}}\n";
  text += "trim:\n  unknowns: [";
  for (int k = 0; k < count; ++k) text += (k ? ", bodies.b" : "bodies.b") + std::to_string(k) + ".w";
  return text + "]\n";
}

}  // namespace

TEST_CASE("cli: sim trim and sim linearize refuse more than 600 state coordinates at once, naming the size and the limit") {
  Scratch s("size");
  // 1000 free bodies are 12 000 coordinates: linearize reached 5.6 GB and aborted, trim ran for minutes.
  std::ofstream(s.dir / "many.yaml") << free_bodies(1000);
  std::ofstream(s.dir / "51.yaml") << free_bodies(51);
  for (const char* command : {"linearize many.yaml -o lin.h5", "trim many.yaml --json t.json", "linearize 51.yaml -o lin.h5",
                              "trim 51.yaml --json t.json"}) {
    CAPTURE(command);
    const Outcome out = run_sim(command, s.dir);
    CHECK(out.exit_code == 2);
    const bool large = std::string(command).find("many") != std::string::npos;
    CHECK(out.output.find(std::string("the linear model would have ") + (large ? "12000" : "612") + " state coordinates and 0 input "
                          "channels") != std::string::npos);
    CHECK(out.output.find("sim trim and sim linearize take at most 600 coordinates (50 free bodies) and 600 channels") != std::string::npos);
    if (large) CHECK(out.output.find("this one would take about 11 h and 25 GB") != std::string::npos);
    CHECK_FALSE(fs::exists(s.dir / "lin.h5"));
    CHECK_FALSE(fs::exists(s.dir / "t.json"));
  }
}

TEST_CASE("cli: SIGINT stops sim linearize and SIGTERM sim trim: exit 130 and 143, as sim run's, nothing written") {
  Scratch s("signals");
  const auto started = [&](const std::string& args, int signal_number) {
    const std::string command = "cd '" + s.dir.string() + "' && exec '" + kSim + "' " + args + " > log.txt 2>&1";
    const pid_t child = fork();
    if (child == 0) {
      execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      _exit(99);
    }
    usleep(700'000);  // loaded and into its loops
    kill(child, signal_number);
    int status = 0;
    waitpid(child, &status, 0);
    return status;
  };
  // --at 1e5: 10⁸ steps to simulate first (the integrator polls the flag after each step).
  int status = started("linearize '" + kSurge + "' --at 100000 -o lin.h5", SIGINT);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  CHECK(read_text(s.dir / "log.txt").find("interrupted (Interrupt): nothing written") != std::string::npos);
  CHECK_FALSE(fs::exists(s.dir / "lin.h5"));
  CHECK_FALSE(fs::exists(s.dir / "lin.json"));
  // 35 bodies (420 coordinates): a second or two of Jacobian and modes.
  std::ofstream(s.dir / "35.yaml") << free_bodies(35);
  status = started("trim 35.yaml --json t.json -o trimmed.yaml", SIGTERM);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 143);
  CHECK_FALSE(fs::exists(s.dir / "t.json"));
  CHECK_FALSE(fs::exists(s.dir / "trimmed.yaml"));
}
