// The rule every file a command writes follows (output/output_file.h, issue 37): beside and
// renamed, under the target's lock, absent-or-regular, never an input, never through a link.
// The end-to-end cases per subcommand are in tests/app/test_subcommand_outputs.cpp.
#include "output/output_file.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "output/hdf5_file.h"
#include "output/result_target.h"

namespace fs = std::filesystem;
using uwsim::output::InputFiles;
using uwsim::output::OutputError;
using uwsim::output::OutputFile;
using uwsim::output::OutputRefused;

namespace {

struct Scratch {
  fs::path dir;
  explicit Scratch(const std::string& name)
      : dir(fs::temp_directory_path() / ("uwsim_output_file_" + name + "_" + std::to_string(getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
};

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void put(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// The names in `dir`, each with its kind, sorted: what a failed write must leave as it was.
std::string listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir))
    names.push_back(entry.path().filename().string() + (fs::is_symlink(entry.symlink_status()) ? "@" : ""));
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string& n : names) out += n + " ";
  return out;
}

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const OutputRefused& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("output_file: a file is written whole beside its target and renamed, and nothing else is left") {
  Scratch s("whole");
  put(s / "report.txt", "old");
  {
    OutputFile file(s / "report.txt", "-o", InputFiles{}, "test");
    CHECK(fs::exists(s / "report.txt.lock"));  // held while the command works
    file.write("new text\n");
    CHECK(read(s / "report.txt") == "new text\n");
  }
  CHECK(listing(s.dir) == "report.txt ");  // the lock is removed at the end, no temporary left
  // Missing folders are made.
  OutputFile deep(s / "a/b/c.txt", "-o", InputFiles{}, "test");
  deep.write("x");
  CHECK(read(s / "a/b/c.txt") == "x");
}

TEST_CASE("output_file: the temporary is a fresh hidden name beside the target, never a run's side name") {
  const std::string t = uwsim::output::temporary_name("out/run.h5");
  CHECK(fs::path(t).parent_path() == "out");
  const std::string name = fs::path(t).filename().string();
  CHECK(name.rfind(".run.h5.sim-tmp-", 0) == 0);
  CHECK(name.size() == std::string(".run.h5.sim-tmp-").size() + 16);
  for (const char* side : {"run.h5.partial", "run.h5.partial.new", "run.h5.lock"}) CHECK(name != side);
  CHECK(uwsim::output::temporary_name("out/run.h5") != t);  // a new one each time
  // A very long name still fits in NAME_MAX (255).
  CHECK(fs::path(uwsim::output::temporary_name(std::string(250, 'a'))).filename().string().size() <= 255);
  // Such names are refused as targets: a command aimed at one could replace another's file.
  Scratch s("reserved");
  CHECK(refusal([&] { OutputFile(s / ".x.sim-tmp-0123456789abcdef", "-o", InputFiles{}, "test"); }).find("temporary") !=
        std::string::npos);
  CHECK(refusal([&] { OutputFile(s / "x.lock", "-o", InputFiles{}, "test"); }).find("ending in .lock") != std::string::npos);
  CHECK_FALSE(fs::exists(s / "x.lock"));
}

TEST_CASE("output_file: a link planted at the temporary's name is refused, not followed, and the file it points to is untouched") {
  Scratch s("planted");
  put(s / "victim", "precious");
  put(s / "out.txt", "old");
  OutputFile text(s / "out.txt", "-o", InputFiles{}, "test");
  // The link is planted at the very name the temporary gets, just before it is created: text
  // files (O_EXCL | O_NOFOLLOW) and HDF5 files (H5F_ACC_EXCL) alike.
  CHECK_THROWS_AS(text.write_with([&](const std::string& temporary) {
                    fs::create_symlink(s / "victim", temporary);
                    uwsim::output::write_new_file(temporary, "replaced");
                  }),
                  OutputError);
  uwsim::output::Hdf5FileOptions exclusive;
  exclusive.exclusive = true;
  OutputFile h5(s / "out.h5", "-o", InputFiles{}, "test");
  CHECK_THROWS_AS(h5.write_with([&](const std::string& temporary) {
                    fs::create_symlink(s / "victim", temporary);
                    uwsim::output::Hdf5File file(temporary, exclusive);
                  }),
                  OutputError);
  CHECK(read(s / "victim") == "precious");
  CHECK(read(s / "out.txt") == "old");
  CHECK_FALSE(fs::exists(s / "out.h5"));
  // Neither the link nor a temporary is left; the locks go with their files.
  CHECK(listing(s.dir) == "out.h5.lock out.txt out.txt.lock victim ");
}

TEST_CASE("output_file: a target that is a link, a FIFO, a folder or a device is refused before anything is made") {
  Scratch s("not_files");
  put(s / "kept", "kept");
  fs::create_symlink("kept", s / "link");
  REQUIRE(::mkfifo((s / "fifo").c_str(), 0644) == 0);
  fs::create_directories(s / "folder");
  CHECK(refusal([&] { OutputFile(s / "link", "-o", InputFiles{}, "test"); }).find("is a symbolic link (to kept)") != std::string::npos);
  CHECK(refusal([&] { OutputFile(s / "fifo", "-o", InputFiles{}, "test"); }).find("is a FIFO (named pipe)") != std::string::npos);
  CHECK(refusal([&] { OutputFile(s / "folder", "-o", InputFiles{}, "test"); }).find("is a folder") != std::string::npos);
  // /dev/null itself: refused before its folder gets a lock file (as root, /dev is writable).
  CHECK(refusal([&] { OutputFile("/dev/null", "-o", InputFiles{}, "test"); }).find("-o: the output /dev/null is a character device") !=
        std::string::npos);
  CHECK_FALSE(fs::exists("/dev/null.lock"));
  CHECK(fs::is_character_file("/dev/null"));
  CHECK(refusal([&] { OutputFile("", "--predictions", InputFiles{}, "test"); }) ==
        "--predictions \"\": an empty name is no file; give a file name");
  CHECK(listing(s.dir) == "fifo folder kept link@ ");
  CHECK(read(s / "kept") == "kept");
  // A lock file that is a link is refused too (locking opens it for writing).
  fs::create_symlink("kept", s / "t.txt.lock");
  CHECK(refusal([&] { OutputFile(s / "t.txt", "-o", InputFiles{}, "test"); }).find("t.txt.lock (which a run writes beside its output) is a symbolic link") !=
        std::string::npos);
  CHECK(read(s / "kept") == "kept");
}

TEST_CASE("output_file: an input is refused under any name: itself, another spelling, a hard link, its lock file") {
  Scratch s("inputs");
  put(s / "data.csv", "time,x\n0,1\n");
  fs::create_directories(s / "sub");
  fs::create_hard_link(s / "data.csv", s / "sub/hard.csv");
  const InputFiles inputs({s / "data.csv"});
  for (const std::string& target : {s / "data.csv", s / "sub/../data.csv", s / "sub/hard.csv"}) {
    CAPTURE(target);
    CHECK(refusal([&] { OutputFile(target, "-o", inputs, "test"); }).find("is an input of this command (" + s / "data.csv" + ")") !=
          std::string::npos);
  }
  // Locking truncates the lock file: an input there is refused too.
  put(s / "x.lock", "an input named like a lock");
  CHECK(refusal([&] { OutputFile(s / "x", "-o", InputFiles({s / "x.lock"}), "test"); }).find("is an input of this command") !=
        std::string::npos);
  CHECK(read(s / "data.csv") == "time,x\n0,1\n");
  CHECK(read(s / "x.lock") == "an input named like a lock");
  CHECK(listing(s.dir) == "data.csv sub x.lock ");
}

TEST_CASE("output_file: one target given twice to one command is refused, and a side name of its own output is not") {
  Scratch s("twice");
  OutputFile first(s / "a.txt", "-o", InputFiles{}, "test");
  CHECK(refusal([&] { OutputFile(s / "./a.txt", "--predictions", InputFiles{}, "test"); }).find("given twice") != std::string::npos);
  OutputFile side(s / "a.txt.partial", "--predictions", InputFiles{}, "test");  // this command's own lock on a.txt
  side.write("p");
  first.write("a");
  CHECK(read(s / "a.txt") == "a");
  CHECK(read(s / "a.txt.partial") == "p");
}

TEST_CASE("output_file: another process's target is refused naming it, and so are its side names .partial and .partial.new") {
  Scratch s("other_process");
  put(s / "run.h5.partial", "the run's data");
  int ready[2], done[2];
  REQUIRE(pipe(ready) == 0);
  REQUIRE(pipe(done) == 0);
  const pid_t child = fork();
  if (child == 0) {
    // A run holding run.h5 (ResultTarget takes the same locks as every output).
    {
      const uwsim::output::ResultTarget target(s / "run.h5", {}, "sim run.yaml -o run.h5");
      char c = 1;
      if (::write(ready[1], &c, 1) != 1) _exit(1);
      if (::read(done[0], &c, 1) != 1) _exit(1);
    }
    _exit(0);
  }
  char c = 0;
  REQUIRE(::read(ready[0], &c, 1) == 1);
  const std::string pid = "pid " + std::to_string(child) + " on ";
  const std::string own = refusal([&] { OutputFile(s / "run.h5", "-o", InputFiles{}, "sim replay x.h5 -o run.h5"); });
  CHECK(own.find("run.h5 is being written by another run (" + pid) != std::string::npos);
  CHECK(own.find("sim run.yaml -o run.h5)") != std::string::npos);
  for (const std::string side : {"run.h5.partial", "run.h5.partial.new"}) {
    const std::string message = refusal([&] { OutputFile(s / side, "-o", InputFiles{}, "test"); });
    CAPTURE(message);
    CHECK(message.find(side + " holds the data of the run writing " + s / "run.h5" + " (" + pid) != std::string::npos);
    CHECK(refusal([&] { uwsim::output::ResultTarget(s / side, {}, "test"); }).find("holds the data of the run") != std::string::npos);
  }
  CHECK(read(s / "run.h5.partial") == "the run's data");
  REQUIRE(::write(done[1], &c, 1) == 1);
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // Once the run has ended, its stale .partial is an ordinary file.
  OutputFile after(s / "run.h5.partial", "-o", InputFiles{}, "test");
  after.write("replaced");
  CHECK(read(s / "run.h5.partial") == "replaced");
}

TEST_CASE("output_file: a failed write leaves the target as it was and no temporary") {
  Scratch s("failed");
  put(s / "out.txt", "old");
  OutputFile file(s / "out.txt", "-o", InputFiles{}, "test");
  CHECK_THROWS_WITH_AS(file.write_with([&](const std::string& temporary) {
                         uwsim::output::write_new_file(temporary, "half");
                         throw std::runtime_error("the writer failed");
                       }),
                       "the writer failed", std::runtime_error);
  CHECK(read(s / "out.txt") == "old");
  // The target turned into a FIFO while the command worked: refused at the rename, untouched.
  fs::remove(s / "out.txt");
  REQUIRE(::mkfifo((s / "out.txt").c_str(), 0644) == 0);
  CHECK_THROWS_AS(file.write("new"), OutputRefused);
  CHECK(fs::is_fifo(fs::symlink_status(s / "out.txt")));
  CHECK(listing(s.dir) == "out.txt out.txt.lock ");
}
