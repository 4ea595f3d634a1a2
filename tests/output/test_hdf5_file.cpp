#include "output/hdf5_file.h"

#include <doctest/doctest.h>
#include <hdf5.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace fs = std::filesystem;
using uwsim::output::Hdf5File;
using uwsim::output::OutputError;

namespace {

// A fresh directory under the system temp dir, removed again when the test ends.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("uwsim_hdf5_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

// Distinct for every (row, column), and not exactly representable in few bits, so a misplaced
// or rounded value cannot go unnoticed. Compiled once (noipa: never inlined or cloned): a
// build with fused multiply-adds (UWSIM_NATIVE) may contract two copies of the formula
// differently, and the rows written and the rows checked would not be the same values.
[[gnu::noipa]] double matrix_value(std::size_t row, std::size_t column) {
  return static_cast<double>(row) * 0.1 + static_cast<double>(column) * 1.0e-3 + 1.0 / 3.0;
}
[[gnu::noipa]] double scalar_value(std::size_t row) { return -static_cast<double>(row) * 0.7 + 1.0 / 7.0; }

void append_matrix_rows(Hdf5File& file, Hdf5File::SeriesId id, std::size_t from, std::size_t to) {
  double row[6];
  for (std::size_t r = from; r < to; ++r) {
    for (std::size_t c = 0; c < 6; ++c) row[c] = matrix_value(r, c);
    file.append(id, row);
  }
}

void append_scalar_rows(Hdf5File& file, Hdf5File::SeriesId id, std::size_t from, std::size_t to) {
  for (std::size_t r = from; r < to; ++r) {
    const double value = scalar_value(r);
    file.append(id, &value);
  }
}

// A flush interval no test lasts: the file has no timed commits.
constexpr std::chrono::milliseconds kNoTimedCommits = std::chrono::hours(24);

// The two series most tests write, as a run's velocity and depth.
struct VelocityAndDepth {
  Hdf5File::SeriesId velocity, depth;
};
VelocityAndDepth add_velocity_and_depth(Hdf5File& file) {
  return {file.add_series("/velocity", 6, "m/s", "velocity"), file.add_series("/depth", 1, "m", "depth")};
}

// Rows [from, to) of a velocity and a depth series, with a sync after each, as the recorder
// appends a sample.
void append_synced(Hdf5File& file, Hdf5File::SeriesId velocity, Hdf5File::SeriesId depth, std::size_t from,
                   std::size_t to) {
  for (std::size_t row = from; row < to; ++row) {
    append_matrix_rows(file, velocity, row, row + 1);
    append_scalar_rows(file, depth, row, row + 1);
    file.sync();
  }
}

// Minimal read-only access through the HDF5 C API, independent of the class under test.
class Reader {
 public:
  explicit Reader(const std::string& path)
      : file_(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)) {
    REQUIRE(file_ >= 0);
  }
  ~Reader() { H5Fclose(file_); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  std::vector<hsize_t> shape(const std::string& dataset) const {
    const hid_t ds = H5Dopen2(file_, dataset.c_str(), H5P_DEFAULT);
    REQUIRE(ds >= 0);
    const hid_t space = H5Dget_space(ds);
    std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    H5Sclose(space);
    H5Dclose(ds);
    return dims;
  }

  // Rows (and columns) per chunk.
  std::vector<hsize_t> chunk_dims(const std::string& dataset) const {
    const hid_t ds = H5Dopen2(file_, dataset.c_str(), H5P_DEFAULT);
    REQUIRE(ds >= 0);
    const hid_t plist = H5Dget_create_plist(ds);
    hsize_t chunk[2] = {};
    const int rank = H5Pget_chunk(plist, 2, chunk);
    H5Pclose(plist);
    H5Dclose(ds);
    REQUIRE(rank > 0);
    return {chunk, chunk + rank};
  }

  std::vector<double> values(const std::string& dataset) const {
    std::size_t count = 1;
    for (hsize_t d : shape(dataset)) count *= static_cast<std::size_t>(d);
    std::vector<double> data(count);
    const hid_t ds = H5Dopen2(file_, dataset.c_str(), H5P_DEFAULT);
    REQUIRE(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) >= 0);
    H5Dclose(ds);
    return data;
  }

  bool has_attribute(const std::string& object, const std::string& name) const {
    return H5Aexists_by_name(file_, object.c_str(), name.c_str(), H5P_DEFAULT) > 0;
  }

  // Reads a variable-length string attribute and checks it is stored as UTF-8.
  std::string string_attribute(const std::string& object, const std::string& name) const {
    const hid_t attribute = H5Aopen_by_name(file_, object.c_str(), name.c_str(), H5P_DEFAULT,
                                            H5P_DEFAULT);
    REQUIRE(attribute >= 0);
    const hid_t stored_type = H5Aget_type(attribute);
    CHECK(H5Tis_variable_str(stored_type) > 0);
    CHECK(H5Tget_cset(stored_type) == H5T_CSET_UTF8);
    H5Tclose(stored_type);

    const hid_t memory_type = H5Tcopy(H5T_C_S1);
    H5Tset_size(memory_type, H5T_VARIABLE);
    H5Tset_cset(memory_type, H5T_CSET_UTF8);
    char* text = nullptr;
    REQUIRE(H5Aread(attribute, memory_type, &text) >= 0);
    std::string value = text != nullptr ? text : "";
    H5free_memory(text);
    H5Tclose(memory_type);
    H5Aclose(attribute);
    return value;
  }

 private:
  hid_t file_;
};

void check_matrix_rows(const Reader& reader, const std::string& dataset, std::size_t rows) {
  REQUIRE(reader.shape(dataset) == std::vector<hsize_t>{rows, 6});
  const std::vector<double> data = reader.values(dataset);
  std::size_t mismatches = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < 6; ++c) {
      if (data[r * 6 + c] != matrix_value(r, c)) ++mismatches;
    }
  }
  CHECK(mismatches == 0);
}

void check_scalar_rows(const Reader& reader, const std::string& dataset, std::size_t rows) {
  REQUIRE(reader.shape(dataset) == std::vector<hsize_t>{rows});
  const std::vector<double> data = reader.values(dataset);
  std::size_t mismatches = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    if (data[r] != scalar_value(r)) ++mismatches;
  }
  CHECK(mismatches == 0);
}

// A velocity (6 columns, named) and a depth series of `rows` rows each, written and closed;
// then both read back exactly.
void write_and_check_velocity_and_depth(const std::string& path, std::size_t rows,
                                        uwsim::output::Hdf5FileOptions options = {}) {
  {
    Hdf5File file(path, options);
    const auto velocity = file.add_series("/bodies/rov/velocity", 6, "m/s", "body velocity",
                                          {"wx", "wy", "wz", "vx", "vy", "vz"});
    const auto depth = file.add_series("/bodies/rov/depth", 1, "m", "depth below the surface");
    append_matrix_rows(file, velocity, 0, rows);
    append_scalar_rows(file, depth, 0, rows);
    file.close();
  }
  Reader reader(path);
  check_matrix_rows(reader, "/bodies/rov/velocity", rows);
  check_scalar_rows(reader, "/bodies/rov/depth", rows);
}

std::vector<char> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// One fixed sequence of calls, used to compare files written at different times.
void write_reference_file(const std::string& path) {
  Hdf5File file(path);
  const auto velocity = file.add_series("/bodies/rov/velocity", 6, "m/s, rad/s", "body twist",
                                        {"wx", "wy", "wz", "vx", "vy", "vz"});
  const auto depth = file.add_series("/bodies/rov/depth", 1, "m", "depth below surface");
  file.set_root_attribute("scenario", "first");
  append_matrix_rows(file, velocity, 0, 1300);
  append_scalar_rows(file, depth, 0, 1300);
  file.flush();
  append_matrix_rows(file, velocity, 1300, 2100);
  append_scalar_rows(file, depth, 1300, 2100);
  file.set_root_attribute("scenario", "second");
  file.close();
}

}  // namespace

TEST_CASE("hdf5_file: appended rows read back exactly across chunk boundaries") {
  TempDir dir;
  const std::string path = dir.file("rows.h5");
  write_and_check_velocity_and_depth(path, 2500);
  Reader reader(path);
  CHECK(reader.string_attribute("/bodies/rov/velocity", "units") == "m/s");
  CHECK(reader.string_attribute("/bodies/rov/velocity", "description") == "body velocity");
  CHECK(reader.string_attribute("/bodies/rov/velocity", "columns") == "wx,wy,wz,vx,vy,vz");
  CHECK(reader.string_attribute("/bodies/rov/depth", "units") == "m");
  CHECK(reader.string_attribute("/bodies/rov/depth", "description") == "depth below the surface");
  CHECK_FALSE(reader.has_attribute("/bodies/rov/depth", "columns"));
}

TEST_CASE("hdf5_file: datasets are chunked by 1024 rows, shuffled and deflated") {
  TempDir dir;
  const std::string path = dir.file("layout.h5");
  {
    Hdf5File file(path);
    file.add_series("/a/matrix", 3, "1", "matrix");
    file.add_series("/a/scalar", 1, "1", "scalar");
  }
  const hid_t h5 = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(h5 >= 0);
  struct Expected {
    const char* name;
    int rank;
  };
  for (const Expected expected : {Expected{"/a/matrix", 2}, Expected{"/a/scalar", 1}}) {
    const char* name = expected.name;
    const int rank = expected.rank;
    CAPTURE(name);
    const hid_t ds = H5Dopen2(h5, name, H5P_DEFAULT);
    REQUIRE(ds >= 0);
    const hid_t type = H5Dget_type(ds);
    CHECK(H5Tequal(type, H5T_IEEE_F64LE) > 0);
    H5Tclose(type);
    const hid_t space = H5Dget_space(ds);
    hsize_t dims[2] = {};
    hsize_t max_dims[2] = {};
    REQUIRE(H5Sget_simple_extent_dims(space, dims, max_dims) == rank);
    CHECK(dims[0] == 0);
    CHECK(max_dims[0] == H5S_UNLIMITED);
    H5Sclose(space);
    const hid_t plist = H5Dget_create_plist(ds);
    hsize_t chunk[2] = {};
    REQUIRE(H5Pget_chunk(plist, 2, chunk) == rank);
    CHECK(chunk[0] == 1024);
    if (rank == 2) CHECK(chunk[1] == 3);
    REQUIRE(H5Pget_nfilters(plist) == 2);
    CHECK(H5Pget_filter2(plist, 0, nullptr, nullptr, nullptr, 0, nullptr, nullptr) ==
          H5Z_FILTER_SHUFFLE);
    unsigned flags = 0;
    std::size_t value_count = 1;
    unsigned level = 0;
    CHECK(H5Pget_filter2(plist, 1, &flags, &value_count, &level, 0, nullptr, nullptr) ==
          H5Z_FILTER_DEFLATE);
    CHECK(level == 1);
    H5Pclose(plist);
    H5Dclose(ds);
  }
  H5Fclose(h5);
}

TEST_CASE("hdf5_file: a short run's series get chunks of the next power of two rows (at least 8), and rows beyond it still read back") {
  using uwsim::output::chunk_rows;
  CHECK(chunk_rows(0) == 1024);  // not known
  CHECK(chunk_rows(1) == 8);
  CHECK(chunk_rows(8) == 8);
  CHECK(chunk_rows(9) == 16);
  CHECK(chunk_rows(1000) == 1024);
  CHECK(chunk_rows(1024) == 1024);
  CHECK(chunk_rows(100000) == 1024);
  TempDir dir;
  const std::string path = dir.file("short.h5");
  uwsim::output::Hdf5FileOptions options;
  options.expected_rows = 3;
  write_and_check_velocity_and_depth(path, 21, options);  // more than expected: chunks of 8, then a partial one
  const Reader reader(path);
  const std::vector<hsize_t> chunk = reader.chunk_dims("/bodies/rov/velocity");
  REQUIRE(chunk.size() == 2);
  CHECK(chunk[0] == 8);
  CHECK(chunk[1] == 6);
}

TEST_CASE("hdf5_file: appends after a mid-chunk flush continue correctly") {
  TempDir dir;
  const std::string path = dir.file("flushed.h5");
  {
    Hdf5File file(path);
    const auto [velocity, depth] = add_velocity_and_depth(file);
    append_matrix_rows(file, velocity, 0, 1500);
    append_scalar_rows(file, depth, 0, 1500);
    file.flush();
    file.flush();  // nothing new to write: must not disturb anything
    append_matrix_rows(file, velocity, 1500, 2100);
    append_scalar_rows(file, depth, 1500, 2100);
    file.close();
  }
  Reader reader(path);
  check_matrix_rows(reader, "/velocity", 2100);
  check_scalar_rows(reader, "/depth", 2100);
}

TEST_CASE("hdf5_file: the file on disk is complete and readable after flush without close") {
  TempDir dir;
  const std::string path = dir.file("live.h5");
  const std::string snapshot = dir.file("snapshot.h5");
  Hdf5File file(path);
  const auto velocity = file.add_series("/bodies/rov/velocity", 6, "m/s", "velocity");
  file.set_root_attribute("scenario", "dive");
  append_matrix_rows(file, velocity, 0, 1500);
  file.flush();

  // A byte copy of what is on disk right now; opening the live file itself in this process
  // would share the writer's in-memory state (and its file lock), proving nothing.
  fs::copy_file(path, snapshot);
  {
    Reader reader(snapshot);
    check_matrix_rows(reader, "/bodies/rov/velocity", 1500);
    CHECK(reader.string_attribute("/", "scenario") == "dive");
  }

  append_matrix_rows(file, velocity, 1500, 1600);
  file.close();
  Reader reader(path);
  check_matrix_rows(reader, "/bodies/rov/velocity", 1600);
}

TEST_CASE("hdf5_file: identical call sequences give byte-identical files") {
  TempDir dir;
  const std::string first = dir.file("first.h5");
  const std::string second = dir.file("second.h5");
  write_reference_file(first);
  // Object timestamps have one-second resolution; waiting makes stored times, if any, differ.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  write_reference_file(second);

  const std::vector<char> first_bytes = file_bytes(first);
  const std::vector<char> second_bytes = file_bytes(second);
  CHECK(first_bytes.size() > 0);
  CHECK(first_bytes == second_bytes);
}

TEST_CASE("hdf5_file: setting a root attribute again replaces its value") {
  TempDir dir;
  const std::string path = dir.file("attributes.h5");
  {
    Hdf5File file(path);
    file.set_root_attribute("git_commit", "abc123");
    file.set_root_attribute("scenario", "short");
    file.set_root_attribute("scenario", "a much longer replacement value, ünïcode included");
  }
  Reader reader(path);
  CHECK(reader.string_attribute("/", "scenario") ==
        "a much longer replacement value, ünïcode included");
  CHECK(reader.string_attribute("/", "git_commit") == "abc123");
}

TEST_CASE("hdf5_file: a path in a missing directory throws OutputError naming the path") {
  TempDir dir;
  const std::string path = dir.file("missing/sub/out.h5");
  try {
    Hdf5File file(path);
    FAIL("expected OutputError");
  } catch (const OutputError& error) {
    CHECK(std::string(error.what()).find(path) != std::string::npos);
  }
  CHECK_FALSE(fs::exists(path));
}

TEST_CASE("hdf5_file: a file that HDF5 cannot create throws OutputError naming the path") {
  TempDir dir;
  const std::string path = dir.file("occupied.h5");
  fs::create_directory(path);  // a directory where the file should go
  try {
    Hdf5File file(path);
    FAIL("expected OutputError");
  } catch (const OutputError& error) {
    CHECK(std::string(error.what()).find(path) != std::string::npos);
  }
}

TEST_CASE("hdf5_file: invalid series declarations throw OutputError") {
  TempDir dir;
  Hdf5File file(dir.file("invalid.h5"));
  CHECK_THROWS_AS(file.add_series("/x", 3, "m", "x", {"a", "b"}), OutputError);
  CHECK_THROWS_AS(file.add_series("/y", 2, "m", "y", {"a,b", "c"}), OutputError);
  CHECK_THROWS_AS(file.add_series("/z", 0, "m", "z"), OutputError);
  CHECK_THROWS_AS(file.add_series("relative", 1, "m", "relative"), OutputError);
  file.add_series("/group/taken", 1, "m", "taken");
  CHECK_THROWS_AS(file.add_series("/group/taken", 1, "m", "again"), OutputError);
  CHECK_THROWS_AS(file.add_series("/group/taken/below", 1, "m", "below a dataset"), OutputError);
  CHECK_THROWS_AS(file.append(42, nullptr), OutputError);
}

TEST_CASE("hdf5_file: close is idempotent and the closed file rejects further use") {
  TempDir dir;
  const std::string path = dir.file("closed.h5");
  Hdf5File file(path);
  const auto depth = file.add_series("/depth", 1, "m", "depth");
  append_scalar_rows(file, depth, 0, 10);
  file.close();
  CHECK_NOTHROW(file.close());
  const double value = 1.0;
  CHECK_THROWS_AS(file.append(depth, &value), OutputError);
  CHECK_THROWS_AS(file.flush(), OutputError);
  Reader reader(path);
  check_scalar_rows(reader, "/depth", 10);
}

namespace {

// What a process killed right now leaves: the file's bytes as the disk has them (a copy made
// while the writer is open shares none of its memory or locks).
void snapshot(const std::string& path, const std::string& copy) {
  fs::remove(copy);
  fs::copy_file(path, copy);
}

}  // namespace

TEST_CASE("hdf5_file: a copy taken at any moment opens with every dataset at its last commit") {
  TempDir dir;
  const std::string path = dir.file("live.h5");
  const std::string copy = dir.file("copy.h5");
  Hdf5File file(path);
  snapshot(path, copy);
  {
    Reader reader(copy);  // committed empty at creation: HDF5 opens it
  }
  const auto velocity = file.add_series("/bodies/rov/velocity", 6, "m/s", "velocity");
  const auto depth = file.add_series("/bodies/rov/depth", 1, "m", "depth");
  file.flush();  // the structure
  std::size_t committed = 0;
  for (std::size_t row = 0; row < 3100; ++row) {
    append_synced(file, velocity, depth, row, row + 1);
    // A chunk filled: the previous one, encoded meanwhile, was written, and sync committed it.
    if ((row + 1) % 1024 == 0) committed = row + 1 - 1024;
    if (row == 0 || row == 1022 || row == 1023 || row == 1024 || row == 2046 || row == 2047 || row == 3099) {
      CAPTURE(row);
      snapshot(path, copy);
      Reader reader(copy);
      check_matrix_rows(reader, "/bodies/rov/velocity", committed);
      check_scalar_rows(reader, "/bodies/rov/depth", committed);
    }
  }
  file.close();
  Reader reader(path);
  check_matrix_rows(reader, "/bodies/rov/velocity", 3100);
  check_scalar_rows(reader, "/bodies/rov/depth", 3100);
}

namespace {

// A run's calls with a sync after every row, as the recorder makes them; a flush after each
// of `flush_after` rows.
void write_synced(const std::string& path, uwsim::output::Hdf5FileOptions options, const std::string& copy_at_row_700 = "",
                  std::size_t rows = 2600, const std::vector<std::size_t>& flush_after = {}) {
  Hdf5File file(path, options);
  file.set_root_attribute("status", "running");
  const auto [velocity, depth] = add_velocity_and_depth(file);
  file.flush();
  for (std::size_t row = 0; row < rows; ++row) {
    append_synced(file, velocity, depth, row, row + 1);
    if (row == 700 && !copy_at_row_700.empty()) snapshot(path, copy_at_row_700);
    if (std::find(flush_after.begin(), flush_after.end(), row + 1) != flush_after.end()) file.flush();
  }
  file.set_root_attribute("status", "completed");
  file.close();
  CHECK(file.canonical());
}

}  // namespace

TEST_CASE("hdf5_file: timed commits put partial chunks on disk, and the closed file is byte-identical to an untimed one") {
  TempDir dir;
  uwsim::output::Hdf5FileOptions every_sync;
  every_sync.flush_interval = std::chrono::milliseconds(0);  // a timed commit at every sync
  uwsim::output::Hdf5FileOptions never;
  never.flush_interval = kNoTimedCommits;
  const std::string timed = dir.file("timed.h5"), untimed = dir.file("untimed.h5"), copy = dir.file("copy.h5");
  write_synced(timed, every_sync, copy);
  write_synced(untimed, never);
  {
    Reader reader(copy);  // rows 0..700 were committed by the timed commit of row 700
    check_matrix_rows(reader, "/velocity", 701);
    check_scalar_rows(reader, "/depth", 701);
  }
  Reader reader(timed);
  check_matrix_rows(reader, "/velocity", 2600);
  check_scalar_rows(reader, "/depth", 2600);
  CHECK(reader.string_attribute("/", "status") == "completed");
  CHECK(file_bytes(timed) == file_bytes(untimed));
  // The rewrite's temporary (output_file.h's fresh name beside it) is gone.
  for (const auto& entry : fs::directory_iterator(fs::path(timed).parent_path()))
    CHECK(entry.path().filename().string().find(".sim-tmp-") == std::string::npos);
}

TEST_CASE("hdf5_file: with flushes in mid-chunk, before and after a chunk the encoder holds, timed commits still rewrite to the untimed bytes") {
  // A flush writes the chunk the encoder holds and stores the partial one raw, which is then
  // rewritten in place when it fills; timed commits do both at other moments. The rewrite must
  // replay what the untimed run did, not what this file did.
  TempDir dir;
  uwsim::output::Hdf5FileOptions every_sync;
  every_sync.flush_interval = std::chrono::milliseconds(0);
  uwsim::output::Hdf5FileOptions never;
  never.flush_interval = kNoTimedCommits;
  const std::vector<std::size_t> flushes = {500, 1300, 2048, 2100, 3500};
  const std::string timed = dir.file("timed.h5"), untimed = dir.file("untimed.h5");
  write_synced(timed, every_sync, "", 5200, flushes);
  write_synced(untimed, never, "", 5200, flushes);
  Reader reader(timed);
  check_matrix_rows(reader, "/velocity", 5200);
  check_scalar_rows(reader, "/depth", 5200);
  CHECK(file_bytes(timed) == file_bytes(untimed));
}

TEST_CASE("hdf5_file: after a failure in the middle of a row set, limit_rows shows whole rows only") {
  TempDir dir;
  const std::string path = dir.file("limited.h5");
  {
    Hdf5File file(path);
    const auto [velocity, depth] = add_velocity_and_depth(file);
    append_matrix_rows(file, velocity, 0, 1030);
    append_scalar_rows(file, depth, 0, 1029);  // the 1030th row never came
    file.limit_rows(1029);
    file.close();
  }
  Reader reader(path);
  check_matrix_rows(reader, "/velocity", 1029);
  check_scalar_rows(reader, "/depth", 1029);
}

TEST_CASE("hdf5_file: full chunks are stored through the shuffle and deflate filters (compressed)") {
  TempDir dir;
  const std::string path = dir.file("compressed.h5");
  {
    Hdf5File file(path);
    const auto velocity = file.add_series("/velocity", 6, "m/s", "velocity");
    append_matrix_rows(file, velocity, 0, 2048);
    file.close();
  }
  const hid_t h5 = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(h5 >= 0);
  const hid_t ds = H5Dopen2(h5, "/velocity", H5P_DEFAULT);
  for (const hsize_t start : {hsize_t{0}, hsize_t{1024}}) {
    const hsize_t offset[2] = {start, 0};
    unsigned mask = 99;
    haddr_t address = 0;
    hsize_t size = 0;
    REQUIRE(H5Dget_chunk_info_by_coord(ds, offset, &mask, &address, &size) >= 0);
    CHECK(mask == 0);  // no filter skipped
    CHECK(size < 1024 * 6 * sizeof(double) / 2);  // smooth rows compress well
  }
  H5Dclose(ds);
  H5Fclose(h5);
  Reader reader(path);
  check_matrix_rows(reader, "/velocity", 2048);
}

TEST_CASE("hdf5_file: the object headers of the series declared before the first commit lie back to back") {
  // What lets one write extend every dataset at a commit (hdf5_file.h): the headers, which
  // hold the lengths, are one contiguous block, each in a single piece (a length in a
  // continuation chunk elsewhere would be a second write). Checked on the file HDF5 reads back,
  // for the recorder's sequence of calls: root attributes, then series of one and of several
  // columns, in nested groups, with long texts.
  for (const int count : {1, 6, 58, 400}) {
    CAPTURE(count);
    TempDir dir;
    const std::string path = dir.file("headers.h5");
    {
      Hdf5File file(path);
      file.set_root_attribute("scenario", std::string(5000, 'y'));
      file.set_root_attribute("status", "running");
      for (int i = 0; i < count; ++i) {
        const std::string name = "/bodies/body_" + std::to_string(i % 17) + "/series_" + std::to_string(i);
        if (i % 3 == 0)
          file.add_series(name, 1, "rad", "a scalar " + std::string(static_cast<std::size_t>(i % 300), 'd'));
        else
          file.add_series(name, 6, "m/s, rad/s", "a vector", {"u", "v", "w", "p", "q", "r"});
      }
      file.flush();
      file.set_root_attribute("status", "completed");
    }
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(file >= 0);
    std::vector<std::pair<haddr_t, hsize_t>> headers;  // address, size
    for (int i = 0; i < count; ++i) {
      const std::string name = "/bodies/body_" + std::to_string(i % 17) + "/series_" + std::to_string(i);
      H5O_info_t info{};
      REQUIRE(H5Oget_info_by_name2(file, name.c_str(), &info, H5O_INFO_BASIC | H5O_INFO_HDR, H5P_DEFAULT) >= 0);
      CHECK(info.hdr.nchunks == 1);
      headers.emplace_back(info.addr, info.hdr.space.total);
    }
    H5Fclose(file);
    for (std::size_t i = 1; i < headers.size(); ++i) {
      CAPTURE(i);
      CHECK(headers[i].first == headers[i - 1].first + headers[i - 1].second);
    }
  }
}

// ---------------------------------------------------------------- kill points
// What a process killed between two of its writes leaves is the file as it was before the
// second: so a copy of the file taken just before each write of a commit is every state a kill
// can leave. The writes are caught by interposing pwrite, which HDF5's sec2 driver calls, as
// test_no_heap_allocation.cpp interposes malloc.

namespace {

struct WriteWatch {
  std::atomic<bool> armed{false};
  dev_t device = 0;
  ino_t inode = 0;
  std::vector<std::string> before_each_write;  // the file's bytes just before each write
  int fail_write = 0;                          // this write (1, 2, …) fails with ENOSPC; 0: none
};
WriteWatch g_watch;

// Copies the file if `fd` is the watched one; false if this write is to fail.
bool copy_before_write(int fd) {
  if (!g_watch.armed.load()) return true;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_dev != g_watch.device || st.st_ino != g_watch.inode) return true;
  std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  g_watch.before_each_write.push_back(std::move(bytes));
  return g_watch.before_each_write.size() != static_cast<std::size_t>(g_watch.fail_write);
}

ssize_t forward_pwrite(int fd, const void* data, std::size_t count, off_t offset) {
  if (!copy_before_write(fd)) {
    errno = ENOSPC;
    return -1;
  }
  return ::syscall(SYS_pwrite64, fd, data, count, offset);
}

}  // namespace

extern "C" ssize_t pwrite(int fd, const void* data, std::size_t count, off_t offset) {
  return forward_pwrite(fd, data, count, offset);
}
extern "C" ssize_t pwrite64(int fd, const void* data, std::size_t count, off64_t offset) {
  return forward_pwrite(fd, data, count, offset);
}

namespace {

class WatchWrites {
 public:
  // Watches the writes to `path`; the `fail_write`-th fails with ENOSPC (0: none).
  explicit WatchWrites(const std::string& path, int fail_write = 0) {
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    g_watch.device = st.st_dev;
    g_watch.inode = st.st_ino;
    g_watch.fail_write = fail_write;
    g_watch.armed = true;
  }
  ~WatchWrites() {
    g_watch.armed = false;
    g_watch.fail_write = 0;
  }
  WatchWrites(const WatchWrites&) = delete;
  WatchWrites& operator=(const WatchWrites&) = delete;
};

// Every state a kill left, in order: each opens, with both series of one length and their rows
// exact. Returns the lengths.
std::vector<std::size_t> kill_states(const TempDir& dir, const std::vector<std::string>& more_scalars = {}) {
  std::vector<std::size_t> lengths;
  const std::string copy = dir.file("killed.h5");
  for (std::size_t k = 0; k < g_watch.before_each_write.size(); ++k) {
    CAPTURE(k);
    {
      std::ofstream out(copy, std::ios::binary | std::ios::trunc);
      out.write(g_watch.before_each_write[k].data(), static_cast<std::streamsize>(g_watch.before_each_write[k].size()));
    }
    Reader reader(copy);
    const std::size_t rows = static_cast<std::size_t>(reader.shape("/depth").at(0));
    check_matrix_rows(reader, "/velocity", rows);
    check_scalar_rows(reader, "/depth", rows);
    for (const std::string& name : more_scalars) {
      CAPTURE(name);
      check_scalar_rows(reader, name, rows);
    }
    lengths.push_back(rows);
  }
  g_watch.before_each_write.clear();
  return lengths;
}

// The lengths a kill could leave during `event`, from the first write on: `before` until the
// event's first commit, then each of its commits' lengths in turn (the last, which no later
// write shows, may be missing).
template <typename Event>
void check_killed_during(const std::string& path, const TempDir& dir, Event event, const std::vector<std::size_t>& commits,
                         const std::vector<std::string>& more_scalars = {}) {
  {
    WatchWrites watcher(path);
    event();
  }
  const std::vector<std::size_t> lengths = kill_states(dir, more_scalars);
  std::string seen;
  for (const std::size_t n : lengths) seen += std::to_string(n) + " ";
  CAPTURE(seen);
  REQUIRE(!lengths.empty());
  std::vector<std::size_t> distinct;  // in order
  for (const std::size_t n : lengths)
    if (distinct.empty() || distinct.back() != n) distinct.push_back(n);
  CHECK(distinct.size() >= commits.size() - 1);
  CHECK(distinct.size() <= commits.size());
  for (std::size_t i = 0; i < std::min(distinct.size(), commits.size()); ++i) CHECK(distinct[i] == commits[i]);
}

}  // namespace

TEST_CASE("hdf5_file: killed at any write of a flush, a fill or the close, the file opens with both series at one length over exact rows") {
  // The encoder's chunk is written at the series' next fill, a flush or the close, and a
  // partial chunk after it starts past the committed length: the writes to check.
  TempDir dir;
  const std::string path = dir.file("untimed.h5");
  uwsim::output::Hdf5FileOptions options;
  options.flush_interval = kNoTimedCommits;
  Hdf5File file(path, options);
  const auto [velocity, depth] = add_velocity_and_depth(file);
  file.flush();
  const auto rows = [&](std::size_t from, std::size_t to) { append_synced(file, velocity, depth, from, to); };
  rows(0, 1300);  // at 1024 the first chunk goes to the encoder
  // Its chunk, committed, then rows 1024–1299 stored raw, committed.
  check_killed_during(path, dir, [&] { file.flush(); }, {0, 1024, 1300});
  rows(1300, 2047);
  // The raw chunk, full, rewritten in place and committed.
  check_killed_during(path, dir, [&] { rows(2047, 2048); }, {1300, 2048});
  rows(2048, 3100);  // at 3072 a chunk goes to the encoder
  // Its chunk, committed, then rows 3072–3099, committed.
  check_killed_during(path, dir, [&] { file.close(); }, {2048, 3072, 3100});
  Reader reader(path);
  check_matrix_rows(reader, "/velocity", 3100);
  check_scalar_rows(reader, "/depth", 3100);
}

TEST_CASE("hdf5_file: killed at any write of a timed commit that finds a chunk at the encoder, the file opens at one length over exact rows") {
  // Rows 0–1023 take far less than the flush interval from the flush that starts it; a pause,
  // and the sync after row 1024 makes a timed commit with the first chunk still at the encoder.
  TempDir dir;
  const std::string path = dir.file("timed.h5"), untimed = dir.file("untimed.h5");
  for (const bool timed : {true, false}) {
    uwsim::output::Hdf5FileOptions options;
    options.flush_interval = timed ? std::chrono::milliseconds(1000) : kNoTimedCommits;
    Hdf5File file(timed ? path : untimed, options);
    const auto [velocity, depth] = add_velocity_and_depth(file);
    file.flush();
    const auto rows = [&](std::size_t from, std::size_t to) { append_synced(file, velocity, depth, from, to); };
    rows(0, 1024);
    if (timed) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1100));
      check_killed_during(path, dir, [&] { rows(1024, 1025); }, {0, 1024, 1025});
    } else {
      rows(1024, 1025);
    }
    rows(1025, 2500);
    file.close();
    CHECK(file.canonical());
  }
  Reader reader(path);
  check_matrix_rows(reader, "/velocity", 2500);
  check_scalar_rows(reader, "/depth", 2500);
  CHECK(file_bytes(path) == file_bytes(untimed));  // rewritten at close as the untimed run wrote it
}

TEST_CASE("hdf5_file: after a chunk write that fails in the middle of a sample, close keeps every state of the file at one length over exact rows") {
  // The sample that fills the third chunk: /velocity writes its second chunk and hands on its
  // third, /depth's write of its second fails, /heading never gets its row. The series are a
  // chunk apart when close() writes what is left, and HDF5 stores nothing when a failed chunk
  // is written again: no kill may find the series of different lengths, or a length over rows
  // that are not there.
  TempDir dir;
  const std::string path = dir.file("failed.h5");
  uwsim::output::Hdf5FileOptions options;
  options.flush_interval = kNoTimedCommits;
  options.reserve_space = false;  // the write itself fails, as on a filesystem without reservations
  Hdf5File file(path, options);
  const auto [velocity, depth] = add_velocity_and_depth(file);
  const auto heading = file.add_series("/heading", 1, "rad", "heading");
  file.flush();
  for (std::size_t row = 0; row < 3071; ++row) {
    append_matrix_rows(file, velocity, row, row + 1);
    append_scalar_rows(file, depth, row, row + 1);
    append_scalar_rows(file, heading, row, row + 1);
    file.sync();
  }
  {
    WatchWrites watcher(path, 2);  // the first write is /velocity's chunk, the second /depth's
    append_matrix_rows(file, velocity, 3071, 3072);
    CHECK_THROWS_AS(append_scalar_rows(file, depth, 3071, 3072), OutputError);
  }
  REQUIRE(g_watch.before_each_write.size() == 2);
  g_watch.before_each_write.clear();
  file.limit_rows(3071);  // as the recorder does: the whole samples
  // /depth's second chunk never reached the file: the rows before it, committed at the last fill.
  check_killed_during(path, dir, [&] { file.close(); }, {1024}, {"/heading"});
  Reader reader(path);
  check_matrix_rows(reader, "/velocity", 1024);
  check_scalar_rows(reader, "/depth", 1024);
  check_scalar_rows(reader, "/heading", 1024);
}

TEST_CASE("hdf5_file: a run killed at any sample loses at most the rows of the last flush interval, though chunks wait at the encoder") {
  // Chunks of 8 rows, a row every 15 ms: a chunk fills every 120 ms, and the one at the encoder
  // holds rows up to 240 ms old, more than the 200 ms interval. After each sync, every row that
  // came an interval before the sync began must be committed.
  TempDir dir;
  const std::string path = dir.file("bounded.h5"), copy = dir.file("copy.h5");
  uwsim::output::Hdf5FileOptions options;
  options.flush_interval = std::chrono::milliseconds(200);
  options.expected_rows = 8;
  Hdf5File file(path, options);
  const auto [velocity, depth] = add_velocity_and_depth(file);
  file.flush();
  using Clock = std::chrono::steady_clock;
  std::vector<Clock::time_point> appended;
  for (std::size_t row = 0; row < 48; ++row) {
    appended.push_back(Clock::now());
    append_matrix_rows(file, velocity, row, row + 1);
    append_scalar_rows(file, depth, row, row + 1);
    const Clock::time_point before_sync = Clock::now();
    file.sync();
    snapshot(path, copy);
    const Reader reader(copy);
    const std::size_t committed = static_cast<std::size_t>(reader.shape("/depth").at(0));
    std::size_t due = 0;  // rows that came an interval or more before the sync
    while (due < appended.size() && before_sync - appended[due] >= options.flush_interval) ++due;
    CAPTURE(row);
    CHECK(committed >= due);
    check_matrix_rows(reader, "/velocity", committed);
    std::this_thread::sleep_for(std::chrono::milliseconds(15));
  }
  file.close();
}

TEST_CASE("hdf5_file: random runs of appends, syncs and flushes rewrite their timed commits to the untimed bytes") {
  // Chunks of 8, 16 or 1024 rows, one to three series, some declared late, a flush now and then: the log must say
  // what the untimed run wrote when (its pending chunks, its raw partial chunks, the commit
  // between them), or some rewrite comes out different.
  TempDir dir;
  std::mt19937 random(20261128);
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    const std::size_t expected = std::vector<std::size_t>{5, 12, 0}[random() % 3];
    const int series_count = 1 + static_cast<int>(random() % 3);
    const std::size_t rows = 1 + random() % (expected == 0 ? 3000 : 90);
    std::vector<std::size_t> flushes;
    for (int i = static_cast<int>(random() % 7); i > 0; --i) flushes.push_back(1 + random() % rows);
    // Series 1 and 2 may be declared later, in the middle of the run: their chunks then fill
    // at other rows than series 0's.
    std::vector<std::size_t> first_row(static_cast<std::size_t>(series_count), 0);
    for (std::size_t i = 1; i < first_row.size(); ++i)
      if (random() % 2 == 0) first_row[i] = random() % (rows / 2 + 1);
    const auto write = [&](const std::string& path, bool timed) {
      uwsim::output::Hdf5FileOptions options;
      options.expected_rows = expected;
      options.flush_interval = timed ? std::chrono::milliseconds(0) : kNoTimedCommits;
      Hdf5File file(path, options);
      std::vector<Hdf5File::SeriesId> ids(first_row.size());
      const auto declare = [&](std::size_t i) {
        ids[i] = file.add_series("/s" + std::to_string(i), 1 + 2 * static_cast<int>(i), "1", "s");
      };
      for (std::size_t i = 0; i < ids.size(); ++i)
        if (first_row[i] == 0) declare(i);
      file.flush();
      std::vector<double> row(5);
      for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t i = 0; i < ids.size(); ++i) {
          if (r < first_row[i]) continue;
          if (r == first_row[i] && r > 0) declare(i);
          for (std::size_t c = 0; c < row.size(); ++c) row[c] = matrix_value(r, c + i);
          file.append(ids[i], row.data());
        }
        file.sync();
        if (std::find(flushes.begin(), flushes.end(), r + 1) != flushes.end()) file.flush();
      }
      file.close();
      CHECK(file.canonical());
    };
    write(dir.file("timed.h5"), true);
    write(dir.file("untimed.h5"), false);
    REQUIRE(file_bytes(dir.file("timed.h5")) == file_bytes(dir.file("untimed.h5")));
  }
}

TEST_CASE("hdf5_file: root attributes that exist from the first commit can be set again at the close without a state a kill could leave unreadable") {
  // As a run does: "status" and "warnings" set with the structure, set again just before close().
  TempDir dir;
  const std::string path = dir.file("attributes_at_close.h5");
  uwsim::output::Hdf5FileOptions options;
  options.flush_interval = kNoTimedCommits;
  Hdf5File file(path, options);
  file.set_root_attribute("status", "running");
  file.set_root_attribute("warnings", "");
  const auto [velocity, depth] = add_velocity_and_depth(file);
  file.flush();
  append_synced(file, velocity, depth, 0, 1500);
  check_killed_during(path, dir, [&] {
    file.set_root_attribute("warnings", std::string(3000, 'w'));
    file.set_root_attribute("status", "completed");
    file.close();
  }, {0, 1024, 1500});
  Reader reader(path);
  CHECK(reader.string_attribute("/", "status") == "completed");
  CHECK(reader.string_attribute("/", "warnings") == std::string(3000, 'w'));
}
