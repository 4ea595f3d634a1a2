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
  const std::uint64_t start = file_size;
  const std::uint64_t length = needed + ahead;
  if (::fallocate(fd_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(start), static_cast<off_t>(length)) == 0) {
    reserved_end_ = start + length;
    return;
  }
  const int error = errno;
  if (error == EOPNOTSUPP || error == ENOSYS || error == EINVAL) {
    supported_ = false;  // this file system cannot reserve: writes will tell instead
    return;
  }
  throw OutputError("cannot write the result file '" + path_ + "': " + std::strerror(error) +
                        " (reserving " + std::to_string(length >> 20) + " MiB for the next samples)",
                    error);
}

void SpaceReservation::release(const std::string& path, std::uint64_t reserved_end) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && reserved_end > static_cast<std::uint64_t>(st.st_size)) {
    ::fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, st.st_size,
                static_cast<off_t>(reserved_end) - st.st_size);
  }
  ::close(fd);
}

}  // namespace uwsim::output
