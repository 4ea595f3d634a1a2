// Reading the files a scenario names (the scenario, its parts, CSV inputs), so that no input
// can stall the loader: regular files only (a FIFO would block for ever, /dev/zero never end),
// of bounded size, and line ends CR LF or CR read as LF (the line and column of every
// character are kept).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace uwsim::scenario {

// CSV files (a logged run of an hour at 100 Hz takes some MB).
inline constexpr std::size_t kMaxInputBytes = std::size_t{16} << 20;
// YAML files, each: yaml-cpp 0.7 reads some 5–20 MB/s, and twice (its events are counted before
// a tree is built), so a file is kept to what it reads in a fraction of a second. A scenario
// takes a few kB.
inline constexpr std::size_t kMaxYamlBytes = std::size_t{1} << 20;

// The file's text, or nothing with the reason in `why` ("no such file", "is a folder", "is
// a FIFO (named pipe), not a file", "is larger than 1 MiB", or the system's error).
std::optional<std::string> read_input_file(const std::string& path, std::string& why,
                                           std::size_t max_bytes = kMaxInputBytes);

// Why `path` cannot be read as an input file ("no such file", "is a FIFO (named pipe), not a
// file", "is a character device, not a file", ...), or "" for a regular file (links followed).
// Opening never blocks: readers that open the file themselves (HDF5) call this first.
std::string input_file_problem(const std::string& path);

// CR LF and lone CR become LF.
void normalize_line_ends(std::string& text);

// Why `text` does not look like a text file at all (a NUL byte, or an HDF5 file), or "".
std::string binary_content(const std::string& text);

}  // namespace uwsim::scenario
