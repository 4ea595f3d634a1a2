// An HDF5 file written incrementally: extendible, chunked (1024 rows; fewer for a short run),
// shuffled and deflated datasets of double rows, buffered in memory one chunk at a time, so
// memory stays flat on long runs. The same sequence of calls gives a byte-identical file (no
// object timestamps, and see "Timed commits" below).
//
// Durability (issue 12: a run killed at any moment leaves a file h5py opens, every dataset of
// one length). Rows reach the disk in whole chunks written with H5Dwrite_chunk, and readers see
// them only after a *commit*:
//   1. H5Fflush: the chunks' entries in each dataset's chunk index go to disk (the chunks
//      themselves went at H5Dwrite_chunk); the datasets' lengths are unchanged, so the new
//      chunks are not yet visible;
//   2. every dataset is extended to its new length, then H5Fflush writes those lengths.
// So no dataset's length covers rows whose chunk is not indexed on disk, and since the metadata
// cache is told never to evict, nothing reaches the disk between commits: a file cut off at
// any moment is its last commit. Step 2 is one write: a length lives in its dataset's object
// header, and the headers of the series declared before the first commit are made back to back
// (hdf5_writer.cpp, create_declared), so the flush, which writes dirty metadata in address
// order, hands HDF5's metadata accumulator one contiguous block. A kill therefore finds every
// length old or every length new. (HDF5 1.10 has no multi-dataset atomic update short of SWMR,
// whose files a plain h5py.File cannot open after a crash. Two limits remain: series declared
// after the first commit get headers elsewhere, and Linux may cut a write of more than one
// page at a page boundary if a SIGKILL arrives during that system call's few microseconds:
// about nine series' headers fit in a page.) Until the first commit the series exist only in
// memory; the file is created empty and committed at once, so it is readable from its first
// microseconds.
// No file space is ever freed (a freed block could be reused while the last commit on disk
// still points at it): a chunk is written once, or — a partial chunk — stored unfiltered and
// rewritten in place at the same size.
//
// Commits happen at flush(), close(), and in sync() (called after each sample) when a chunk
// was written since the last commit.
//
// Encoding: a full chunk is shuffled and deflated when it fills (chunk_codec.h) and kept as the
// series' *pending* chunk, written when the same series' next chunk fills; flush(), close() and
// a timed commit write it at once. So a chunk reaches readers one chunk later than it fills
// (the flush interval still bounds what a kill loses). (The pending chunk let a second thread
// deflate it meanwhile; that thread was removed in issue 39, as it bought nothing measurable:
// docs/benchmarks.md, "the encoder thread". The late write stayed, and with it the files' bytes.)
// A partial chunk after such a chunk starts past the committed length, so flush(), close() and
// a timed commit first write and commit the pending chunks, then the partial ones: a length
// set between commits would be a write outside the commit's single one. Series appended
// alike are of one length at that commit too, even when a failed write left them a chunk
// apart: each is written up to the chunk it waits to write.
//
// Timed commits: sync() also commits when the oldest row not yet committed (in a partial chunk
// or a pending one) came `flush_interval` of wall time ago, so a run killed outright loses at
// most that much (and the sample in progress). Their timing would make the file's layout
// depend on the wall clock; a file that had any is rewritten at close() by replaying the
// sequence of calls without them, so that it is byte for byte the file an undisturbed run
// writes. (If that rewrite fails, the file is kept as it is — complete and valid, but not
// canonical: see canonical().)
//
// Full disks: space is reserved ahead of the file (space_reservation.h), so that running out
// of it stops the writing before a chunk, with room left to finish the file with close().
// Every failure is an OutputError naming the file and, where the system gave one, its error.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace uwsim::output {

class OutputError : public std::runtime_error {
 public:
  explicit OutputError(const std::string& message, int error_number = 0)
      : std::runtime_error(message), error_number_(error_number) {}
  // errno of the system call that failed (ENOSPC for a full disk); 0 if none is known.
  int error_number() const { return error_number_; }

 private:
  int error_number_;
};

struct Hdf5FileOptions {
  // Commit in sync() after each chunk written, and when the oldest row not yet committed came
  // `flush_interval` of wall time ago. Off, the file is committed only by flush() and close()
  // (the benchmark's comparison).
  bool durable = true;
  std::chrono::milliseconds flush_interval{2000};
  // Reserve disk space ahead of the file (space_reservation.h).
  bool reserve_space = true;
  // The rows a series will hold, when known (0: not known). A run shorter than a chunk gets
  // chunks of the next power of two rows, at least 8, instead of 1024: a one-step run then
  // neither fills nor deflates 1024 rows of zeros per series at its close (chunk_rows).
  std::size_t expected_rows = 0;
  // Create the file only where nothing has its name (O_EXCL, which refuses a link too), instead
  // of truncating what is there: for the fresh temporaries of output_file.h and result_target.h.
  bool exclusive = false;
};

// Rows per chunk for a file whose series will hold `expected_rows` (0: not known).
std::size_t chunk_rows(std::size_t expected_rows);

class Hdf5File {
 public:
  using SeriesId = std::size_t;

  // Creates (truncates, or with `exclusive` creates anew) the file and commits it empty. Throws
  // OutputError naming the path.
  explicit Hdf5File(const std::string& path, Hdf5FileOptions options = {});
  ~Hdf5File();  // closes; never throws
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;

  // Declares a time series at an absolute path such as "/bodies/rov/velocity", creating the
  // groups on the way. columns == 1 gives a 1-D dataset (N); otherwise (N × columns).
  // Attributes: `units`, `description`, and `columns` (comma-separated names) if given, then
  // each of `attributes` (name, text) in order, e.g. the parameters of a sensor.
  SeriesId add_series(const std::string& path, int columns, const std::string& units,
                      const std::string& description,
                      const std::vector<std::string>& column_names = {},
                      const std::vector<std::pair<std::string, std::string>>& attributes = {});

  // Appends one row of `columns` values; writes the chunk when it fills. Does not allocate.
  void append(SeriesId series, const double* row);

  // A string attribute (variable-length UTF-8) on the root group; setting it again replaces it.
  void set_root_attribute(const std::string& name, const std::string& value);

  // Readers will see at most `rows` rows of any series (the rows appended so far stay in the
  // buffers but are not shown): after a failure in the middle of a sample, the whole samples.
  void limit_rows(std::size_t rows);

  // Called after each sample: commits if a chunk was written since the last commit, and if the
  // oldest row not yet committed came a flush interval ago (a timed commit). Cheap otherwise.
  void sync();

  // Writes every buffered row and commits.
  void flush();

  // Writes every buffered row, commits and closes (and rewrites the file if it had timed
  // commits). Throws OutputError; the file is released either way.
  void close();

  // The file was renamed to `path` (while open: the writing goes on); messages and the rewrite
  // at close use the new name.
  void renamed(const std::string& path);

  // False if the file had timed commits and could not be rewritten to its canonical bytes
  // (it is complete and valid, but a rerun may not be byte-identical to it).
  bool canonical() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace uwsim::output
