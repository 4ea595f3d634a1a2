#include "scenario/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace uwsim::scenario {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string too_large(std::size_t max_bytes) { return "is larger than " + std::to_string(max_bytes >> 20) + " MiB"; }

// O_NONBLOCK: opening a FIFO would otherwise wait for a writer before fstat could refuse it.
// Returns the descriptor (−1 with `why` set if the path is not an openable regular file).
int open_regular(const std::string& path, struct stat& st, std::string& why) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    why = errno == ENOENT ? "no such file" : std::string("cannot open the file: ") + std::strerror(errno);
    return -1;
  }
  if (::fstat(fd, &st) != 0) {
    why = std::string("cannot read the file: ") + std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    why = std::string("is ") + kind_of(st.st_mode) + ", not a file";
  } else {
    return fd;
  }
  ::close(fd);
  return -1;
}

}  // namespace

std::string input_file_problem(const std::string& path) {
  struct stat st {};
  std::string why;
  const int fd = open_regular(path, st, why);
  if (fd >= 0) ::close(fd);
  return why;
}

std::optional<std::string> read_input_file(const std::string& path, std::string& why, std::size_t max_bytes) {
  struct stat st {};
  const int fd = open_regular(path, st, why);
  if (fd < 0) return std::nullopt;
  std::optional<std::string> text;
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    why = too_large(max_bytes);
  } else {
    // Read up to the limit and one byte more: the file may grow while it is read.
    std::string bytes(static_cast<std::size_t>(st.st_size) + 1, '\0');
    std::size_t used = 0;
    while (true) {
      if (used == bytes.size()) {
        if (bytes.size() > max_bytes) break;
        bytes.resize(std::min(bytes.size() * 2, max_bytes + 1));
      }
      const ssize_t n = ::read(fd, bytes.data() + used, bytes.size() - used);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        why = std::string("cannot read the file: ") + std::strerror(errno);
        break;
      }
      if (n == 0) break;
      used += static_cast<std::size_t>(n);
    }
    if (why.empty()) {
      if (used > max_bytes) {
        why = too_large(max_bytes);
      } else {
        bytes.resize(used);
        text = std::move(bytes);
      }
    }
  }
  ::close(fd);
  return text;
}

void normalize_line_ends(std::string& text) {
  if (text.find('\r') == std::string::npos) return;
  std::size_t out = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      text[out++] = '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      text[out++] = text[i];
    }
  }
  text.resize(out);
}

std::string binary_content(const std::string& text) {
  if (text.compare(0, 8, "\x89HDF\r\n\x1a\n") == 0) return "an HDF5 file (a result? `sim describe` shows what it holds)";
  const std::size_t head = std::min<std::size_t>(text.size(), 4096);
  if (std::memchr(text.data(), '\0', head) != nullptr) return "a binary file (it holds NUL bytes)";
  return "";
}

}  // namespace uwsim::scenario
