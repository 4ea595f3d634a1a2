#include "output/space_reservation.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "output/hdf5_file.h"

namespace uwsim::output {

void SpaceReservation::ensure(std::uint64_t file_size, std::uint64_t needed, std::uint64_t ahead) {
  if (!supported_ || fd_ < 0) return;
  if (reserved_end_ >= file_size + needed) return;
  const auto reserve = [&](std::uint64_t length) {
    if (::fallocate(fd_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(file_size), static_cast<off_t>(length)) != 0)
      return errno;
    reserved_end_ = file_size + length;
    return 0;
  };
  // Ahead, so that this is rare; on a nearly full disk, just what is needed.
  int error = reserve(needed + ahead);
  if (error == ENOSPC || error == EDQUOT) error = reserve(needed);
  if (error == 0) return;
  if (error == EOPNOTSUPP || error == ENOSYS || error == EINVAL) {
    supported_ = false;  // this file system cannot reserve: writes will tell instead
    return;
  }
  throw OutputError("cannot write the result file '" + path_ + "': " + std::strerror(error) +
                        " (reserving space for the next samples)",
                    error);
}

void SpaceReservation::release(const std::string& path, std::uint64_t reserved_end) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && reserved_end > static_cast<std::uint64_t>(st.st_size)) {
    // tmpfs frees blocks past the end by punching a hole there; ext4 ignores that but frees
    // them on a truncation to the same size.
    ::fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, st.st_size,
                static_cast<off_t>(reserved_end) - st.st_size);
    if (::ftruncate(fd, st.st_size) != 0) {
      // The blocks stay reserved until the file is removed; nothing is lost.
    }
  }
  ::close(fd);
}

}  // namespace uwsim::output
