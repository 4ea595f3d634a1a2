#include "output/hdf5_writer.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <exception>
#include <filesystem>

namespace uwsim::output::detail {

namespace {

// Filter mask of H5Dwrite_chunk: bit i set = filter i of the pipeline (0 shuffle, 1 deflate)
// was not applied, so the chunk is stored as raw values.
constexpr std::uint32_t kNoFilters = 0x3;

// HDF5 tears its library down at exit; after a file whose close failed (a full disk), 1.10.8
// crashes there (H5F__close_cb, exit 139). Files are closed explicitly, so its handler is not
// needed: switched off before any other HDF5 call, at static initialisation.
[[maybe_unused]] const bool kNoHdf5AtExit = [] {
  H5dont_atexit();
  return true;
}();

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

// HDF5's file drivers report a failed system call as "... errno = 28, error message = '...'".
int errno_in(const std::string& detail) {
  const std::size_t at = detail.find("errno = ");
  if (at == std::string::npos) return 0;
  int value = 0;
  const char* first = detail.data() + at + 8;
  std::from_chars(first, detail.data() + detail.size(), value);
  return value;
}

}  // namespace

void Writer::fail(std::string_view what, int error_number) const {
  std::string message = "cannot write the result file '" + path_ + "': ";
  if (error_number != 0) {
    message += std::strerror(error_number);
    message += " (while trying to ";
    message += what;
    message += ")";
  } else {
    message += what;
  }
  throw OutputError(message, error_number);
}

void Writer::fail_hdf5(std::string_view what) const {
  const std::string detail = innermost_hdf5_error();
  const int error_number = errno_in(detail);
  if (error_number != 0) fail(what, error_number);
  std::string message = "failed to " + std::string(what);
  if (!detail.empty()) message += " (HDF5: " + detail + ")";
  fail(message);
}

Writer::Writer(std::string path, Hdf5FileOptions options, bool log)
    : path_(std::move(path)), options_(options), chunk_rows_(chunk_rows(options.expected_rows)), log_(log) {
  // Failures surface as OutputError; HDF5's own stack dump on stderr would only be noise.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);

  const std::filesystem::path parent = std::filesystem::path(path_).parent_path();
  std::error_code ignored;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ignored))
    fail("its folder '" + parent.string() + "' does not exist");

  const Handle creation = checked(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "create a file property list");
  // The root group's timestamps would make otherwise identical files differ.
  check(H5Pset_obj_track_times(creation.get(), 0), "disable root group timestamps");
  const Handle access = checked(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "create a file access property list");
  // Closing the file then really releases it even if some object was left open after an error.
  check(H5Pset_fclose_degree(access.get(), H5F_CLOSE_STRONG), "set the file close degree");
  const unsigned mode = options_.exclusive ? H5F_ACC_EXCL : H5F_ACC_TRUNC;
  file_ = checked(H5Fcreate(path_.c_str(), mode, creation.get(), access.get()), H5Fclose, "create the file");

  // Nothing may reach the disk between commits: no evictions (the cache then holds all of the
  // file's metadata, a few kB per dataset and 2.6 kB per 64 chunks of it).
  H5AC_cache_config_t cache{};
  cache.version = H5AC__CURR_CACHE_CONFIG_VERSION;
  check(H5Fget_mdc_config(file_.get(), &cache), "read the metadata cache configuration");
  cache.incr_mode = H5C_incr__off;
  cache.flash_incr_mode = H5C_flash_incr__off;
  cache.decr_mode = H5C_decr__off;
  cache.evictions_enabled = false;
  check(H5Fset_mdc_config(file_.get(), &cache), "configure the metadata cache");

  if (options_.reserve_space) {
    void* handle = nullptr;
    const Handle file_access = checked(H5Fget_access_plist(file_.get()), H5Pclose, "read the file access list");
    if (H5Fget_vfd_handle(file_.get(), file_access.get(), &handle) >= 0 && handle != nullptr)
      fd_ = *static_cast<int*>(handle);  // the sec2 driver's descriptor
    reservation_.emplace(fd_, path_);
  }
  commit();  // readable from the start: an empty file
}

Series& Writer::at(std::size_t id) {
  if (!file_.valid()) fail("the file is already closed");
  if (id >= series_.size()) fail("unknown series id " + std::to_string(id));
  return series_[id];
}

void Writer::ensure_parent_groups(const std::string& dataset_path) const {
  const Handle plist = checked(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "create a group property list");
  check(H5Pset_obj_track_times(plist.get(), 0), "disable group timestamps");
  std::size_t slash = dataset_path.find('/', 1);
  while (slash != std::string::npos) {
    const std::string group_path = dataset_path.substr(0, slash);
    const htri_t exists = H5Lexists(file_.get(), group_path.c_str(), H5P_DEFAULT);
    if (exists < 0) fail_hdf5("check whether group '" + group_path + "' exists");
    if (exists == 0)
      checked(H5Gcreate2(file_.get(), group_path.c_str(), H5P_DEFAULT, plist.get(), H5P_DEFAULT),
              H5Gclose, "create group '" + group_path + "'");
    slash = dataset_path.find('/', slash + 1);
  }
}

void Writer::write_string_attribute(hid_t object, const std::string& name, const std::optional<std::string>& value,
                                    const std::string& object_name) const {
  const std::string what = "write attribute '" + name + "' on '" + object_name + "'";
  // Variable-length UTF-8 so that h5py hands back str rather than bytes.
  const Handle type = checked(H5Tcopy(H5T_C_S1), H5Tclose, what);
  check(H5Tset_size(type.get(), H5T_VARIABLE), what);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), what);
  const htri_t exists = H5Aexists(object, name.c_str());
  if (exists < 0) fail_hdf5(what);
  Handle attribute;
  if (exists > 0) {
    // Rewritten in place: a variable-length value lives in the global heap, so the attribute's
    // message keeps its size.
    attribute = checked(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose, what);
  } else {
    const Handle space = checked(H5Screate(H5S_SCALAR), H5Sclose, what);
    attribute = checked(H5Acreate2(object, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                        H5Aclose, what);
  }
  if (!value) return;  // created without a value: a null reference, nothing in the global heap
  const char* text = value->c_str();
  check(H5Awrite(attribute.get(), type.get(), &text), what);
}

namespace {

// A series' attributes, in the order they are created.
std::vector<std::pair<std::string, std::string>> series_attributes(const SeriesDeclaration& d) {
  std::vector<std::pair<std::string, std::string>> attributes = {{"units", d.units}, {"description", d.description}};
  if (!d.column_names.empty()) {
    std::string joined;
    for (const std::string& name : d.column_names) joined += (joined.empty() ? "" : ",") + name;
    attributes.emplace_back("columns", joined);
  }
  attributes.insert(attributes.end(), d.attributes.begin(), d.attributes.end());
  return attributes;
}

}  // namespace

void Writer::create_header(Series& s) {
  const std::string& path = s.declaration.path;
  const std::string what = "create dataset '" + path + "'";
  const hsize_t initial[2] = {0, s.columns};
  const hsize_t maximum[2] = {H5S_UNLIMITED, s.columns};
  const hsize_t chunk[2] = {chunk_rows_, s.columns};
  const Handle file_space = checked(H5Screate_simple(s.rank, initial, maximum), H5Sclose, what);
  const Handle creation = checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, what);
  check(H5Pset_obj_track_times(creation.get(), 0), what);
  check(H5Pset_chunk(creation.get(), s.rank, chunk), what);
  check(H5Pset_shuffle(creation.get()), what);
  check(H5Pset_deflate(creation.get(), kDeflateLevel), what);
  // Chunks go to the file with H5Dwrite_chunk, past any chunk cache.
  const Handle access = checked(H5Pcreate(H5P_DATASET_ACCESS), H5Pclose, what);
  check(H5Pset_chunk_cache(access.get(), H5D_CHUNK_CACHE_NSLOTS_DEFAULT, 0, H5D_CHUNK_CACHE_W0_DEFAULT), what);
  // Anonymous: this allocates the object header and nothing else (no link, no chunk index).
  s.dataset = checked(H5Dcreate_anon(file_.get(), H5T_IEEE_F64LE, file_space.get(), creation.get(), access.get()),
                      H5Dclose, what);
  // The attributes, without values: their messages take their final size now, growing the
  // header in place, and allocate nothing else in the file.
  for (const auto& [name, value] : series_attributes(s.declaration))
    write_string_attribute(s.dataset.get(), name, std::nullopt, path);
}

void Writer::finish_dataset(Series& s) {
  const std::string& path = s.declaration.path;
  const std::string what = "create dataset '" + path + "'";
  for (const auto& [name, value] : series_attributes(s.declaration))
    write_string_attribute(s.dataset.get(), name, value, path);
  const Handle link = checked(H5Pcreate(H5P_LINK_CREATE), H5Pclose, what);
  check(H5Olink(s.dataset.get(), file_.get(), path.c_str(), link.get(), H5P_DEFAULT), what);
  // HDF5 1.10.8's H5Dwrite_chunk fails (or crashes) on a dataset without a chunk index, and the
  // index is made by the first chunk written while the dataset has rows. So: one row, a
  // placeholder chunk (8 bytes, never read), and back to no rows, which deletes it. No commit
  // comes in between, so nothing on disk ever refers to it; a first chunk then never changes
  // the dataset's header.
  const hsize_t initial[2] = {0, s.columns};
  const hsize_t one[2] = {1, s.columns};
  const hsize_t origin[2] = {0, 0};
  const double placeholder = 0.0;
  check(H5Dset_extent(s.dataset.get(), one), what);
  check(H5Dwrite_chunk(s.dataset.get(), H5P_DEFAULT, 0, origin, sizeof placeholder, &placeholder), what);
  check(H5Dset_extent(s.dataset.get(), initial), what);
}

void Writer::create_declared() {
  // The series declared since the last commit, so that their object headers lie back to back
  // and a commit extends them all with one write (hdf5_file.h). First every header with its
  // attributes, empty: nothing else is allocated in between, so each takes the metadata space
  // right after the previous one, and the attributes grow it in place. Then the root
  // attributes set so far, the groups, and each dataset's attribute values, name and chunk index.
  const auto declared = series_.end() - static_cast<std::ptrdiff_t>(declared_);
  for (auto s = declared; s != series_.end(); ++s) create_header(*s);
  for (const auto& [name, value] : pending_attributes_) write_string_attribute(file_.get(), name, value, "/");
  pending_attributes_.clear();
  for (auto s = declared; s != series_.end(); ++s) ensure_parent_groups(s->declaration.path);
  for (auto s = declared; s != series_.end(); ++s) finish_dataset(*s);
  declared_ = 0;
}

std::size_t Writer::add_series(SeriesDeclaration declaration) {
  if (!file_.valid()) fail("the file is already closed");
  const std::string& path = declaration.path;
  if (path.size() < 2 || path.front() != '/' || path.back() == '/' || path.find("//") != std::string::npos)
    fail("invalid series path '" + path + "' (want an absolute path like /group/name)");
  if (declaration.columns < 1)
    fail("series '" + path + "' needs at least one column, got " + std::to_string(declaration.columns));
  const auto& names = declaration.column_names;
  if (!names.empty() && names.size() != static_cast<std::size_t>(declaration.columns))
    fail("series '" + path + "' has " + std::to_string(declaration.columns) + " columns but " +
         std::to_string(names.size()) + " column names");
  for (std::size_t i = 0; i < declaration.attributes.size(); ++i) {
    const std::string& name = declaration.attributes[i].first;
    bool taken = name.empty() || name == "units" || name == "description" || name == "columns";
    for (std::size_t j = 0; j < i; ++j) taken = taken || declaration.attributes[j].first == name;
    if (taken) fail("series '" + path + "' has an empty, reserved or repeated attribute name '" + name + "'");
  }
  for (const std::string& name : names)  // a comma would make the joined attribute ambiguous
    if (name.find(',') != std::string::npos)
      fail("column name '" + name + "' of series '" + path + "' contains a comma");

  // Checked here, since the dataset is made later: a path taken, or one dataset inside another.
  const auto inside = [](const std::string& inner, const std::string& outer) {
    return inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 && inner[outer.size()] == '/';
  };
  for (const Series& other : series_) {
    const std::string& taken = other.declaration.path;
    if (taken == path) fail("series '" + path + "' is declared twice");
    if (inside(path, taken) || inside(taken, path))
      fail("series '" + path + "' and '" + taken + "' cannot both be datasets (one would be a group)");
  }
  Series s;
  s.columns = static_cast<hsize_t>(declaration.columns);
  s.rank = declaration.columns == 1 ? 1 : 2;
  s.declaration = std::move(declaration);
  const std::size_t chunk_bytes = chunk_rows_ * s.columns * sizeof(double);
  // Not zeroed: rows are written before they are read, and a partial chunk's tail is zeroed
  // when it is written; pages are touched only as rows come. The pending chunk's bytes are
  // reserved, untouched, so that a chunk filling does not allocate.
  s.buffer = std::make_unique_for_overwrite<double[]>(chunk_rows_ * s.columns);
  s.pending_bytes.reserve(codec_.encoded_capacity(chunk_rows_ * s.columns));
  // The buffer, raw, and a pending chunk: deflate's bound is the size plus 5 bytes per stored
  // block of 64 kB and the zlib stream's 6.
  closing_bytes_ += 2 * chunk_bytes + chunk_bytes / 4096 + 64;
  series_.push_back(std::move(s));
  ++declared_;  // created in the file at the next chunk or commit
  log({LoggedCall::series, false, static_cast<std::uint32_t>(series_.size() - 1), 0});
  return series_.size() - 1;
}

void Writer::set_attribute(const std::string& name, const std::string& value) {
  if (!file_.valid()) fail("the file is already closed");
  // Before the series' headers are in the file, written after them (create_declared).
  if (declared_ > 0 || series_.empty())
    pending_attributes_.emplace_back(name, value);
  else
    write_string_attribute(file_.get(), name, value, "/");
  if (log_) {
    attributes_.emplace_back(name, value);
    log({LoggedCall::attribute, false, static_cast<std::uint32_t>(attributes_.size() - 1), 0});
  }
}

void Writer::set_extent(Series& s, hsize_t rows) {
  const hsize_t extent[2] = {rows, s.columns};
  if (H5Dset_extent(s.dataset.get(), extent) < 0) fail_hdf5("extend dataset '" + s.declaration.path + "'");
  s.extent = rows;
}

void Writer::reserve(std::uint64_t bytes) {
  if (!reservation_) return;
  hsize_t size = 0;
  check(H5Fget_filesize(file_.get(), &size), "read the file's size");
  // While running, the room to close stays reserved beyond every write; close() spends it.
  const std::uint64_t needed = closing_ ? bytes : bytes + closing_bytes_;
  reservation_->ensure(size, needed, std::max<std::uint64_t>(std::uint64_t{16} << 20, 4 * closing_bytes_));
}

void Writer::store(Series& s, hsize_t start, const void* bytes, std::size_t size, bool filtered) {
  if (declared_ > 0) create_declared();
  // H5Dwrite_chunk takes a chunk that starts at or before the dataset's end. A file synced
  // after every sample never needs this outside a commit (write_unwritten); one that is not
  // synced, or not durable, makes no promise between commits. A rewrite replays a synced run:
  // needing it there means the log missed a commit, and the rewrite is given up.
  if (s.extent < start) {
    if (!log_) fail("the rewrite's log misses a commit before a chunk of dataset '" + s.declaration.path + "'");
    set_extent(s, start);
  }
  reserve(size);
  const hsize_t offset[2] = {start, 0};
  // Messages are built only on failure: append must not allocate on the way here.
  if (H5Dwrite_chunk(s.dataset.get(), H5P_DEFAULT, filtered ? 0 : kNoFilters, offset, size, bytes) < 0) {
    // HDF5 1.10.8 reports success when a chunk whose write failed is written again, but stores
    // nothing (its index gets no entry; the rows read back as zeros): from this chunk on, no
    // reader may see any dataset's rows. (A full disk is caught before the write, by the
    // reservation, and leaves HDF5 untouched.)
    limit_rows(start);
    fail_hdf5("write a chunk of dataset '" + s.declaration.path + "'");
  }
  written_since_commit_ = true;
}

void Writer::write_chunk(Series& s, bool final) {
  const hsize_t rows = s.buffered;
  const bool full = rows == chunk_rows_;
  const std::size_t values = chunk_rows_ * s.columns;
  if (!full) std::fill(s.buffer.get() + rows * s.columns, s.buffer.get() + values, 0.0);
  if (!s.raw && (full || final)) {
    codec_.encode(s.buffer.get(), values, encoded_);
    store(s, s.chunk_start, encoded_.data(), encoded_.size(), true);
  } else {
    // Unfiltered, so that every later write of this chunk has the same size and goes in place.
    store(s, s.chunk_start, s.buffer.get(), values * sizeof(double), false);
    s.raw = true;
  }
  s.stored = rows;
  if (full) {
    s.chunk_start += chunk_rows_;
    s.buffered = s.stored = 0;
    s.raw = false;
  }
}

void Writer::write_pending(Series& s) {
  store(s, s.pending_start, s.pending_bytes.data(), s.pending_bytes.size(), true);
  s.pending = false;
}

void Writer::chunk_filled(std::size_t id, Series& s) {
  // The file. Each step leaves the series as it was if it throws, so that the next append
  // retries what is left.
  if (s.pending) write_pending(s);
  if (s.raw) {
    write_chunk(s, false);  // a partial chunk stored raw (timed commit or flush) is rewritten in place
  } else {
    try {
      codec_.encode(s.buffer.get(), chunk_rows_ * s.columns, s.pending_bytes);
    } catch (const std::exception& error) {
      fail("deflate a chunk of dataset '" + s.declaration.path + "' (" + error.what() + ")");
    }
    s.pending_start = s.chunk_start;
    s.pending_since = s.buffer_since;
    s.pending = true;
    s.chunk_start += chunk_rows_;
    s.buffered = s.stored = 0;
  }
  // The log: what a run without timed commits writes now, in the same order.
  Series::Canonical& c = s.canonical;
  const auto log_full_chunk = [&] {
    log({LoggedCall::chunk, false, static_cast<std::uint32_t>(id), chunk_rows_});
    canonical_commit_due_ = true;
  };
  if (c.pending) log_full_chunk();
  if (c.raw) log_full_chunk();  // never with a pending one: the flush that stored it raw wrote that
  c.pending = !c.raw;
  c.raw = false;
  c.stored = 0;
}

void Writer::append(std::size_t id, const double* row) {
  Series& s = at(id);
  // A full buffer here means the write after the previous append failed: retry it first.
  if (s.buffered == chunk_rows_) chunk_filled(id, s);
  if (s.buffered == s.stored) s.buffer_since = Clock::now();  // the first row not in the file: once a chunk or commit
  std::copy_n(row, s.columns, s.buffer.get() + s.buffered * s.columns);
  ++s.buffered;
  if (s.buffered == chunk_rows_) chunk_filled(id, s);
}

void Writer::write_unwritten(bool final) {
  for (;;) {
    bool blocked = false;
    for (Series& s : series_) {
      if (s.pending) {
        if (s.pending_start > s.extent) {
          blocked = true;
          continue;  // its partial chunk comes after it
        }
        write_pending(s);
      }
      if (s.buffered > s.stored) {
        if (s.chunk_start > s.extent)
          blocked = true;
        else
          write_chunk(s, final);
      }
    }
    if (!blocked) return;
    // Each blocked chunk's series has every row before it written: a commit reaches it, unless
    // it starts past the limit (then nothing does, and no reader may see it).
    if (commit()) continue;
    for (Series& s : series_) {
      if (s.pending && s.pending_start > s.extent) s.pending = false;
      if (s.chunk_start > s.extent) s.stored = s.buffered;
    }
  }
}

void Writer::retry_filled() {
  for (std::size_t id = 0; id < series_.size(); ++id)
    if (series_[id].buffered == chunk_rows_) chunk_filled(id, series_[id]);
}

void Writer::write_unstored(bool final) {
  retry_filled();
  // The log first, as write_unwritten goes in a run without timed commits, where each pending
  // chunk starts at its dataset's length: the pending chunks and the partial chunks of series
  // without one; if any partial chunk waited behind a pending one, a commit and those.
  const auto log_partial = [&](std::size_t id) {
    Series& s = series_[id];
    log({LoggedCall::chunk, final, static_cast<std::uint32_t>(id), s.buffered});
    s.canonical.stored = s.buffered;
    s.canonical.raw = s.canonical.raw || !final;  // as write_chunk decides
  };
  std::vector<std::size_t> waiting;  // allocates only at flush and close
  for (std::size_t id = 0; id < series_.size(); ++id) {
    Series& s = series_[id];
    const bool had_pending = s.canonical.pending;
    if (had_pending) {
      log({LoggedCall::chunk, false, static_cast<std::uint32_t>(id), chunk_rows_});
      s.canonical.pending = false;
    }
    if (s.buffered > s.canonical.stored) {
      if (had_pending)
        waiting.push_back(id);
      else
        log_partial(id);
    }
  }
  if (!waiting.empty()) {
    log({LoggedCall::commit});
    for (const std::size_t id : waiting) log_partial(id);
  }
  // The file.
  write_unwritten(final);
}

bool Writer::commit() {
  if (declared_ > 0 || !pending_attributes_.empty()) create_declared();
  reserve(0);
  // 1. The chunks' index entries; the lengths still end before the new chunks.
  check(H5Fflush(file_.get(), H5F_SCOPE_LOCAL), "write the chunk index to disk");
  // 2. The lengths, each over rows now indexed on disk.
  bool extended = false;
  for (Series& s : series_) {
    const hsize_t rows = std::min<hsize_t>(rows_in_file(s), row_limit_);
    if (rows > s.extent) {
      set_extent(s, rows);
      extended = true;
    }
  }
  if (extended) check(H5Fflush(file_.get(), H5F_SCOPE_LOCAL), "write the datasets' lengths to disk");
  written_since_commit_ = false;
  canonical_commit_due_ = false;
  // What a kill would lose now: the pending chunks' rows, and rows of a buffer not written.
  unwritten_since_ = Clock::now();
  for (const Series& s : series_) {
    if (s.pending) unwritten_since_ = std::min(unwritten_since_, s.pending_since);
    else if (s.buffered > s.stored) unwritten_since_ = std::min(unwritten_since_, s.buffer_since);
  }
  return extended;
}

void Writer::limit_rows(std::uint64_t rows) {
  row_limit_ = std::min(row_limit_, rows);
  log({LoggedCall::limit, false, 0, rows});
}

void Writer::sync() {
  if (!options_.durable || !file_.valid()) return;
  if (canonical_commit_due_) {
    commit();
    log({LoggedCall::commit});
  } else if (written_since_commit_) {
    commit();  // only in a file that had timed commits: a chunk stored raw by one, rewritten in place
  }
  // Also right after a chunk's commit: the pending chunk it leaves may hold rows that old.
  if (Clock::now() - unwritten_since_ >= options_.flush_interval) timed_commit();
}

void Writer::timed_commit() {
  retry_filled();
  const bool canonical_commit_due = canonical_commit_due_;  // a retried fill's, not this commit's
  const bool unwritten = std::any_of(series_.begin(), series_.end(),
                                     [](const Series& s) { return s.pending || s.buffered > s.stored; });
  if (unwritten) {
    write_unwritten(false);
    commit();
    ++timed_commits_;
  }
  canonical_commit_due_ = canonical_commit_due;
  unwritten_since_ = Clock::now();
}

void Writer::flush() {
  if (!file_.valid()) fail("the file is already closed");
  write_unstored(false);
  commit();
  log({LoggedCall::commit});
}

void Writer::close() {
  if (!file_.valid()) return;
  // Close everything even if writing fails, so that the file is released either way.
  closing_ = true;
  std::exception_ptr failure;
  try {
    write_unstored(true);
    commit();
    log({LoggedCall::commit});
  } catch (...) {
    failure = std::current_exception();
  }
  bool closed = true;
  for (Series& s : series_) closed = s.dataset.reset() >= 0 && closed;
  closed = file_.reset() >= 0 && closed;
  if (reservation_) SpaceReservation::release(path_, reservation_->reserved_end());
  if (failure) std::rethrow_exception(failure);
  if (!closed) fail_hdf5("close the file");
}

void Writer::replay(const Writer& original) {
  const Handle source = checked(H5Fopen(original.path_.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                                "reopen '" + original.path_ + "' to rewrite it");
  std::vector<Handle> datasets;
  for (const LoggedCall& call : original.calls_) {
    switch (call.kind) {
      case LoggedCall::series: {
        const SeriesDeclaration& declaration = original.series_[call.index].declaration;
        add_series(declaration);
        datasets.push_back(checked(H5Dopen2(source.get(), declaration.path.c_str(), H5P_DEFAULT), H5Dclose,
                                   "reopen dataset '" + declaration.path + "'"));
        break;
      }
      case LoggedCall::attribute: {
        const auto& [name, value] = original.attributes_[call.index];
        set_attribute(name, value);
        break;
      }
      case LoggedCall::chunk: {
        Series& s = series_[call.index];
        const hsize_t start[2] = {s.chunk_start, 0};
        const hsize_t count[2] = {static_cast<hsize_t>(call.rows), s.columns};
        const std::string what = "read back dataset '" + s.declaration.path + "'";
        const Handle file_space = checked(H5Dget_space(datasets[call.index].get()), H5Sclose, what);
        check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), what);
        const Handle memory_space = checked(H5Screate_simple(s.rank, count, nullptr), H5Sclose, what);
        check(H5Dread(datasets[call.index].get(), H5T_NATIVE_DOUBLE, memory_space.get(), file_space.get(),
                      H5P_DEFAULT, s.buffer.get()),
              what);
        s.buffered = call.rows;
        write_chunk(s, call.final);
        break;
      }
      case LoggedCall::commit:
        commit();
        break;
      case LoggedCall::limit:
        limit_rows(call.rows);
        break;
    }
  }
  // The original's close() ended with its last writes and commit, replayed above: release only.
  bool closed = true;
  for (Series& s : series_) closed = s.dataset.reset() >= 0 && closed;
  closed = file_.reset() >= 0 && closed;
  if (reservation_) SpaceReservation::release(path_, reservation_->reserved_end());
  if (!closed) fail_hdf5("close the file");
}

}  // namespace uwsim::output::detail
