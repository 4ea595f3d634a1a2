// End-to-end: what becomes of the result file when a run is killed, signalled, raced by a
// second run, pointed at one of its inputs, or has lost its stderr reader (issue 12). Every
// test runs the real `sim` executable and sends real signals; a full disk is tested by
// tests/tools/test_full_disk.sh, which needs root to mount a small tmpfs.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <tuple>
#include <string>
#include <thread>

#include "support/sim_process.h"

namespace fs = std::filesystem;
using namespace uwsim::test;

namespace {

const std::string kLongRun = "100000";  // s of simulated time: longer than any test waits

// A completed short run at `dir/out.h5`, the "previous result" a later run must not destroy.
std::string previous_result(const fs::path& dir) {
  const Outcome out = run_sim("-q '" + kDefaultScenario + "' --duration 1 -o out.h5", dir);
  REQUIRE(out.exit_code == 0);
  const std::string bytes = read_bytes(dir / "out.h5");
  REQUIRE(bytes.size() > 1000);
  return bytes;
}

int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status); }

}  // namespace

TEST_CASE("run: killed outright (SIGKILL), the previous result stays and <output>.partial opens in h5py with equal lengths") {
  const fs::path dir = fresh_dir("kill_partial");
  const std::string before = previous_result(dir);
  SimProcess run(dir, {kDefaultScenario, "--duration", kLongRun, "-o", "out.h5"});
  REQUIRE(wait_for_file(dir / "out.h5.partial", 400'000));
  run.signal(SIGKILL);
  CHECK(exit_code(run.wait()) == -SIGKILL);
  CHECK(read_bytes(dir / "out.h5") == before);
  const std::string verdict = h5py_verdict(dir / "out.h5.partial");
  CAPTURE(verdict);
  REQUIRE(verdict.rfind("ok ", 0) == 0);
  CHECK(std::stoul(verdict.substr(3)) >= 1024);
  ResultFile partial(dir / "out.h5.partial");
  REQUIRE(partial.ok());
  CHECK(partial.root_attribute("status") == "running");
  // Set at the close, but there from the start: set then, it would grow the root group's
  // header, and a kill in that commit could leave datasets that do not open.
  CHECK(partial.has_root_attribute("warnings"));
  CHECK(partial.root_attribute("warnings") == "");
  // The samples are the run's: t_k = k / 50 Hz.
  const std::vector<double> t = partial.values("/time");
  REQUIRE(!t.empty());
  CHECK(t.back() == doctest::Approx(static_cast<double>(t.size() - 1) / 50.0));
}

namespace {

// strace, able to trace here (a container may forbid ptrace): the tool for a kill at an exact write.
bool strace_works() {
  return std::system("strace -f -o /dev/null -e trace=pwrite64 true > /dev/null 2>&1") == 0;
}

}  // namespace

TEST_CASE("run: killed at each of the writes of its first commits, <output>.partial has every time series of one length") {
  // A kill between two writes of a commit is the fault this guards against: the lengths of all
  // datasets are extended by one write, so no kill point can show one dataset a chunk longer
  // than another. strace makes the kill land exactly at the N-th write to any file. Sampled
  // at 1 kHz, so that a chunk of 1024 rows is 1 s of simulated time, not 20.
  if (!strace_works()) {
    MESSAGE("skipped: strace is missing or cannot trace here (tools/quickstart test installs it)");
    return;
  }
  const fs::path dir = fresh_dir("kill_at_write");
  // The default scenario (6 time series and its outline's solids under /visuals; its first two
  // commits of chunks within 64 writes) and an arm (58 time series and the vehicle's solids,
  // 22 kB of headers: a length commit of six pages; its first within 170). /visuals are written
  // whole before the first sample: their lengths are not the time series'.
  const std::vector<std::tuple<std::string, int, unsigned long>> runs = {
      {kDefaultScenario, 64, 2048}, {std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_arm_swing.yaml", 170, 1024}};
  for (const auto& [scenario, writes, last_length] : runs) {
    std::set<unsigned long> committed_lengths;
    for (int write = 1; write <= writes; ++write) {
      CAPTURE(scenario);
      CAPTURE(write);
      fs::remove(dir / "out.h5.partial");
      const std::string command = "cd '" + dir.string() + "' && strace -f -o /dev/null -e trace=pwrite64 "
                                  "-e inject=pwrite64:signal=SIGKILL:when=" + std::to_string(write) + " '" + kSim +
                                  "' -q '" + scenario + "' --duration 600" +
                                  " --set simulation.output_rate=1000 -o out.h5 > /dev/null 2>&1";
      CHECK(std::system(command.c_str()) != 0);  // killed
      if (!fs::exists(dir / "out.h5.partial")) continue;  // killed before it was published
      ResultFile partial(dir / "out.h5.partial");
      REQUIRE(partial.ok());
      const auto lengths = partial.lengths();
      REQUIRE(lengths.size() > 1);
      std::set<hsize_t> distinct;
      for (const auto& [path, length] : lengths) distinct.insert(length);
      CAPTURE(lengths);
      REQUIRE(distinct.size() == 1);
      const std::vector<double> t = partial.values("/time");
      if (!t.empty()) CHECK(t.back() == doctest::Approx(static_cast<double>(t.size() - 1) / 1000.0));
      committed_lengths.insert(*distinct.begin());
    }
    // The kills landed before, between and after the writes of each commit up to `last_length`.
    CAPTURE(scenario);
    CAPTURE(committed_lengths.size());
    for (unsigned long length = 0; length <= last_length; length += 1024) CHECK(committed_lengths.count(length) == 1);
  }
}

TEST_CASE("run: killed before its first chunk, <output>.partial has the structure, and after 2 s it has the samples of its timed flush") {
  const fs::path dir = fresh_dir("kill_early");
  // A 1 µs step: about 20 ms of wall time per 50 Hz sample, so the first 1024-row chunk is
  // 20 s away and only the timed flushes (every 2 s) put samples on disk before it.
  const std::vector<std::string> slow = {kDefaultScenario, "--duration", "100", "--set", "simulation.step=1e-6", "-o", "out.h5"};
  {
    SimProcess run(dir, slow);
    REQUIRE(wait_for_file(dir / "out.h5.partial", 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    run.signal(SIGKILL);
    run.wait();
    CHECK(h5py_verdict(dir / "out.h5.partial").rfind("ok ", 0) == 0);
    ResultFile partial(dir / "out.h5.partial");
    REQUIRE(partial.ok());
    const auto lengths = partial.lengths();
    CHECK(lengths.count("/bodies/rov/velocity") == 1);  // the structure is there from the start
    CHECK(lengths.size() == 6);
  }
  {
    SimProcess run(dir, slow);
    REQUIRE(wait_for_file(dir / "out.h5.partial", 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(3000));
    run.signal(SIGKILL);
    run.wait();
    const std::string verdict = h5py_verdict(dir / "out.h5.partial");
    CAPTURE(verdict);
    REQUIRE(verdict.rfind("ok ", 0) == 0);
    const unsigned long rows = std::stoul(verdict.substr(3));
    CHECK(rows > 0);      // a timed flush
    CHECK(rows < 1024);   // no chunk yet
  }
}

TEST_CASE("run: SIGTERM, SIGHUP and SIGPIPE end a run like Ctrl-C, exit 128 + signal, with a complete file") {
  for (const int signal_number : {SIGTERM, SIGHUP, SIGPIPE}) {
    CAPTURE(signal_number);
    const fs::path dir = fresh_dir("signal_" + std::to_string(signal_number));
    SimProcess run(dir, {kDefaultScenario, "--duration", kLongRun, "-o", "out.h5"});
    REQUIRE(wait_for_file(dir / "out.h5.partial", 200'000));
    run.signal(signal_number);
    CHECK(exit_code(run.wait()) == 128 + signal_number);
    CHECK_FALSE(fs::exists(dir / "out.h5.partial"));
    CHECK_FALSE(fs::exists(dir / "out.h5.lock"));
    ResultFile result(dir / "out.h5");
    REQUIRE(result.ok());
    CHECK(result.root_attribute("status") == "interrupted");
    CHECK(h5py_verdict(dir / "out.h5").rfind("ok ", 0) == 0);
  }
}

TEST_CASE("run: a run whose stderr reader has gone still completes (exit 0, not 141)") {
  const fs::path dir = fresh_dir("stderr_gone");
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    if (chdir(dir.c_str()) != 0 || dup2(fds[1], STDERR_FILENO) < 0) _exit(99);
    // -v: it writes to stderr all along, the last line after the file is complete.
    execl(kSim.c_str(), kSim.c_str(), "-v", kDefaultScenario.c_str(), "--duration", "2", "-o", "out.h5", nullptr);
    _exit(98);
  }
  close(fds[0]);  // nobody reads
  close(fds[1]);
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(exit_code(status) == 0);
  ResultFile result(dir / "out.h5");
  REQUIRE(result.ok());
  CHECK(result.root_attribute("status") == "completed");
}

TEST_CASE("run: a second run aimed at the same output exits 2 before touching either file, naming the first") {
  const fs::path dir = fresh_dir("second_writer");
  const std::string before = previous_result(dir);
  SimProcess first(dir, {kDefaultScenario, "--duration", kLongRun, "-o", "out.h5"});
  REQUIRE(wait_for_file(dir / "out.h5.partial", 200'000));
  struct stat partial_before {};
  REQUIRE(stat((dir / "out.h5.partial").c_str(), &partial_before) == 0);

  const Outcome second = run_sim("'" + kDefaultScenario + "' --duration 1 -o out.h5", dir);
  CAPTURE(second.output);
  CHECK(second.exit_code == 2);
  CHECK(second.output.find("is being written by another run (pid " + std::to_string(first.pid())) != std::string::npos);
  CHECK(read_bytes(dir / "out.h5") == before);
  struct stat partial_after {};
  REQUIRE(stat((dir / "out.h5.partial").c_str(), &partial_after) == 0);
  CHECK(partial_after.st_ino == partial_before.st_ino);  // the first run's file, still growing
  CHECK(partial_after.st_size >= partial_before.st_size);

  first.signal(SIGINT);
  CHECK(exit_code(first.wait()) == 130);
  ResultFile result(dir / "out.h5");
  REQUIRE(result.ok());
  CHECK(result.root_attribute("status") == "interrupted");
  CHECK(result.values("/time").size() > 1024);
  // And the output is free again.
  CHECK(run_sim("-q '" + kDefaultScenario + "' --duration 1 -o out.h5", dir).exit_code == 0);
}

TEST_CASE("run: an output that is one of the run's inputs is refused and the input is untouched") {
  const fs::path dir = fresh_dir("output_is_input");
  fs::create_directories(dir / "vehicles");
  fs::copy_file(std::string(UWSIM_SOURCE_DIR) + "/scenarios/vehicles/bluerov2.yaml", dir / "vehicles/bluerov2.yaml");
  write_file(dir / "log.csv", "time,pwm\n0,1500\n10,1600\n");
  const std::string scenario =
      "name: io\n"
      "simulation: {duration: 0.1}\n"
      "include:\n  - {file: vehicles/bluerov2.yaml, name: rov}\n"
      "inputs:\n  - {name: pwm, type: csv, file: log.csv, column: pwm}\n";
  write_file(dir / "io.yaml", scenario);
  REQUIRE(run_sim("-q io.yaml -o ok.h5", dir).exit_code == 0);
  const std::string part = read_bytes(dir / "vehicles/bluerov2.yaml");
  for (const std::string output : {"io.yaml", "vehicles/bluerov2.yaml", "log.csv", "./vehicles/../io.yaml"}) {
    CAPTURE(output);
    const Outcome out = run_sim("io.yaml -o '" + output + "'", dir);
    CHECK(out.exit_code == 2);
    CHECK(out.output.find("is an input of this run") != std::string::npos);
  }
  CHECK(read_bytes(dir / "io.yaml") == scenario);
  CHECK(read_bytes(dir / "vehicles/bluerov2.yaml") == part);
  CHECK(read_bytes(dir / "log.csv") == "time,pwm\n0,1500\n10,1600\n");
  for (const auto& entry : fs::directory_iterator(dir))
    CHECK(entry.path().filename().string().find(".partial") == std::string::npos);
}

TEST_CASE("run: a previous result held open by a reader is replaced, and the reader keeps reading the old one") {
  const fs::path dir = fresh_dir("held_open");
  previous_result(dir);
  const ResultFile held(dir / "out.h5");
  REQUIRE(held.ok());
  const std::size_t old_rows = held.values("/time").size();
  REQUIRE(run_sim("-q '" + kDefaultScenario + "' --duration 3 -o out.h5", dir).exit_code == 0);
  CHECK(held.values("/time").size() == old_rows);  // 1 s at 50 Hz: 51 samples
  CHECK(old_rows == 51);
  const ResultFile fresh(dir / "out.h5");
  REQUIRE(fresh.ok());
  CHECK(fresh.values("/time").size() == 151);
}

TEST_CASE("run: an absurd projected size or step count exits 2 with the projection, unless --force") {
  const fs::path dir = fresh_dir("absurd");
  // 1e9 s at 50 Hz: 5e10 samples of 23 values (time, and 22 of the one body).
  const Outcome big = run_sim("'" + kDefaultScenario + "' --duration 1e9 -o out.h5", dir);
  CAPTURE(big.output);
  CHECK(big.exit_code == 2);
  CHECK(big.output.find("about 9.2e+03 GB (5e+10 samples of 23 values") != std::string::npos);
  CHECK(big.output.find("--force") != std::string::npos);
  const Outcome steps = run_sim("'" + kDefaultScenario + "' --duration 10 --set simulation.step=1e-9 -o out.h5", dir);
  CAPTURE(steps.output);
  CHECK(steps.exit_code == 2);
  CHECK(steps.output.find("and take 1e+10 rk4 steps") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out.h5"));
  CHECK_FALSE(fs::exists(dir / "out.h5.lock"));

  SimProcess forced(dir, {kDefaultScenario, "--duration", "1e9", "--force", "-o", "out.h5"});
  REQUIRE(wait_for_file(dir / "out.h5.partial", 1));
  forced.signal(SIGINT);
  CHECK(exit_code(forced.wait()) == 130);
}

TEST_CASE("run: --duration -3 says in one short line what it expects") {
  const fs::path dir = fresh_dir("negative_duration");
  const Outcome out = run_sim("'" + kDefaultScenario + "' --duration -3", dir);
  CAPTURE(out.output);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("expected a positive number of seconds, got -3") != std::string::npos);
  CHECK(out.output.size() < 200);
}

TEST_CASE("run: an output folder that cannot be made exits 2 and writes nothing") {
  const fs::path dir = fresh_dir("bad_folder");
  write_file(dir / "plain_file", "x");
  const Outcome out = run_sim("'" + kDefaultScenario + "' -o plain_file/out.h5", dir);
  CAPTURE(out.output);
  CHECK(out.exit_code == 2);
  CHECK(out.output.find("cannot create the folder plain_file") != std::string::npos);
}

TEST_CASE("validate: a part is checked as a part, and a result file is not YAML and says so") {
  const fs::path dir = fresh_dir("validate_kinds");
  const Outcome part = run_sim("validate '" + std::string(UWSIM_SOURCE_DIR) + "/scenarios/vehicles/bluerov2.yaml'", dir);
  CAPTURE(part.output);
  CHECK(part.exit_code == 0);
  CHECK(part.output.find("bluerov2.yaml: valid part (1 body") != std::string::npos);
  // A URDF robot is a part by its name, as an include reads it.
  const Outcome urdf = run_sim("validate '" + std::string(UWSIM_SOURCE_DIR) + "/scenarios/kolano2024/alpha5.urdf'", dir);
  CAPTURE(urdf.output);
  CHECK(urdf.exit_code == 0);
  CHECK(urdf.output.find("alpha5.urdf: valid part (") != std::string::npos);
  previous_result(dir);
  const Outcome h5 = run_sim("validate out.h5", dir);
  CAPTURE(h5.output);
  CHECK(h5.exit_code == 2);
  CHECK(h5.output.find("out.h5: error: not a YAML file: an HDF5 file") != std::string::npos);
}

TEST_CASE("run: an output that is not a regular file (a FIFO, a link, beside files that are not) is refused, untouched") {
  // A rename onto /dev/null replaced the device with a regular file. Here a FIFO stands in for
  // the device (the real /dev/null is never touched); a link is refused rather than followed.
  const fs::path dir = fresh_dir("not_a_file");
  REQUIRE(::mkfifo((dir / "pipe.h5").c_str(), 0644) == 0);
  const Outcome fifo = run_sim("'" + kDefaultScenario + "' --duration 0.1 -o pipe.h5", dir);
  CAPTURE(fifo.output);
  CHECK(fifo.exit_code == 2);
  CHECK(fifo.output.find("the output pipe.h5 is a FIFO (named pipe), not a file") != std::string::npos);
  CHECK(fs::is_fifo(fs::symlink_status(dir / "pipe.h5")));

  write_file(dir / "kept.h5", "not to be replaced");
  fs::create_symlink("kept.h5", dir / "link.h5");
  const Outcome link = run_sim("'" + kDefaultScenario + "' --duration 0.1 -o link.h5", dir);
  CAPTURE(link.output);
  CHECK(link.exit_code == 2);
  CHECK(link.output.find("the output link.h5 is a symbolic link (to kept.h5), not a file") != std::string::npos);
  CHECK(fs::is_symlink(dir / "link.h5"));
  CHECK(read_bytes(dir / "kept.h5") == "not to be replaced");

  // The names a run writes beside its output are held to the same rule.
  REQUIRE(::mkfifo((dir / "side.h5.partial").c_str(), 0644) == 0);
  const Outcome partial = run_sim("'" + kDefaultScenario + "' --duration 0.1 -o side.h5", dir);
  CAPTURE(partial.output);
  CHECK(partial.exit_code == 2);
  CHECK(partial.output.find("side.h5.partial (which a run writes beside its output) is a FIFO") != std::string::npos);
  CHECK(fs::is_fifo(fs::symlink_status(dir / "side.h5.partial")));
  fs::create_symlink("kept.h5", dir / "lock.h5.lock");
  const Outcome lock = run_sim("'" + kDefaultScenario + "' --duration 0.1 -o lock.h5", dir);
  CAPTURE(lock.output);
  CHECK(lock.exit_code == 2);
  CHECK(lock.output.find("lock.h5.lock (which a run writes beside its output) is a symbolic link") != std::string::npos);
  CHECK(read_bytes(dir / "kept.h5") == "not to be replaced");
  for (const char* absent : {"side.h5", "lock.h5", "pipe.h5.partial", "link.h5.partial", "pipe.h5.lock"})
    CHECK_FALSE(fs::exists(fs::symlink_status(dir / absent)));
}

TEST_CASE("run: times in messages are printed with at most nine significant digits") {
  // 0.1 + 0.2 in binary is 0.30000000000000004: a message shows 0.3.
  const fs::path dir = fresh_dir("time_digits");
  const Outcome out = run_sim("'" + kDefaultScenario + "' --duration 0.30000000000000004 -o out.h5", dir);
  CAPTURE(out.output);
  CHECK(out.exit_code == 0);
  CHECK(out.output.find("for 0.3 s (") != std::string::npos);
  CHECK(out.output.find("completed 0.3 s in") != std::string::npos);
  CHECK(out.output.find("0.3000000") == std::string::npos);
}

TEST_CASE("compare and linearize: an output that is a FIFO or a link is refused, untouched") {
  // Their files are written beside the target and renamed onto it, as a run's are.
  const fs::path dir = fresh_dir("other_outputs");
  const std::string before = previous_result(dir);
  REQUIRE(::mkfifo((dir / "pipe.txt").c_str(), 0644) == 0);
  const Outcome compare = run_sim("compare out.h5 out.h5 -o pipe.txt", dir);
  CAPTURE(compare.output);
  CHECK(compare.exit_code == 2);
  CHECK(compare.output.find("the output pipe.txt is a FIFO (named pipe), not a file") != std::string::npos);
  CHECK(fs::is_fifo(fs::symlink_status(dir / "pipe.txt")));
  fs::create_symlink("out.h5", dir / "link.h5");
  const Outcome linear = run_sim("linearize '" + kDefaultScenario + "' -o link.h5", dir);
  CAPTURE(linear.output);
  CHECK(linear.exit_code == 2);
  CHECK(linear.output.find("the output link.h5 is a symbolic link (to out.h5)") != std::string::npos);
  CHECK(linear.output.find("linear model of") == std::string::npos);  // refused before the work
  CHECK(fs::is_symlink(dir / "link.h5"));
  CHECK(read_bytes(dir / "out.h5") == before);
}

TEST_CASE("run: the scenario's warnings are kept in the result file's warnings, as the run's are") {
  const fs::path dir = fresh_dir("kept_warnings");
  write_file(dir / "rpy.yaml",
             "name: s\nsimulation: {duration: 0.1}\n"
             "bodies:\n  - {name: b, mass: 1, inertia: [1, 1, 1], initial: {rpy: [0, 0, 90]}}\n");
  const Outcome out = run_sim("rpy.yaml -o out.h5", dir);
  CAPTURE(out.output);
  REQUIRE(out.exit_code == 0);
  CHECK(out.output.find("rpy.yaml:4:59: warning: bodies[0].initial.rpy: an angle beyond") != std::string::npos);
  const ResultFile result(dir / "out.h5");
  REQUIRE(result.ok());
  CHECK(result.root_attribute("warnings").find("was it written in degrees?") != std::string::npos);
}
