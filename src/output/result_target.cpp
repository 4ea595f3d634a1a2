#include "output/result_target.h"

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

namespace uwsim::output {

namespace fs = std::filesystem;

namespace {

std::string system_error(int error) { return std::strerror(error); }

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// "pid 1234 on host, started 2026-11-23 15:09:01: sim run.yaml -o out.h5": who holds the lock.
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

}  // namespace

// Renaming onto a name replaces whatever it is (/dev/null became a regular file), and opening
// it writes through a link: every name the run writes or renames onto must be absent or a
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
    message += ", not a file; sim does not write through links. Give the file itself with -o, or remove the link";
  } else if (S_ISDIR(st.st_mode)) {
    message += "; give a file name";
  } else {
    message += ", not a file; sim writes its result beside it and renames it there, which would replace it. "
               "Give a file name with -o";
  }
  throw OutputRefused(message);
}

ResultTarget::ResultTarget(const std::string& target, const std::vector<std::string>& inputs,
                           const std::string& command_line)
    : target_(target), partial_(target + ".partial"), creating_(target + ".partial.new"),
      lock_path_(target + ".lock") {
  std::error_code ec;
  require_absent_or_regular(target_, "the output " + target_);
  for (const std::string& ours : {partial_, creating_, lock_path_, partial_ + ".rewrite"})
    require_absent_or_regular(ours, ours + " (which a run writes beside its output)");

  // Nothing of an input may be touched: the target, nor the files made beside it.
  std::vector<std::pair<std::string, struct stat>> read_files;
  for (const std::string& input : inputs) {
    struct stat st {};
    if (::stat(input.c_str(), &st) == 0) read_files.emplace_back(input, st);
  }
  for (const std::string* ours : {&target_, &partial_, &creating_, &lock_path_}) {
    struct stat st {};
    if (::stat(ours->c_str(), &st) != 0) continue;
    for (const auto& [input, id] : read_files)
      if (same_file(st, id))
        throw OutputRefused("the output " + *ours + " is an input of this run (" + input +
                            "); writing it would destroy it. Give another output with -o");
  }

  // The lock. Its file may be removed by a run finishing while we open it: lock the file the
  // name refers to after locking, or try again.
  for (int attempt = 0; attempt < 100 && !locked_; ++attempt) {
    // O_NOFOLLOW: a link put there since the check must not make us truncate its target.
    lock_fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (lock_fd_ < 0) {
      throw OutputRefused("cannot create the lock file " + lock_path_ + ": " + system_error(errno) +
                          " (is the output's folder writable?)");
    }
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      if (error == EWOULDBLOCK) {
        const std::string owner = read_owner(lock_fd_);
        ::close(lock_fd_);
        lock_fd_ = -1;
        throw OutputRefused(target_ + " is being written by another run (" +
                            (owner.empty() ? std::string("it has not written its name yet") : owner) +
                            "); nothing was changed. Wait for it to finish, or write elsewhere with -o");
      }
      // No locks on this file system (some network ones): go on without, and say so.
      lock_warning_ = "cannot lock " + lock_path_ + " (" + system_error(error) +
                      "): a second run aimed at the same output would not be noticed";
      break;
    }
    struct stat held {}, named {};
    if (::fstat(lock_fd_, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 && same_file(held, named)) {
      locked_ = true;
      break;
    }
    ::close(lock_fd_);
    lock_fd_ = -1;
  }
  if (lock_fd_ < 0) throw OutputRefused("cannot lock " + lock_path_ + ": it keeps being replaced by another run");
  const std::string owner = owner_line(command_line);
  if (::ftruncate(lock_fd_, 0) != 0 || ::pwrite(lock_fd_, owner.data(), owner.size(), 0) < 0) {
    // The lock holds without its text; only a second run's message is poorer.
  }
  stale_partial_ = fs::exists(partial_, ec);
  fs::remove(creating_, ec);  // an earlier run killed while creating its file
  fs::remove(partial_ + ".rewrite", ec);
}

ResultTarget::~ResultTarget() {
  if (lock_fd_ < 0) return;
  // Removed while still locked: a run that opened it meanwhile sees the name gone and retries.
  ::unlink(lock_path_.c_str());
  ::close(lock_fd_);
}

void ResultTarget::publish_partial() const {
  if (std::rename(creating_.c_str(), partial_.c_str()) != 0)
    throw OutputRefused("cannot rename " + creating_ + " to " + partial_ + ": " + system_error(errno));
}

void ResultTarget::publish_result() const {
  if (std::rename(partial_.c_str(), target_.c_str()) != 0)
    throw OutputRefused("cannot rename " + partial_ + " to " + target_ + ": " + system_error(errno));
}

void ResultTarget::discard_creating() const {
  std::error_code ignored;
  fs::remove(creating_, ignored);
}

}  // namespace uwsim::output
