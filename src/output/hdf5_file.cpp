#include "output/hdf5_file.h"

#include <hdf5.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <string_view>
#include <utility>

namespace uwsim::output {

namespace {

// Rows per chunk; also the size of each series' in-memory buffer.
constexpr hsize_t kChunkRows = 1024;
constexpr unsigned kDeflateLevel = 1;  // level 4 compresses shuffled doubles no better, 2–3× slower

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

// The innermost message on the HDF5 error stack, which usually says what actually went wrong
// (e.g. "unable to open file"), so it is worth appending to our own message.
std::string innermost_hdf5_error() {
  std::string message;
  auto collect = [](unsigned, const H5E_error2_t* error, void* out) -> herr_t {
    auto& text = *static_cast<std::string*>(out);
    if (text.empty() && error != nullptr && error->desc != nullptr) text = error->desc;
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collect, &message);
  return message;
}

struct Series {
  std::string path;
  Handle dataset;
  Handle chunk_memory_space;  // shape of one full chunk, reused by every full-chunk write
  int rank = 1;
  hsize_t columns = 1;
  std::unique_ptr<double[]> buffer;  // one chunk of rows, row-major
  hsize_t chunk_start_row = 0;       // dataset row that buffer row 0 belongs to
  hsize_t buffered_rows = 0;
  hsize_t rows_already_written = 0;  // buffered rows a flush has already put in the file
};

}  // namespace

struct Hdf5File::Impl {
  std::string path;
  Handle file;
  std::vector<Series> series;
  bool chunk_written_since_sync = false;

  [[noreturn]] void fail(std::string_view what) const {
    throw OutputError("HDF5 file '" + path + "': " + std::string(what));
  }

  // For failed HDF5 calls only: otherwise the stack could hold an older, unrelated error.
  [[noreturn]] void fail_hdf5(std::string_view what) const {
    std::string message = "failed to " + std::string(what);
    const std::string detail = innermost_hdf5_error();
    if (!detail.empty()) message += " (" + detail + ")";
    fail(message);
  }

  void check(herr_t status, std::string_view what) const {
    if (status < 0) fail_hdf5(what);
  }

  Handle checked(hid_t id, Handle::Closer closer, std::string_view what) const {
    if (id < 0) fail_hdf5(what);
    return Handle(id, closer);
  }

  void require_open() const {
    if (!file.valid()) fail("the file is already closed");
  }

  Series& series_at(SeriesId id) {
    require_open();
    if (id >= series.size()) fail("unknown series id " + std::to_string(id));
    return series[id];
  }

  Handle group_creation_plist() const {
    Handle plist = checked(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "create group property list");
    check(H5Pset_obj_track_times(plist.get(), 0), "disable group timestamps");
    return plist;
  }

  // Opens or creates every group above the dataset path, e.g. /bodies and /bodies/rov.
  void ensure_parent_groups(const std::string& dataset_path) const {
    const Handle plist = group_creation_plist();
    std::size_t slash = dataset_path.find('/', 1);
    while (slash != std::string::npos) {
      const std::string group_path = dataset_path.substr(0, slash);
      const htri_t exists = H5Lexists(file.get(), group_path.c_str(), H5P_DEFAULT);
      if (exists < 0) fail_hdf5("check whether group '" + group_path + "' exists");
      if (exists == 0) {
        checked(H5Gcreate2(file.get(), group_path.c_str(), H5P_DEFAULT, plist.get(), H5P_DEFAULT),
                H5Gclose, "create group '" + group_path + "'");
      }
      slash = dataset_path.find('/', slash + 1);
    }
  }

  void write_string_attribute(hid_t object, const std::string& name, const std::string& value,
                              const std::string& object_name) const {
    const std::string what = "write attribute '" + name + "' on '" + object_name + "'";
    // Variable-length UTF-8 so that h5py hands back str rather than bytes.
    const Handle type = checked(H5Tcopy(H5T_C_S1), H5Tclose, what);
    check(H5Tset_size(type.get(), H5T_VARIABLE), what);
    check(H5Tset_cset(type.get(), H5T_CSET_UTF8), what);
    const Handle space = checked(H5Screate(H5S_SCALAR), H5Sclose, what);
    const Handle attribute =
        checked(H5Acreate2(object, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                H5Aclose, what);
    const char* text = value.c_str();
    check(H5Awrite(attribute.get(), type.get(), &text), what);
  }

  // Puts the buffered rows not yet in the file into it; when the buffer holds a whole chunk,
  // the buffer then moves on to the next chunk. After a partial flush the chunk is rewritten
  // from its first row, so every write covers a chunk from its start.
  void write_pending(Series& s) {
    if (s.buffered_rows > s.rows_already_written) {
      // Messages are built only on failure: append must not allocate on the way here.
      const auto check_write = [&](bool succeeded, const char* action) {
        if (!succeeded) fail_hdf5(std::string(action) + " dataset '" + s.path + "'");
      };
      const hsize_t rows = s.buffered_rows;
      const hsize_t extent[2] = {s.chunk_start_row + rows, s.columns};
      check_write(H5Dset_extent(s.dataset.get(), extent) >= 0, "extend");

      const Handle file_space(H5Dget_space(s.dataset.get()), H5Sclose);
      check_write(file_space.valid(), "get the dataspace of");
      const hsize_t start[2] = {s.chunk_start_row, 0};
      const hsize_t count[2] = {rows, s.columns};
      const herr_t selected =
          H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
      check_write(selected >= 0, "select rows in");

      Handle partial_memory_space;
      hid_t memory_space = s.chunk_memory_space.get();
      if (rows < kChunkRows) {
        partial_memory_space = Handle(H5Screate_simple(s.rank, count, nullptr), H5Sclose);
        check_write(partial_memory_space.valid(), "create a memory dataspace for");
        memory_space = partial_memory_space.get();
      }
      check_write(H5Dwrite(s.dataset.get(), H5T_NATIVE_DOUBLE, memory_space, file_space.get(),
                           H5P_DEFAULT, s.buffer.get()) >= 0,
                  "write rows to");
      s.rows_already_written = rows;
    }
    if (s.buffered_rows == kChunkRows) {
      chunk_written_since_sync = true;
      s.chunk_start_row += kChunkRows;
      s.buffered_rows = 0;
      s.rows_already_written = 0;
    }
  }

  // Writes every series, attempting all of them, and rethrows the first failure.
  void write_all_pending() {
    std::exception_ptr first_failure;
    for (Series& s : series) {
      try {
        write_pending(s);
      } catch (...) {
        if (!first_failure) first_failure = std::current_exception();
      }
    }
    if (first_failure) std::rethrow_exception(first_failure);
  }
};

Hdf5File::Hdf5File(const std::string& path) : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  // Failures surface as OutputError; HDF5's own stack dump on stderr would only be noise.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);

  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ignored;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ignored)) {
    impl_->fail("parent directory '" + parent.string() + "' does not exist");
  }

  const Handle creation =
      impl_->checked(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "create file property list");
  // The root group's timestamps would make otherwise identical files differ.
  impl_->check(H5Pset_obj_track_times(creation.get(), 0), "disable root group timestamps");
  const Handle access =
      impl_->checked(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "create file access property list");
  // Closing the file then really releases it even if some object was left open after an error.
  impl_->check(H5Pset_fclose_degree(access.get(), H5F_CLOSE_STRONG), "set file close degree");

  impl_->file = impl_->checked(
      H5Fcreate(path.c_str(), H5F_ACC_TRUNC, creation.get(), access.get()), H5Fclose,
      "create file");
}

Hdf5File::~Hdf5File() {
  try {
    close();
  } catch (...) {
    // A destructor must not throw; callers wanting the error call close() themselves.
  }
}

Hdf5File::SeriesId Hdf5File::add_series(const std::string& path, int columns,
                                        const std::string& units, const std::string& description,
                                        const std::vector<std::string>& column_names) {
  Impl& impl = *impl_;
  impl.require_open();
  if (path.size() < 2 || path.front() != '/' || path.back() == '/' ||
      path.find("//") != std::string::npos) {
    impl.fail("invalid series path '" + path + "' (want an absolute path like /group/name)");
  }
  if (columns < 1) {
    impl.fail("series '" + path + "' needs at least one column, got " + std::to_string(columns));
  }
  if (!column_names.empty() && column_names.size() != static_cast<std::size_t>(columns)) {
    impl.fail("series '" + path + "' has " + std::to_string(columns) + " columns but " +
              std::to_string(column_names.size()) + " column names");
  }
  std::string joined_names;
  for (const std::string& name : column_names) {
    // A comma inside a name would make the comma-separated attribute ambiguous.
    if (name.find(',') != std::string::npos) {
      impl.fail("column name '" + name + "' of series '" + path + "' contains a comma");
    }
    if (!joined_names.empty()) joined_names += ',';
    joined_names += name;
  }

  impl.ensure_parent_groups(path);

  Series s;
  s.path = path;
  s.columns = static_cast<hsize_t>(columns);
  s.rank = columns == 1 ? 1 : 2;

  const std::string create_what = "create dataset '" + path + "'";
  const hsize_t initial[2] = {0, s.columns};
  const hsize_t maximum[2] = {H5S_UNLIMITED, s.columns};
  const hsize_t chunk[2] = {kChunkRows, s.columns};
  const Handle file_space =
      impl.checked(H5Screate_simple(s.rank, initial, maximum), H5Sclose, create_what);

  const Handle creation = impl.checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, create_what);
  impl.check(H5Pset_obj_track_times(creation.get(), 0), create_what);
  impl.check(H5Pset_chunk(creation.get(), s.rank, chunk), create_what);
  impl.check(H5Pset_shuffle(creation.get()), create_what);
  impl.check(H5Pset_deflate(creation.get(), kDeflateLevel), create_what);

  // Each chunk is written once, whole, so a chunk cache would only hold memory per series and
  // postpone the write; with no cache the chunk goes to the file in H5Dwrite itself.
  const Handle access = impl.checked(H5Pcreate(H5P_DATASET_ACCESS), H5Pclose, create_what);
  impl.check(H5Pset_chunk_cache(access.get(), H5D_CHUNK_CACHE_NSLOTS_DEFAULT, 0,
                                H5D_CHUNK_CACHE_W0_DEFAULT),
             create_what);

  s.dataset = impl.checked(H5Dcreate2(impl.file.get(), path.c_str(), H5T_IEEE_F64LE,
                                      file_space.get(), H5P_DEFAULT, creation.get(), access.get()),
                           H5Dclose, create_what);
  s.chunk_memory_space =
      impl.checked(H5Screate_simple(s.rank, chunk, nullptr), H5Sclose, create_what);

  impl.write_string_attribute(s.dataset.get(), "units", units, path);
  impl.write_string_attribute(s.dataset.get(), "description", description, path);
  if (!column_names.empty()) {
    impl.write_string_attribute(s.dataset.get(), "columns", joined_names, path);
  }

  s.buffer = std::make_unique<double[]>(kChunkRows * s.columns);
  impl.series.push_back(std::move(s));
  return impl.series.size() - 1;
}

void Hdf5File::append(SeriesId series, const double* row) {
  Series& s = impl_->series_at(series);
  // A full buffer here means the write after the previous append failed; retry it before the
  // buffer is reused.
  if (s.buffered_rows == kChunkRows) impl_->write_pending(s);
  std::copy_n(row, s.columns, s.buffer.get() + s.buffered_rows * s.columns);
  ++s.buffered_rows;
  if (s.buffered_rows == kChunkRows) impl_->write_pending(s);
}

void Hdf5File::set_root_attribute(const std::string& name, const std::string& value) {
  Impl& impl = *impl_;
  impl.require_open();
  const htri_t exists = H5Aexists(impl.file.get(), name.c_str());
  if (exists < 0) impl.fail_hdf5("check whether root attribute '" + name + "' exists");
  // Deleting and recreating also copes with a value of a different type or size.
  if (exists > 0) {
    impl.check(H5Adelete(impl.file.get(), name.c_str()),
               "replace root attribute '" + name + "'");
  }
  impl.write_string_attribute(impl.file.get(), name, value, "/");
}

void Hdf5File::sync() {
  Impl& impl = *impl_;
  if (!impl.chunk_written_since_sync) return;
  impl.require_open();
  impl.check(H5Fflush(impl.file.get(), H5F_SCOPE_LOCAL), "flush to disk");
  impl.chunk_written_since_sync = false;
}

void Hdf5File::flush() {
  Impl& impl = *impl_;
  impl.require_open();
  impl.write_all_pending();
  impl.check(H5Fflush(impl.file.get(), H5F_SCOPE_LOCAL), "flush to disk");
}

void Hdf5File::close() {
  Impl& impl = *impl_;
  if (!impl.file.valid()) return;

  // Close everything even if writing fails, so that the file is released either way.
  std::exception_ptr first_failure;
  try {
    impl.write_all_pending();
  } catch (...) {
    first_failure = std::current_exception();
  }
  bool handles_closed = true;
  for (Series& s : impl.series) {
    handles_closed = s.chunk_memory_space.reset() >= 0 && handles_closed;
    handles_closed = s.dataset.reset() >= 0 && handles_closed;
  }
  impl.series.clear();
  const bool file_closed = impl.file.reset() >= 0;

  if (first_failure) std::rethrow_exception(first_failure);
  if (!handles_closed) impl.fail_hdf5("close datasets");
  if (!file_closed) impl.fail_hdf5("close file");
}

}  // namespace uwsim::output
