// An HDF5 file written incrementally: extendible, chunked (1024 rows), shuffled and
// deflated datasets of double rows, buffered in memory one chunk at a time. Memory stays flat
// on long runs; a chunk is written exactly when it fills (and at flush/close), so the same
// sequence of calls gives a byte-identical file (no object timestamps are stored).
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace uwsim::output {

class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Hdf5File {
 public:
  using SeriesId = std::size_t;

  // Creates (truncates) the file. Throws OutputError naming the path on failure.
  explicit Hdf5File(const std::string& path);
  ~Hdf5File();  // flushes and closes; never throws
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;

  // Declares a time series at an absolute path such as "/bodies/rov/velocity", creating the
  // groups on the way. columns == 1 gives a 1-D dataset (N); otherwise (N × columns).
  // Attributes: `units`, `description`, and `columns` (comma-separated names) if given.
  SeriesId add_series(const std::string& path, int columns, const std::string& units,
                      const std::string& description,
                      const std::vector<std::string>& column_names = {});

  // Appends one row of `columns` values. Does not allocate once the series' buffer exists.
  void append(SeriesId series, const double* row);

  // A string attribute (variable-length UTF-8) on the root group; setting it again replaces it.
  void set_root_attribute(const std::string& name, const std::string& value);

  // Flushes to disk what whole chunks have been written since the last call, so a run killed
  // outright leaves a readable file missing at most its last chunk. Writes no partial chunk,
  // so calling it after every row keeps the file's bytes independent of timing. Cheap when
  // nothing was written.
  void sync();

  // Writes every buffered row and flushes the file to disk.
  void flush();
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace uwsim::output
