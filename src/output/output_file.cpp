#include "output/output_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <random>
#include <set>

#include "output/hdf5_file.h"

namespace uwsim::output {

namespace fs = std::filesystem;

namespace {

constexpr const char* kTemporaryTag = ".sim-tmp-";

std::string system_error(int error) { return std::strerror(error); }

// What a name that exists but is not a regular file is, for messages; "" for a regular file.
std::string not_a_file(const struct stat& st) {
  if (S_ISREG(st.st_mode)) return "";
  if (S_ISDIR(st.st_mode)) return "a folder";
  if (S_ISLNK(st.st_mode)) return "a symbolic link";
  if (S_ISCHR(st.st_mode)) return "a character device";
  if (S_ISBLK(st.st_mode)) return "a block device";
  if (S_ISFIFO(st.st_mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  return "not a regular file";
}

// "pid 1234 on host, started 2026-11-23 15:09:01: sim run.yaml -o out.h5": who holds a lock.
std::string owner_line(const std::string& command_line) {
  char host[256] = "?";
  gethostname(host, sizeof host - 1);
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char started[32] = "?";
  std::tm local{};
  if (localtime_r(&now, &local)) std::strftime(started, sizeof started, "%Y-%m-%d %H:%M:%S", &local);
  return "pid " + std::to_string(getpid()) + " on " + host + ", started " + started + ": " + command_line + "\n";
}

std::string read_owner(int fd) {
  char text[4096];
  const ssize_t n = pread(fd, text, sizeof text - 1, 0);
  std::string owner = n > 0 ? std::string(text, static_cast<std::size_t>(n)) : "";
  while (!owner.empty() && (owner.back() == '\n' || owner.back() == '\r')) owner.pop_back();
  return owner;
}

// The lock files this process holds, by device and inode: a second lock on one of them from
// this process is the same output given twice (flock locks of two descriptors conflict).
std::set<std::pair<dev_t, ino_t>>& held_here() {
  static std::set<std::pair<dev_t, ino_t>> held;
  return held;
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// X for X.partial and X.partial.new (the names a run writing X keeps its data under).
std::optional<std::string> owner_of_side_name(const std::string& target) {
  for (const std::string tail : {".partial.new", ".partial"})
    if (ends_with(target, tail) && target.size() > tail.size()) return target.substr(0, target.size() - tail.size());
  return std::nullopt;
}

void refuse_reserved_names(const std::string& target) {
  const std::string name = fs::path(target).filename().string();
  if (ends_with(name, ".lock"))
    throw OutputRefused("the output " + target + ": a name ending in .lock is where sim keeps the lock of the file "
                        "without it; give another name");
  if (name.starts_with(".") && name.find(kTemporaryTag) != std::string::npos)
    throw OutputRefused("the output " + target + " has the form of the temporary files sim writes beside its outputs "
                        "(.<name>" + std::string(kTemporaryTag) + "…); give another name");
}

void refuse_input(const InputFiles& inputs, const std::string& name, const std::string& what) {
  if (const auto input = inputs.input_at(name))
    throw OutputRefused(what + " is an input of this command (" + *input +
                        "); writing it would destroy it. Give another output");
}

void sync_folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  const int fd = ::open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);  // the rename on disk; a failure here loses nothing the rename did not
  ::close(fd);
}

}  // namespace

// Renaming onto a name replaces whatever it is (/dev/null became a regular file), and opening
// it writes through a link: every name a command writes or renames onto must be absent or a
// regular file. A symbolic link is refused rather than followed, so the file a link points to
// is never replaced behind the user's back.
void require_absent_or_regular(const std::string& name, const std::string& what) {
  struct stat st {};
  if (::lstat(name.c_str(), &st) != 0) return;  // absent (or unreachable: creating it will say)
  const std::string kind = not_a_file(st);
  if (kind.empty()) return;
  std::string message = what + " is " + kind;
  if (S_ISLNK(st.st_mode)) {
    std::error_code ec;
    const fs::path to = fs::read_symlink(name, ec);
    if (!ec) message += " (to " + to.string() + ")";
    message += ", not a file; sim does not write through links. Give the file itself, or remove the link";
  } else if (S_ISDIR(st.st_mode)) {
    message += "; give a file name";
  } else {
    message += ", not a file; sim writes its output beside it and renames it there, which would replace it. "
               "Give a file name";
  }
  throw OutputRefused(message);
}

InputFiles::InputFiles(const std::vector<std::string>& paths) { add(paths); }

void InputFiles::add(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) files_.push_back({path, st.st_dev, st.st_ino});
}

void InputFiles::add(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) add(path);
}

std::optional<std::string> InputFiles::input_at(const std::string& name) const {
  struct stat st {};
  if (::lstat(name.c_str(), &st) != 0) return std::nullopt;
  for (const Identity& file : files_)
    if (file.device == st.st_dev && file.inode == st.st_ino) return file.path;
  return std::nullopt;
}

std::string lock_name(const std::string& target) { return target + ".lock"; }

TargetLock::TargetLock(const std::string& lock_path, const std::string& command_line) : path_(lock_path) {
  // The file may be removed by a writer finishing while we open it: lock the file the name
  // refers to after locking, or try again.
  for (int attempt = 0; attempt < 100; ++attempt) {
    // O_NOFOLLOW: a link put there since the check must not make us truncate its target;
    // O_NONBLOCK: nor may a FIFO put there block the open.
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd_ < 0)
      throw OutputRefused("cannot create the lock file " + path_ + ": " + system_error(errno) +
                          " (is the output's folder writable?)");
    struct stat held {}, named {};
    if (::fstat(fd_, &held) != 0 || !S_ISREG(held.st_mode)) {
      ::close(fd_);
      fd_ = -1;
      throw OutputRefused("the lock file " + path_ + " is not a regular file");
    }
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      if (error == EWOULDBLOCK) {
        state_ = held_here().count({held.st_dev, held.st_ino}) ? State::held_by_this_process : State::held_by_another;
        if (state_ == State::held_by_another) owner_ = read_owner(fd_);
        ::close(fd_);
        fd_ = -1;
        return;
      }
      // No locks on this file system (some network ones): go on without, and say so.
      warning_ = "cannot lock " + path_ + " (" + system_error(error) +
                 "): a second writer of the same output would not be noticed";
      state_ = State::no_locks;
    } else if (::stat(path_.c_str(), &named) == 0 && held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
      state_ = State::locked;
      held_here().insert({held.st_dev, held.st_ino});
    } else {
      ::close(fd_);  // locked a file that is no longer there: try again
      fd_ = -1;
      continue;
    }
    device_ = held.st_dev;
    inode_ = held.st_ino;
    const std::string owner = owner_line(command_line);
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, owner.data(), owner.size(), 0) < 0) {
      // The lock holds without its text; only a second writer's message is poorer.
    }
    return;
  }
  throw OutputRefused("cannot lock " + path_ + ": it keeps being replaced by another run");
}

TargetLock::~TargetLock() {
  if (fd_ < 0) return;
  // Removed while still locked: a writer that opened it meanwhile sees the name gone and retries.
  ::unlink(path_.c_str());
  if (state_ == State::locked) held_here().erase({device_, inode_});
  ::close(fd_);
}

TargetLocks::TargetLocks(const std::string& target, const InputFiles& inputs, const std::string& command_line) {
  refuse_reserved_names(target);
  const auto take = [&](const std::string& of) -> const TargetLock& {
    const std::string path = lock_name(of);
    const std::string what = path + " (which a run writes beside its output)";
    require_absent_or_regular(path, what);
    refuse_input(inputs, path, what);
    locks_.push_back(std::make_unique<TargetLock>(path, command_line));
    return *locks_.back();
  };
  const TargetLock& own = take(target);
  if (own.state() == TargetLock::State::held_by_another)
    throw OutputRefused(target + " is being written by another run (" +
                        (own.owner().empty() ? std::string("it has not written its name yet") : own.owner()) +
                        "); nothing was changed. Wait for it to finish, or write elsewhere");
  if (own.state() == TargetLock::State::held_by_this_process)
    throw OutputRefused(target + " is given twice as an output of this command; give each output its own name");
  if (const auto owner = owner_of_side_name(target)) {
    const TargetLock& theirs = take(*owner);
    if (theirs.state() == TargetLock::State::held_by_another)
      throw OutputRefused(target + " holds the data of the run writing " + *owner + " (" +
                          (theirs.owner().empty() ? std::string("it has not written its name yet") : theirs.owner()) +
                          "); writing it would destroy them, so nothing was changed. Wait for that run to finish, "
                          "or write elsewhere");
  }
}

std::string TargetLocks::warning() const {
  for (const auto& lock : locks_)
    if (!lock->warning().empty()) return lock->warning();
  return "";
}

bool TargetLocks::locked() const { return !locks_.empty() && locks_.front()->locked(); }

std::string temporary_name(const std::string& target) {
  static std::mt19937_64 random{std::random_device{}() ^
                                static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())};
  const fs::path path(target);
  std::string name = path.filename().string().substr(0, 180);  // within NAME_MAX with the tag
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(random()));
  return (path.parent_path() / ("." + name + kTemporaryTag + hex)).string();
}

OutputFile::OutputFile(std::string target, std::string option, const InputFiles& inputs, const std::string& command_line)
    : target_(std::move(target)), option_(std::move(option)), inputs_(inputs) {
  if (target_.empty()) throw OutputRefused(option_ + " \"\": an empty name is no file; give a file name");
  refuse_reserved_names(target_);
  check_target();
  const fs::path parent = fs::path(target_).parent_path();
  std::error_code ec;
  if (!parent.empty() && !fs::create_directories(parent, ec) && ec)
    throw OutputRefused("cannot create the folder " + parent.string() + ": " + ec.message());
  locks_ = std::make_unique<TargetLocks>(target_, inputs_, command_line);
  check_target();  // again, now that no cooperating writer can change it
}

OutputFile::~OutputFile() = default;

void OutputFile::check_target() const {
  try {
    require_absent_or_regular(target_, "the output " + target_);
    refuse_input(inputs_, target_, "the output " + target_);
  } catch (const OutputRefused& refused) {
    throw OutputRefused(option_ + ": " + refused.what());  // which of a command's outputs
  }
}

void write_new_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int error = errno;
    throw OutputError("cannot create " + path + ": " + system_error(error), error);
  }
  const char* data = text.data();
  std::size_t left = text.size();
  int error = 0;
  while (left > 0 && error == 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) error = n < 0 ? errno : EIO;
    else data += n, left -= static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) throw OutputError("cannot write " + path + ": " + system_error(error), error);
}

void OutputFile::write(const std::string& text) {
  write_with([&](const std::string& temporary) { write_new_file(temporary, text); });
}

void OutputFile::write_with(const std::function<void(const std::string&)>& create) {
  std::string temporary = temporary_name(target_);
  struct stat st {};
  for (int attempt = 0; attempt < 16 && ::lstat(temporary.c_str(), &st) == 0; ++attempt) temporary = temporary_name(target_);
  try {
    create(temporary);
  } catch (const OutputError& error) {
    ::unlink(temporary.c_str());
    throw OutputError("cannot write " + target_ + " (" + error.what() + "); it is as it was", error.error_number());
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
  // What was created must be a regular file of its own; then it is flushed to disk.
  const int fd = ::open(temporary.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  const bool regular = fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1;
  const int error = !regular ? EINVAL : ::fsync(fd) != 0 ? errno : 0;
  if (fd >= 0) ::close(fd);
  if (error != 0) {
    ::unlink(temporary.c_str());
    throw OutputError("cannot write " + target_ + ": " + (regular ? system_error(error) : "its temporary file was replaced") +
                          "; it is as it was", error);
  }
  publish(temporary);
}

void OutputFile::publish(const std::string& temporary) {
  try {
    check_target();
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
  if (std::rename(temporary.c_str(), target_.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw OutputError("cannot rename " + temporary + " to " + target_ + ": " + system_error(error) + "; it is as it was", error);
  }
  sync_folder_of(target_);
}

}  // namespace uwsim::output
