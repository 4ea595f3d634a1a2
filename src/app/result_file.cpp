#include "app/result_file.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>

#include "scenario/read_file.h"

namespace uwsim::app {

namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t saturating_product(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > kSaturated / a) return kSaturated;
  return a * b;
}

std::string count_text(std::uint64_t n) { return n == kSaturated ? "more than 1.8e19" : std::to_string(n); }

std::string shape_of(const ResultDataset& d) {
  if (d.dims.empty()) return "a scalar";
  std::string text;
  for (std::size_t i = 0; i < d.dims.size(); ++i) text += (i ? " × " : "") + std::to_string(d.dims[i]);
  return text;
}

// Times in messages: nine significant digits at most.
std::string number_text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", x);
  return buffer;
}

std::string claim_problem(const ResultDataset& d, std::uint64_t file_bytes) {
  const std::uint64_t bytes = saturating_product(d.claimed_values(), d.type_bytes);
  if (d.filtered || bytes <= file_bytes) return "";
  return "claims " + shape_of(d) + " values (" + count_text(bytes) + " bytes), more than the whole file holds (" +
         std::to_string(file_bytes) + " bytes)";
}

// The file is checked before HDF5 touches it: opening a FIFO would wait for a writer for ever.
hid_t open_checked(const std::string& path) {
  // HDF5 keeps what it frees on its own free lists, without a bound by default: reading
  // 7800 small datasets held 140 MB there. A few MB are enough for reuse.
  H5set_free_list_limits(4 << 20, 1 << 20, 4 << 20, 1 << 20, 4 << 20, 1 << 20);
  if (const std::string why = scenario::input_file_problem(path); !why.empty()) throw ResultError(path, "", why);
  if (H5Fis_hdf5(path.c_str()) <= 0) throw ResultError(path, "", "not an HDF5 file");
  // A small metadata cache: HDF5's default lets it grow to 32 MB and beyond while thousands
  // of datasets' chunk indices pass through it once each.
  const Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5AC_cache_config_t cache{};
  cache.version = H5AC__CURR_CACHE_CONFIG_VERSION;
  if (access.ok() && H5Pget_mdc_config(access.get(), &cache) >= 0) {
    cache.set_initial_size = true;
    cache.initial_size = 1 << 20;
    cache.min_size = 1 << 20;
    cache.max_size = 4 << 20;
    H5Pset_mdc_config(access.get(), &cache);
    // Each dataset is read once, front to back: a chunk cache of a few slots is enough, and
    // HDF5 sets up the 521 slots of its default at every open.
    H5Pset_cache(access.get(), 0, 13, 1 << 20, 1.0);
  }
  // Default file locking refuses a file another process still has open for writing; that is
  // the safe answer, since its metadata may be half-written.
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.ok() ? access.get() : H5P_DEFAULT);
  if (file < 0) throw ResultError(path, "", "cannot open the HDF5 file (is sim still writing it?)");
  return file;
}

// What a dataset is, from its header alone: no value is read. The storage layout comes from
// the creation properties, read before the dataspace: a virtual dataset's extent may come
// from its sources.
ResultDataset inspect(hid_t object, std::string path) {
  ResultDataset d;
  d.path = std::move(path);
  const Handle dcpl(H5Dget_create_plist(object), H5Pclose);
  if (dcpl.ok()) {
    d.is_virtual = H5Pget_layout(dcpl.get()) == H5D_VIRTUAL;
    d.external_storage = H5Pget_external_count(dcpl.get()) > 0;
    d.filtered = H5Pget_nfilters(dcpl.get()) > 0;
  }
  if (d.is_virtual) return d;  // its shape is not asked for
  const Handle type(H5Dget_type(object), H5Tclose);
  d.type_class = type.ok() ? H5Tget_class(type.get()) : H5T_NO_CLASS;
  d.type_bytes = type.ok() ? H5Tget_size(type.get()) : 0;
  const Handle space(H5Dget_space(object), H5Sclose);
  const int rank = space.ok() ? H5Sget_simple_extent_ndims(space.get()) : -1;
  if (rank > 0) {
    d.dims.resize(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), d.dims.data(), nullptr);
  }
  if (space.ok() && H5Sget_simple_extent_type(space.get()) == H5S_NULL) d.dims.assign(1, 0);
  return d;
}

// A string attribute of an open object; `spent` counts the bytes read (kMaxAttributeBytes).
TextAttribute text_attribute(hid_t holder, const char* name, std::size_t max_bytes, std::uint64_t& spent) {
  TextAttribute out;
  if (H5Aexists(holder, name) <= 0) return out;
  out.state = TextAttribute::State::unreadable;
  const Handle attribute(H5Aopen(holder, name, H5P_DEFAULT), H5Aclose);
  const Handle type(attribute.ok() ? H5Aget_type(attribute.get()) : -1, H5Tclose);
  const Handle space(attribute.ok() ? H5Aget_space(attribute.get()) : -1, H5Sclose);
  if (!type.ok() || !space.ok() || H5Tget_class(type.get()) != H5T_STRING || H5Sget_simple_extent_npoints(space.get()) != 1 ||
      spent >= kMaxAttributeBytes)
    return out;
  // Reading with the file's own string type sidesteps charset conversions HDF5 refuses.
  std::string text;
  if (H5Tis_variable_str(type.get()) > 0) {
    // HDF5 tells a variable-length string's length only by reading it; what it reads lies in
    // the file, so it is at most the file's size, and the budget stops a file whose
    // attributes share one long stored string.
    char* value = nullptr;
    if (H5Aread(attribute.get(), type.get(), &value) < 0) return out;
    text = value != nullptr ? value : "";
    H5free_memory(value);
  } else {
    const std::size_t size = H5Tget_size(type.get());
    if (size > max_bytes) return {TextAttribute::State::too_long, "", size};
    std::string buffer(size, '\0');
    if (size == 0 || H5Aread(attribute.get(), type.get(), buffer.data()) < 0) return out;
    buffer.resize(strnlen(buffer.c_str(), size));
    text = std::move(buffer);
  }
  const std::uint64_t bytes = text.size();
  spent += std::max<std::uint64_t>(bytes, 1);
  if (bytes > max_bytes) return {TextAttribute::State::too_long, "", bytes};
  return {TextAttribute::State::text, std::move(text), bytes};
}

struct Walk {
  hid_t file;
  bool strict;
  std::uint64_t& attribute_bytes;
  std::vector<ResultDataset> datasets;
  std::vector<ResultLink> links;
  std::string bad_object, problem;  // the first reason to refuse the file (strict)
  std::uint64_t seen = 0;
  bool truncated = false;
};

herr_t visit(hid_t group, const char* name, const H5L_info_t* info, void* data) {
  Walk& walk = *static_cast<Walk*>(data);
  if (++walk.seen > kMaxResultLinks) {
    walk.truncated = true;
    return 1;  // stops the walk
  }
  const std::string path = std::string("/") + name;
  if (info->type != H5L_TYPE_HARD) {
    const std::string kind = info->type == H5L_TYPE_SOFT       ? "soft link"
                             : info->type == H5L_TYPE_EXTERNAL ? "external link"
                                                               : "user-defined link";
    if (walk.strict && info->type != H5L_TYPE_SOFT) {
      walk.bad_object = path;
      walk.problem = "is an " + kind + " (to another file); sim reads nothing but the file it is given";
      return -1;
    }
    walk.links.push_back({path, kind});
    return 0;
  }
  // By address, not by name: a name is looked up again component by component.
  const Handle object(H5Oopen_by_addr(group, info->u.address), H5Oclose);
  if (!object.ok() || H5Iget_type(object.get()) != H5I_DATASET) return 0;
  ResultDataset d = inspect(object.get(), path);
  d.address = info->u.address;
  // The labels are read while the dataset is open: opening it again costs as much.
  d.units = text_attribute(object.get(), "units", kMaxLabelBytes, walk.attribute_bytes);
  d.columns_text = text_attribute(object.get(), "columns", kMaxLabelBytes, walk.attribute_bytes);
  d.description = text_attribute(object.get(), "description", kMaxLabelBytes, walk.attribute_bytes);
  if (walk.strict && (d.is_virtual || d.external_storage)) {
    walk.bad_object = path;
    walk.problem = d.is_virtual ? "is a virtual dataset (its values are other datasets', maybe of other files); "
                                  "sim reads nothing but the file it is given"
                                : "keeps its values in other files (external storage); sim reads nothing but the "
                                  "file it is given";
    return -1;
  }
  walk.datasets.push_back(std::move(d));
  return 0;
}

}  // namespace

ResultError::ResultError(const std::string& file, const std::string& object, const std::string& what)
    : std::runtime_error(file + ": " + (object.empty() ? "" : object + ": ") + what), file_(file), object_(object), problem_(what) {}

std::uint64_t ResultDataset::claimed_values() const {
  std::uint64_t n = 1;
  for (const hsize_t k : dims) n = saturating_product(n, k);
  return n;
}

std::uint64_t ResultDataset::columns() const {
  std::uint64_t n = 1;
  for (std::size_t i = 1; i < dims.size(); ++i) n = saturating_product(n, dims[i]);
  return n;
}

ResultFile::ResultFile(const std::string& path, Checks checks) : path_(path), file_(open_checked(path), H5Fclose) {
  std::error_code error;
  file_bytes_ = std::filesystem::file_size(path, error);
  Walk walk{file_.get(), checks == Checks::strict, attribute_bytes_, {}, {}, {}, {}};
  H5Lvisit(file_.get(), H5_INDEX_NAME, H5_ITER_INC, visit, &walk);
  if (!walk.problem.empty()) throw ResultError(path_, walk.bad_object, walk.problem);
  truncated_ = walk.truncated;
  if (truncated_ && checks == Checks::strict)
    throw ResultError(path_, "", "holds more than " + std::to_string(kMaxResultLinks) +
                                     " links (groups and datasets), more than sim reads from a file");
  const auto listed = [&](const char* path) {
    return std::any_of(walk.datasets.begin(), walk.datasets.end(), [&](const ResultDataset& d) { return d.path == path; });
  };
  H5L_info_t time_link{};
  if (truncated_ && !listed("/time") && H5Lexists(file_.get(), "time", H5P_DEFAULT) > 0 &&
      H5Lget_info(file_.get(), "time", &time_link, H5P_DEFAULT) >= 0) {  // the walk stopped before /time
    walk.seen = 0;
    visit(file_.get(), "time", &time_link, &walk);
  }
  datasets_ = std::move(walk.datasets);
  links_ = std::move(walk.links);
  for (std::size_t i = 0; i < datasets_.size(); ++i) index_.emplace(datasets_[i].path, i);
  if (checks == Checks::lenient) return;
  for (const ResultDataset& d : datasets_)
    if (const std::string why = claim_problem(d, file_bytes_); !why.empty()) throw ResultError(path_, d.path, why);
  const ResultDataset* t = find("/time");
  if (t == nullptr) throw ResultError(path_, "", "no /time dataset, so not a result file of sim");
  if (t->dims.size() != 1) throw ResultError(path_, "/time", "is " + shape_of(*t) + ", not one-dimensional");
  if (const std::string why = read_problem(*t); !why.empty()) throw ResultError(path_, "/time", why);
}

const ResultDataset* ResultFile::find(std::string_view dataset_path) const {
  const auto it = index_.find(dataset_path);
  return it == index_.end() ? nullptr : &datasets_[it->second];
}

std::string ResultFile::read_problem(const ResultDataset& d) const {
  if (d.is_virtual) return "is a virtual dataset (values of other datasets, maybe of other files): not read";
  if (d.external_storage) return "keeps its values in other files (external storage): not read";
  if (d.type_class != H5T_FLOAT && d.type_class != H5T_INTEGER) return "holds no numbers";
  if (d.dims.empty()) return "is a scalar, not a series";
  if (std::string why = claim_problem(d, file_bytes_); !why.empty()) return why;
  if (d.rows() > kMaxResultRows)
    return "claims " + count_text(d.rows()) + " rows; sim reads at most " + std::to_string(kMaxResultRows);
  return "";
}

std::uint64_t ResultFile::decoding_budget() const { return std::max(file_bytes_, kMinDecodedValues); }

void ResultFile::spend(const ResultDataset& d) {
  if (const std::string why = read_problem(d); !why.empty()) throw ResultError(path_, d.path, why);
  const std::uint64_t n = d.claimed_values();
  if (n > decoding_budget() - decoded_)
    throw ResultError(path_, d.path,
                      "reading its " + count_text(n) + " values would make more than " + std::to_string(decoding_budget()) +
                          " decoded from this file, the most sim decodes from it (as many as it has bytes, at least " +
                          std::to_string(kMinDecodedValues) + ")");
  decoded_ += n;
}

const std::vector<double>& ResultFile::time() {
  if (time_) return *time_;
  const ResultDataset* t = find("/time");
  if (t == nullptr) throw ResultError(path_, "", "no /time dataset, so not a result file of sim");
  if (t->dims.size() != 1) throw ResultError(path_, "/time", "is " + shape_of(*t) + ", not one-dimensional");
  spend(*t);
  const Handle set(H5Oopen_by_addr(file_.get(), t->address), H5Oclose);
  const Handle space(set.ok() ? H5Dget_space(set.get()) : -1, H5Sclose);
  if (!space.ok()) throw ResultError(path_, "/time", "cannot be read");
  // Block by block, checked as it goes: the first bad time ends the read. The room is taken at
  // once (the claim is at most kMaxResultRows, read_problem: 32 MiB), so that growing never
  // holds two copies.
  constexpr hsize_t kBlock = 1 << 16;
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(t->dims[0]));
  for (hsize_t start = 0; start < t->dims[0]; start += kBlock) {
    const hsize_t count = std::min(kBlock, t->dims[0] - start);
    const Handle memory(H5Screate_simple(1, &count, nullptr), H5Sclose);
    values.resize(static_cast<std::size_t>(start + count));
    if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr) < 0 ||
        H5Dread(set.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT, values.data() + start) < 0)
      throw ResultError(path_, "/time", "cannot be read (rows " + std::to_string(start) + " on)");
    for (std::size_t k = static_cast<std::size_t>(start); k < values.size(); ++k) {
      const std::string at = "/time[" + std::to_string(k) + "]";
      if (!std::isfinite(values[k])) throw ResultError(path_, "", at + " is " + number_text(values[k]) + ": times must be finite");
      if (k > 0 && !(values[k] > values[k - 1]))
        throw ResultError(path_, "",
                          at + " = " + number_text(values[k]) + " s does not follow /time[" + std::to_string(k - 1) +
                              "] = " + number_text(values[k - 1]) + " s: times must increase");
    }
  }
  time_ = std::move(values);
  return *time_;
}

std::vector<double> ResultFile::take_time() {
  time();
  std::vector<double> out = std::move(*time_);
  time_.reset();
  return out;
}

std::vector<double> ResultFile::read(const ResultDataset& d) {
  spend(d);
  std::vector<double> values(static_cast<std::size_t>(d.claimed_values()));
  const Handle set(H5Oopen_by_addr(file_.get(), d.address), H5Oclose);
  if (!set.ok() || (!values.empty() && H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0))
    throw ResultError(path_, d.path, "cannot be read");
  return values;
}

std::vector<double> ResultFile::read_column(const ResultDataset& d, std::uint64_t column) {
  spend(d);  // its chunks are inflated whole
  const Handle set(H5Oopen_by_addr(file_.get(), d.address), H5Oclose);
  const Handle space(set.ok() ? H5Dget_space(set.get()) : -1, H5Sclose);
  if (!space.ok() || d.dims.size() != 2 || column >= d.dims[1]) throw ResultError(path_, d.path, "cannot be read");
  const hsize_t start[2] = {0, column}, count[2] = {d.dims[0], 1};
  const Handle memory(H5Screate_simple(2, count, nullptr), H5Sclose);
  std::vector<double> values(static_cast<std::size_t>(d.rows()));
  if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr) < 0 ||
      (!values.empty() && H5Dread(set.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT, values.data()) < 0))
    throw ResultError(path_, d.path, "cannot be read");
  return values;
}

// Datasets of at most this many values are read whole by read_every (64 kB as doubles).
constexpr std::uint64_t kWholeRead = 8192;

std::vector<double> ResultFile::read_every(const ResultDataset& d, std::uint64_t stride) {
  spend(d);
  if (d.rows() == 0) return {};
  stride = std::max<std::uint64_t>(stride, 1);
  const Handle set(H5Oopen_by_addr(file_.get(), d.address), H5Oclose);
  if (!set.ok()) throw ResultError(path_, d.path, "cannot be read");
  const std::uint64_t columns = d.columns(), strided = (d.rows() - 1) / stride + 1;
  const bool last_apart = (d.rows() - 1) % stride != 0;
  std::vector<double> values(static_cast<std::size_t>((strided + (last_apart ? 1 : 0)) * columns));
  if (d.claimed_values() <= kWholeRead) {  // small: read whole, a plain read being the cheapest
    std::vector<double> all(static_cast<std::size_t>(d.claimed_values()));
    if (H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, all.data()) < 0)
      throw ResultError(path_, d.path, "cannot be read");
    const auto copy_row = [&](std::uint64_t row, std::uint64_t to) {
      std::copy_n(all.begin() + static_cast<std::ptrdiff_t>(row * columns), columns, values.begin() + static_cast<std::ptrdiff_t>(to * columns));
    };
    for (std::uint64_t k = 0; k < strided; ++k) copy_row(k * stride, k);
    if (last_apart) copy_row(d.rows() - 1, strided);
    return values;
  }
  // Two regular selections (the strided rows, then the last), each read on its own: HDF5
  // reads a regular hyperslab directly, a union of two through a tree of spans.
  const Handle space(H5Dget_space(set.get()), H5Sclose);
  if (!space.ok()) throw ResultError(path_, d.path, "cannot be read");
  const auto read_rows = [&](hsize_t first, hsize_t step, hsize_t count, double* into) {
    std::vector<hsize_t> start(d.dims.size(), 0), steps(d.dims.size(), 1), counts = d.dims;
    start[0] = first, steps[0] = step, counts[0] = count;
    const hsize_t memory_dims[2] = {count, columns};
    const Handle memory(H5Screate_simple(2, memory_dims, nullptr), H5Sclose);
    if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start.data(), steps.data(), counts.data(), nullptr) < 0 ||
        H5Dread(set.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT, into) < 0)
      throw ResultError(path_, d.path, "cannot be read");
  };
  read_rows(0, stride, strided, values.data());
  if (last_apart) read_rows(d.rows() - 1, 1, 1, values.data() + strided * columns);
  return values;
}

TextAttribute ResultFile::attribute(const std::string& object, const char* name, std::size_t max_bytes) {
  if (object == "/") return text_attribute(file_.get(), name, max_bytes, attribute_bytes_);
  const ResultDataset* d = find(object);
  if (d == nullptr) return {};
  for (const auto& [label, value] : {std::pair{"units", &d->units}, {"columns", &d->columns_text}, {"description", &d->description}})
    if (std::strcmp(name, label) == 0 && (value->state != TextAttribute::State::text || value->text.size() <= max_bytes)) return *value;
  const Handle opened(H5Oopen_by_addr(file_.get(), d->address), H5Oclose);
  return opened.ok() ? text_attribute(opened.get(), name, max_bytes, attribute_bytes_) : TextAttribute{};
}

}  // namespace uwsim::app
