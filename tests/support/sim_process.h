// Test helpers for end-to-end tests of the `sim` executable: scratch folders, runs (waited for,
// or started in the background to be signalled), and a read-only look at result files through
// the HDF5 C API, independent of the writer under test.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace uwsim::test {

namespace fs = std::filesystem;

// The `sim` under test: this build's, or UWSIM_TEST_SIM=/path/to/sim to run the end-to-end
// cases against another build (how a case was seen to fail on the code before its fix).
inline std::string sim_under_test() {
  const char* other = std::getenv("UWSIM_TEST_SIM");
  return other != nullptr && *other != '\0' ? other : UWSIM_SIM_EXE;
}
inline const std::string kSim = sim_under_test();
inline const std::string kDefaultScenario = std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_push.yaml";

// Scratch folders, one per name and process, removed when the test program exits.
inline fs::path fresh_dir(const std::string& name) {
  struct Scratch {
    std::vector<fs::path> paths;
    ~Scratch() {
      std::error_code ignored;
      for (const fs::path& p : paths) fs::remove_all(p, ignored);
    }
  };
  static Scratch scratch;
  const fs::path dir = fs::temp_directory_path() / ("uwsim_cli_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  scratch.paths.push_back(dir);
  return dir;
}

struct Outcome {
  int exit_code;       // as a shell reports it: 128 + N for signal N; 124: killed after 60 s (a hang)
  std::string output;  // stdout and stderr
};

// Runs `sim ARGS` (a shell word list) in `dir` and waits for it, at most 60 s.
inline Outcome run_sim(const std::string& args, const fs::path& dir) {
  const fs::path log = dir / "log.txt";
  const std::string command =
      "cd '" + dir.string() + "' && timeout 60 '" + kSim + "' " + args + " > '" + log.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), text.str()};
}

inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void write_file(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

// A `sim` started in the background in `dir` with `args`, its stderr to `stderr_path` (or
// /dev/null). Killed (SIGKILL) on destruction if still running.
class SimProcess {
 public:
  SimProcess(const fs::path& dir, const std::vector<std::string>& args, const fs::path& stderr_path = "/dev/null") {
    pid_ = fork();
    if (pid_ == 0) {
      if (chdir(dir.c_str()) != 0) _exit(99);
      const int err = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err < 0 || dup2(err, STDERR_FILENO) < 0) _exit(97);
      std::vector<char*> argv{const_cast<char*>(kSim.c_str())};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(kSim.c_str(), argv.data());
      _exit(98);
    }
  }
  ~SimProcess() {
    if (pid_ > 0 && !waited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  SimProcess(const SimProcess&) = delete;
  SimProcess& operator=(const SimProcess&) = delete;

  pid_t pid() const { return pid_; }
  void signal(int number) const { kill(pid_, number); }
  // The exit status (waitpid's), after waiting for the end.
  int wait() {
    int status = 0;
    waitpid(pid_, &status, 0);
    waited_ = true;
    return status;
  }

 private:
  pid_t pid_ = -1;
  bool waited_ = false;
};

// Waits (up to `seconds`) until `path` exists and holds at least `bytes`.
inline bool wait_for_file(const fs::path& path, std::uintmax_t bytes, double seconds = 30.0) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    std::error_code ignored;
    if (fs::exists(path) && fs::file_size(path, ignored) >= bytes) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

// A result file opened read-only; `ok()` false if HDF5 cannot open it.
class ResultFile {
 public:
  explicit ResultFile(const fs::path& path) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    file_ = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  }
  ~ResultFile() {
    if (file_ >= 0) H5Fclose(file_);
  }
  ResultFile(const ResultFile&) = delete;
  ResultFile& operator=(const ResultFile&) = delete;

  bool ok() const { return file_ >= 0; }
  hid_t id() const { return file_; }

  std::vector<hsize_t> shape(const std::string& path) const {
    const hid_t dataset = H5Dopen2(file_, path.c_str(), H5P_DEFAULT);
    if (dataset < 0) return {};
    const hid_t space = H5Dget_space(dataset);
    std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    H5Sclose(space);
    H5Dclose(dataset);
    return dims;
  }

  // Every value of a dataset, row-major; empty if it cannot be read.
  std::vector<double> values(const std::string& path) const {
    std::size_t count = 1;
    for (hsize_t d : shape(path)) count *= static_cast<std::size_t>(d);
    std::vector<double> all(count);
    const hid_t dataset = H5Dopen2(file_, path.c_str(), H5P_DEFAULT);
    if (dataset < 0) return {};
    const bool read = count == 0 || H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, all.data()) >= 0;
    H5Dclose(dataset);
    return read ? all : std::vector<double>{};
  }

  bool has_root_attribute(const std::string& name) const { return H5Aexists(file_, name.c_str()) > 0; }

  // Empty if missing (has_root_attribute tells the two apart).
  std::string root_attribute(const std::string& name) const {
    if (!has_root_attribute(name)) return {};
    const hid_t attribute = H5Aopen(file_, name.c_str(), H5P_DEFAULT);
    const hid_t type = H5Aget_type(attribute);
    char* value = nullptr;
    H5Aread(attribute, type, &value);
    std::string result = value ? value : "";
    H5free_memory(value);
    H5Tclose(type);
    H5Aclose(attribute);
    return result;
  }

  // The length (first dimension) of every time series, by path: every dataset but those under
  // /visuals (the solids a replay draws, written once at the start, not sampled).
  std::map<std::string, hsize_t> lengths() const {
    std::map<std::string, hsize_t> out;
    collect(file_, "", out);
    std::erase_if(out, [](const auto& entry) { return entry.first.rfind("/visuals/", 0) == 0; });
    return out;
  }

 private:
  void collect(hid_t group, const std::string& prefix, std::map<std::string, hsize_t>& out) const {
    std::vector<std::string> names;
    auto each = [](hid_t, const char* name, const H5L_info_t*, void* data) -> herr_t {
      static_cast<std::vector<std::string>*>(data)->push_back(name);
      return 0;
    };
    H5Literate(group, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr, each, &names);
    for (const std::string& name : names) {
      const hid_t object = H5Oopen(group, name.c_str(), H5P_DEFAULT);
      if (object < 0) continue;
      const std::string path = prefix + "/" + name;
      if (H5Iget_type(object) == H5I_GROUP) {
        collect(object, path, out);
      } else if (H5Iget_type(object) == H5I_DATASET) {
        const std::vector<hsize_t> dims = shape(path);
        out[path] = dims.empty() ? 0 : dims[0];
      }
      H5Oclose(object);
    }
  }

  hid_t file_ = -1;
};

// What h5py, the readers' tool, says of a file: "ok N" (every dataset read whole, all time
// series of N rows: /visuals are not sampled) or the problem. Uses Debian's python3-h5py.
inline std::string h5py_verdict(const fs::path& path) {
  const std::string command =
      "/usr/bin/python3 -c \"\n"
      "import sys, h5py\n"
      "try:\n"
      "    with h5py.File(sys.argv[1], 'r') as f:\n"
      "        lengths = set()\n"
      "        def visit(n, o):\n"
      "            if isinstance(o, h5py.Dataset):\n"
      "                rows = o[...].shape[0]\n"
      "                if not n.startswith('visuals/'): lengths.add(rows)\n"
      "        f.visititems(visit)\n"
      "        print('ok %d' % lengths.pop() if len(lengths) == 1 else 'unequal lengths %s' % sorted(lengths))\n"
      "except Exception as e:\n"
      "    print('unreadable: %s' % e)\n"
      "\" '" + path.string() + "' 2>&1";
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[512];
    while (fgets(buffer, sizeof buffer, pipe)) out += buffer;
    pclose(pipe);
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace uwsim::test
