// The machinery behind Hdf5File (hdf5_file.h explains the commit protocol): one open HDF5 file,
// its series and their chunk buffers, the ordered commit, and the log of calls that a rewrite
// replays. Private to src/output.
#pragma once

#include <hdf5.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "output/chunk_codec.h"
#include "output/hdf5_file.h"
#include "output/space_reservation.h"

namespace uwsim::output::detail {

inline constexpr hsize_t kChunkRows = 1024;  // rows per chunk, unless a run is shorter (chunk_rows)
inline constexpr int kDeflateLevel = 1;  // level 4 compresses shuffled doubles no better, 2–3× slower

// Owns an HDF5 identifier and closes it with the matching H5xclose function.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);

  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Handle(Handle&& other) noexcept
      : id_(std::exchange(other.id_, H5I_INVALID_HID)), closer_(other.closer_) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
      closer_ = other.closer_;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

  // Returns the close status so that closing the file can report failures.
  herr_t reset() {
    herr_t status = 0;
    if (id_ >= 0 && closer_ != nullptr) status = closer_(id_);
    id_ = H5I_INVALID_HID;
    return status;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

struct SeriesDeclaration {
  std::string path;
  int columns = 1;
  std::string units, description;
  std::vector<std::string> column_names;
  std::vector<std::pair<std::string, std::string>> attributes;  // more (name, text), after those
};

struct Series {
  SeriesDeclaration declaration;
  Handle dataset;
  int rank = 1;
  hsize_t columns = 1;
  std::unique_ptr<double[]> buffer;  // the current chunk's rows, row-major (zeroed past `buffered` when written)
  hsize_t chunk_start = 0;           // dataset row of buffer row 0
  hsize_t buffered = 0;              // rows in the buffer
  hsize_t stored = 0;                // of those, rows written to the file (a partial chunk)
  hsize_t extent = 0;                // the dataset's length as HDF5 holds it now
  bool raw = false;                  // the current chunk is stored unfiltered (rewritten in place)
  // The previous chunk, full and encoded: written when this series' next chunk fills, or at a
  // flush, close or timed commit (hdf5_file.h, "Encoding").
  std::vector<unsigned char> pending_bytes;  // its shuffled and deflated bytes (capacity reserved)
  hsize_t pending_start = 0;                 // its dataset row
  bool pending = false;                      // encoded and not yet in the file
  // When the buffer's first row not in the file came, and the pending chunk's first row: the
  // oldest rows a kill would lose.
  std::chrono::steady_clock::time_point buffer_since, pending_since;
  // What a run without timed commits has written of this series (the log's view): it may hold
  // a pending chunk this file wrote early, or a partial chunk stored raw that this file did not.
  struct Canonical {
    bool pending = false;
    bool raw = false;
    hsize_t stored = 0;
  } canonical;
};

// One call of the canonical sequence (what a run without timed commits does), for the rewrite.
struct LoggedCall {
  enum Kind : std::uint8_t { series, attribute, chunk, commit, limit } kind;
  bool final = false;        // chunk: the last write of the series (at close)
  std::uint32_t index = 0;   // series: its id; attribute: index into Writer::attributes
  std::uint64_t rows = 0;    // chunk: rows of the current chunk written; limit: the limit
};

class Writer {
 public:
  using Clock = std::chrono::steady_clock;

  // Creates the file; `log` records the canonical calls (off while replaying them).
  Writer(std::string path, Hdf5FileOptions options, bool log);

  std::size_t add_series(SeriesDeclaration declaration);
  void set_attribute(const std::string& name, const std::string& value);
  void append(std::size_t id, const double* row);
  void limit_rows(std::uint64_t rows);
  void sync();
  void flush();
  // Writes what is buffered, commits and closes the file. Throws OutputError; the file is
  // released either way.
  void close();

  // Replays the canonical calls of `original` (closed) into this (fresh) writer, reading the
  // rows back from `original`'s file.
  void replay(const Writer& original);

  void renamed(const std::string& path) {
    path_ = path;
    if (reservation_) reservation_->renamed(path);
  }
  bool open() const { return file_.valid(); }
  bool had_timed_commits() const { return timed_commits_ > 0; }
  const std::string& path() const { return path_; }

  [[noreturn]] void fail(std::string_view what, int error_number = 0) const;
  // For failed HDF5 calls only: otherwise the stack could hold an older, unrelated error.
  [[noreturn]] void fail_hdf5(std::string_view what) const;
  void check(herr_t status, std::string_view what) const {
    if (status < 0) fail_hdf5(what);
  }
  Handle checked(hid_t id, Handle::Closer closer, std::string_view what) const {
    if (id < 0) fail_hdf5(what);
    return Handle(id, closer);
  }

 private:
  Series& at(std::size_t id);
  // A declared series becomes a dataset in two steps (create_declared): its object header with
  // its attributes' messages, then their values, its name and its chunk index.
  void create_header(Series& s);
  void finish_dataset(Series& s);
  void create_declared();
  void ensure_parent_groups(const std::string& dataset_path) const;
  // Creates the attribute if it is missing, then writes `value` (none: left a null reference).
  void write_string_attribute(hid_t object, const std::string& name, const std::optional<std::string>& value,
                              const std::string& object_name) const;
  void set_extent(Series& s, hsize_t rows);
  // One H5Dwrite_chunk at dataset row `start`: shuffled and deflated bytes, or raw values.
  void store(Series& s, hsize_t start, const void* bytes, std::size_t size, bool filtered);
  // Writes the buffer's rows as the current chunk, encoded here: filtered if it is full or
  // `final` and was never stored raw; else unfiltered, in place. A full chunk moves the buffer on.
  void write_chunk(Series& s, bool final);
  // The series' chunk has filled: writes its pending chunk, then encodes this one as the next
  // pending chunk (or, stored raw before, rewrites it in place); logs what a canonical run writes.
  void chunk_filled(std::size_t id, Series& s);
  void write_pending(Series& s);
  // Writes every pending chunk and every buffer's rows not yet in the file,
  // committing in between as needed: H5Dwrite_chunk takes a chunk only if it starts within its
  // dataset's length, and a length may change only in a commit (hdf5_file.h). Each series is
  // then written up to the chunk it waits to write, so datasets appended alike are of one
  // length even after a failed write left them a chunk apart. A chunk that starts past
  // limit_rows() is never shown: it is dropped.
  void write_unwritten(bool final);
  // A buffer left full by a failed write: what append would have retried.
  void retry_filled();
  // Writes every series' pending chunk and buffered rows not yet in the file; logs the
  // canonical ones.
  void write_unstored(bool final);
  hsize_t rows_in_file(const Series& s) const { return s.pending ? s.pending_start : s.chunk_start + s.stored; }
  // The commit of hdf5_file.h. True if some length grew.
  bool commit();
  void timed_commit();
  void reserve(std::uint64_t bytes);
  void log(LoggedCall call) {
    if (log_) calls_.push_back(call);
  }

  std::string path_;
  Hdf5FileOptions options_;
  hsize_t chunk_rows_ = kChunkRows;
  bool log_;
  Handle file_;
  int fd_ = -1;  // HDF5's own descriptor of the file, for the reservation
  std::optional<SpaceReservation> reservation_;
  // What close() may still write: every buffer and pending chunk, and metadata.
  std::uint64_t closing_bytes_ = 256 << 10;
  bool closing_ = false;
  std::vector<Series> series_;
  std::size_t declared_ = 0;  // the last series, declared but not yet in the file
  std::vector<std::pair<std::string, std::string>> pending_attributes_;  // root, not yet in the file
  ChunkCodec codec_{kDeflateLevel};
  std::vector<unsigned char> encoded_;
  std::uint64_t row_limit_ = UINT64_MAX;  // readers see at most this many rows (limit_rows)
  bool written_since_commit_ = false;     // a chunk went into the file since the last commit
  bool canonical_commit_due_ = false;     // a canonical run commits at the next sync
  Clock::time_point unwritten_since_;  // when the oldest row not yet committed came (or the last commit)
  long timed_commits_ = 0;
  std::vector<LoggedCall> calls_;
  std::vector<std::pair<std::string, std::string>> attributes_;
};

}  // namespace uwsim::output::detail
