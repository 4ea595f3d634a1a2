// The one rule for every file a command writes (issue 37; `sim run`'s result file adds its own
// `.partial` protocol on top, result_target.h):
// - The target is named (not ""), absent or a regular file: never a symbolic link (writing
//   through it would replace a file the command line does not name), a device, a FIFO or a
//   folder (the final rename would replace it).
// - It is none of the command's input files, compared by device and inode, so another spelling
//   of the name or a hard link is caught too; nor is its lock file.
// - It is locked through `<target>.lock` (flock; the file holds the owner's pid, host, start
//   time and command line) from before the command's work until the file is in place: a second
//   writer refuses, naming the first. A target that is another output's side name
//   (`X.partial`, `X.partial.new`) also takes X's lock: it cannot destroy the data of a run
//   writing X. Names ending in `.lock`, and names of the temporaries below, are refused.
// - It is written to a temporary beside it, created exclusively (O_EXCL, which also refuses a
//   link planted at the name) under a random name `.<target's name>.sim-tmp-<hex>` that no
//   run's side name takes, flushed to disk, and renamed onto the target: a reader sees the old
//   file or the new one, a failure or a kill leaves the old one.
#pragma once

#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace uwsim::output {

// The output cannot be used: taken by another run, an input file, a folder, unwritable.
class OutputRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws OutputRefused, saying what `name` is, unless it is absent or a regular file.
// `what` begins the message ("the output x").
void require_absent_or_regular(const std::string& name, const std::string& what);

// The files a command read, by device and inode (taken when added: a name that does not exist
// is left out, as it cannot be destroyed).
class InputFiles {
 public:
  InputFiles() = default;
  explicit InputFiles(const std::vector<std::string>& paths);
  void add(const std::string& path);
  void add(const std::vector<std::string>& paths);
  // The input that `name` is (the same file, under any name), if any; lstat's view, so a link
  // to an input is not one (links are refused as outputs anyway).
  std::optional<std::string> input_at(const std::string& name) const;

 private:
  struct Identity {
    std::string path;
    dev_t device;
    ino_t inode;
  };
  std::vector<Identity> files_;
};

// `<target>.lock`, as every writer of `target` names it.
std::string lock_name(const std::string& target);

// An flock on a lock file, with its owner's line in it; released (and the file removed) on
// destruction. The same protocol for every command, so any two writers of one target meet.
class TargetLock {
 public:
  enum class State { locked, held_by_another, held_by_this_process, no_locks };
  // Opens (creating it) and tries to lock `lock_path`; never blocks. Throws OutputRefused if the
  // file cannot be created or keeps being replaced.
  TargetLock(const std::string& lock_path, const std::string& command_line);
  ~TargetLock();
  TargetLock(const TargetLock&) = delete;
  TargetLock& operator=(const TargetLock&) = delete;

  State state() const { return state_; }
  bool locked() const { return state_ == State::locked; }
  // held_by_another: the holder's line ("pid 12 on host, started …: sim …"), or "".
  const std::string& owner() const { return owner_; }
  // no_locks: why (the file system has none).
  const std::string& warning() const { return warning_; }

 private:
  std::string path_;
  int fd_ = -1;
  State state_ = State::no_locks;
  std::string owner_, warning_;
  dev_t device_ = 0;
  ino_t inode_ = 0;
};

// The locks a writer of `target` holds: the target's own, and the owner's whose side name the
// target is (X for X.partial and X.partial.new), both refused with a message naming their
// holder. Refuses `.lock` names and temporaries' names. Throws OutputRefused.
// Each lock file is checked too: absent or a regular file, and no input (locking truncates it).
class TargetLocks {
 public:
  TargetLocks(const std::string& target, const InputFiles& inputs, const std::string& command_line);
  // Why locking was impossible (the file system has no locks), or "".
  std::string warning() const;
  bool locked() const;

 private:
  std::vector<std::unique_ptr<TargetLock>> locks_;
};

// A file a command writes, under the rule above. Constructed before the command's work: the
// checks and the lock then refuse it before anything is done.
class OutputFile {
 public:
  // `option` names the option in messages ("-o", "--predictions"). Creates the target's missing
  // folders. Throws OutputRefused.
  OutputFile(std::string target, std::string option, const InputFiles& inputs, const std::string& command_line);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  const std::string& target() const { return target_; }
  // Why the target could not be locked (the file system has no locks), or "".
  std::string lock_warning() const { return locks_->warning(); }

  // Writes `text` as the target. Throws OutputRefused (the target became unusable) or
  // OutputError (hdf5_file.h: the system's error, e.g. a full disk); the target is then as it was.
  void write(const std::string& text);
  // As write, for a writer that creates the file itself: `create(temporary)` must create the
  // file at that name, which does not exist, exclusively (O_EXCL; Hdf5FileOptions::exclusive),
  // write it whole and close it; it throws on failure.
  void write_with(const std::function<void(const std::string& temporary)>& create);

 private:
  void check_target() const;
  void publish(const std::string& temporary);

  std::string target_, option_;
  InputFiles inputs_;
  std::unique_ptr<TargetLocks> locks_;
};

// Creates `path`, which must not exist (O_EXCL | O_NOFOLLOW: a link there is refused, not
// followed), and writes `text` to it. Throws OutputError.
void write_new_file(const std::string& path, const std::string& text);

// A fresh name beside `target` for a temporary file: `.<name>.sim-tmp-<16 hex digits>` in the
// target's folder. Not created; the caller creates it exclusively.
std::string temporary_name(const std::string& target);

}  // namespace uwsim::output
