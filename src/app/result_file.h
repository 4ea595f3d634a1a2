// The one reader of the HDF5 result files the subcommands are given (`sim describe`, `sim
// replay`, and the result files `sim compare` and `sim identify` read series from). A received
// result is data from anyone: the file is checked before anything is allocated by a size it
// claims or read from it, and nothing outside it is ever read.
//
// Opening walks every link of the file (only hard links are followed; HDF5's walk never
// enters a group twice) and records each dataset's shape, type and storage without reading
// its values. Checked (Checks::strict: compare, identify, replay) — each an error naming the
// file and the object:
//   - the path is a regular file (a FIFO or a device is refused before HDF5 opens it), an
//     HDF5 file, and opens;
//   - no external or user-defined link anywhere, no virtual dataset and no dataset whose
//     values are stored in other files (external storage): any of them would make sim read
//     files the command line does not name;
//   - no dataset stored without compression claims more bytes than the whole file holds
//     (a 1.4 kB file whose /time claims 10^12 rows); a compressed one's claim is bounded by
//     the limits below, since deflate can fold a long run of equal bytes into a few;
//   - /time is a one-dimensional numeric dataset of at most kMaxResultRows rows, and (when
//     read, time()) finite and strictly increasing.
// Soft links are listed (links()) but never followed: they point inside the file, and what
// they point to is listed under its own name. Checks::lenient (describe) refuses only what
// cannot be opened, and reports the rest per dataset (read_problem) for the caller to show.
//
// Reading: every value decoded from the file counts against decoding_budget() (what a command
// may inflate from one file), every string attribute against kMaxAttributeBytes; a dataset is
// read only if read_problem() finds nothing wrong with it.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "app/hdf5_read.h"

namespace uwsim::app {

// Rows of /time (and so of every series) sim reads: 23 h at 50 Hz, 70 min at 1 kHz.
inline constexpr std::uint64_t kMaxResultRows = std::uint64_t{1} << 22;
// Links (groups, datasets, other links) walked in a file: sim's largest scenario (some 3300
// bodies, by the loader's 40 000 values) writes about 20 000. Beyond it a strict reader refuses
// the file and a lenient one lists the first ones (truncated()).
inline constexpr std::uint64_t kMaxResultLinks = std::uint64_t{1} << 15;
// Values a command decodes from one result file in all: as many as the file has bytes (a
// compression ratio of 8 for doubles; sim's own files inflate to 2–3 times their size), and
// at least kMinDecodedValues (64 MiB as doubles; some 0.2 s of inflating highly compressible
// data on this project's machines): bounded work for any file, and none of a real result
// refused.
inline constexpr std::uint64_t kMinDecodedValues = std::uint64_t{1} << 23;
// Bytes of string attributes read from one file in all (its attributes lie in the file, but
// many attributes may share one stored message); one attribute is at most what its reader
// asks for (the stored scenario 1 MiB, units and column names kMaxLabelBytes).
inline constexpr std::uint64_t kMaxAttributeBytes = std::uint64_t{16} << 20;
inline constexpr std::size_t kMaxLabelBytes = std::size_t{64} << 10;

// A problem with a result file: `object` is the dataset or link ("" for the file itself).
class ResultError : public std::runtime_error {
 public:
  ResultError(const std::string& file, const std::string& object, const std::string& what);
  const std::string& file() const { return file_; }
  const std::string& object() const { return object_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_, object_, problem_;
};

// A string attribute: absent, unreadable (not a scalar string), longer than asked, or text.
struct TextAttribute {
  enum class State { absent, unreadable, too_long, text };
  State state = State::absent;
  std::string text;         // State::text
  std::uint64_t bytes = 0;  // its length, where known (too_long)
  bool ok() const { return state == State::text; }
  std::string value_or(const std::string& fallback) const { return ok() ? text : fallback; }
};

struct ResultDataset {
  std::string path;             // "/bodies/rov/position"
  haddr_t address = HADDR_UNDEF;  // of its object header: opened by it, never by name again
  std::vector<hsize_t> dims;    // as stored; empty for a scalar
  H5T_class_t type_class = H5T_NO_CLASS;
  std::uint64_t type_bytes = 0;
  bool is_virtual = false;      // values in other datasets (maybe of other files)
  bool external_storage = false;  // values in other files
  bool filtered = false;        // stored through filters (compression)
  TextAttribute units, columns_text, description;  // its labels, read with it (kMaxLabelBytes each)
  std::uint64_t claimed_values() const;  // product of dims, saturated
  std::uint64_t rows() const { return dims.empty() ? 1 : dims[0]; }
  std::uint64_t columns() const;         // 1 for a 1-D dataset; the product of the rest
};

struct ResultLink {
  std::string path;
  std::string kind;  // "soft link", "external link", "user-defined link"
};

class ResultFile {
 public:
  enum class Checks { strict, lenient };
  // Throws ResultError.
  ResultFile(const std::string& path, Checks checks);

  const std::string& path() const { return path_; }
  hid_t id() const { return file_.get(); }
  std::uint64_t file_bytes() const { return file_bytes_; }
  std::uint64_t decoding_budget() const;  // max(file_bytes, kMinDecodedValues) values
  std::uint64_t decoded() const { return decoded_; }
  const std::vector<ResultDataset>& datasets() const { return datasets_; }  // by name
  const std::vector<ResultLink>& links() const { return links_; }           // not followed
  bool truncated() const { return truncated_; }  // the walk stopped at kMaxResultLinks
  const ResultDataset* find(std::string_view dataset_path) const;          // "/time"; hard links only

  // Why the values of `d` are not read ("" if they can be): virtual, external storage, a
  // claim larger than the file, more than kMaxResultRows rows, not numbers.
  std::string read_problem(const ResultDataset& d) const;
  // /time, read once: finite and strictly increasing. Throws ResultError naming the first row
  // that is not (lenient files too: the caller decides what to show).
  const std::vector<double>& time();
  // time(), moved out to the caller: a later time() reads it again.
  std::vector<double> take_time();
  // Every value of `d` as doubles, row by row; throws ResultError if read_problem() is not
  // empty, if the decoding budget is spent, or if HDF5 cannot read it.
  std::vector<double> read(const ResultDataset& d);
  // One column of a 2-D dataset (the whole dataset counts against the budget).
  std::vector<double> read_column(const ResultDataset& d, std::uint64_t column);
  // Rows 0, stride, 2·stride, … and the last row of `d`, row by row (the whole dataset counts
  // against the budget: its chunks are inflated whole).
  std::vector<double> read_every(const ResultDataset& d, std::uint64_t stride);
  // A string attribute of the root ("/") or of a dataset, of at most max_bytes bytes.
  TextAttribute attribute(const std::string& object, const char* name, std::size_t max_bytes);

 private:
  void spend(const ResultDataset& d);
  SilenceHdf5Errors quiet_;  // first: odd files make HDF5 calls fail on purpose
  std::string path_;
  Handle file_;
  std::uint64_t file_bytes_ = 0;
  std::vector<ResultDataset> datasets_;
  std::map<std::string, std::size_t, std::less<>> index_;
  std::vector<ResultLink> links_;
  std::optional<std::vector<double>> time_;
  std::uint64_t decoded_ = 0, attribute_bytes_ = 0;
  bool truncated_ = false;
};

}  // namespace uwsim::app
