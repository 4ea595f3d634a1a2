// Disk space reserved ahead of an output file, so that a full disk is met where it can be
// handled — before a chunk is written, with the space to finish the file still in hand —
// rather than in the middle of an HDF5 write (issue 12: a full disk must not leave unequal
// dataset lengths or crash). Reserves with fallocate(FALLOC_FL_KEEP_SIZE): blocks are
// allocated past the end of the file without changing its size, so writes into them cannot
// fail for lack of space (ext4, xfs, tmpfs; btrfs copies on write and gives no such promise).
// Where the file system cannot reserve (EOPNOTSUPP), reserving is skipped and a full disk
// surfaces as a failed write instead.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace uwsim::output {

class SpaceReservation {
 public:
  // `fd` is an open descriptor of the file (not owned); `path` names it in messages.
  SpaceReservation(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

  // Makes sure at least `needed` bytes past `file_size` are reserved, reserving `ahead` more
  // where there is room. Throws OutputError (with errno) if the file system has not `needed`.
  void ensure(std::uint64_t file_size, std::uint64_t needed, std::uint64_t ahead);

  // Returns the reserved blocks past `final_size` to the file system (after the file is
  // closed, through a new descriptor). Never throws.
  static void release(const std::string& path, std::uint64_t reserved_end);

  void renamed(std::string path) { path_ = std::move(path); }
  std::uint64_t reserved_end() const { return reserved_end_; }

 private:
  int fd_;
  std::string path_;
  std::uint64_t reserved_end_ = 0;
  bool supported_ = true;
};

}  // namespace uwsim::output
