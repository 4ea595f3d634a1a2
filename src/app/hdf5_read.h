// Small helpers for reading HDF5 files that may be odd, half-written or not sim's at all
// (`sim describe`, `sim replay`, and the result files `sim compare` and `sim identify` read).
#pragma once

#include <hdf5.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace uwsim::app {

// Owns one HDF5 id; every early return below must close what it opened.
class Handle {
 public:
  Handle(hid_t id, herr_t (*closer)(hid_t)) : id_(id), closer_(closer) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (id_ >= 0) closer_(id_);
  }
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*closer_)(hid_t);
};

// HDF5 prints an error stack for every failed call, and odd files make many calls fail on
// purpose here. Restore the previous handler afterwards: the caller may want it back.
class SilenceHdf5Errors {
 public:
  SilenceHdf5Errors() {
    H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  SilenceHdf5Errors(const SilenceHdf5Errors&) = delete;
  SilenceHdf5Errors& operator=(const SilenceHdf5Errors&) = delete;
  ~SilenceHdf5Errors() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

// A scalar string attribute; nullopt if absent, "?" if present but not a readable string.
inline std::optional<std::string> string_attribute(hid_t object, const char* name) {
  if (H5Aexists(object, name) <= 0) return std::nullopt;
  const Handle attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  if (!attribute.ok()) return "?";
  const Handle type(H5Aget_type(attribute.get()), H5Tclose);
  const Handle space(H5Aget_space(attribute.get()), H5Sclose);
  if (!type.ok() || !space.ok() || H5Tget_class(type.get()) != H5T_STRING ||
      H5Sget_simple_extent_npoints(space.get()) != 1)
    return "?";
  // Reading with the file's own string type sidesteps charset conversions HDF5 refuses.
  if (H5Tis_variable_str(type.get()) > 0) {
    char* value = nullptr;
    if (H5Aread(attribute.get(), type.get(), &value) < 0) return "?";
    std::string result = value != nullptr ? value : "";
    H5free_memory(value);
    return result;
  }
  const std::size_t size = H5Tget_size(type.get());
  if (size == 0) return "?";
  std::string buffer(size, '\0');
  if (H5Aread(attribute.get(), type.get(), buffer.data()) < 0) return "?";
  buffer.resize(strnlen(buffer.c_str(), size));
  return buffer;
}

// A whole 1-D or 2-D dataset of numbers with `columns` columns (1 for a 1-D one), read as
// doubles, row by row; nullopt if it is absent, of another shape or longer than `max_rows`.
inline std::optional<std::vector<double>> read_table(hid_t file, const std::string& path, hsize_t columns,
                                                     hsize_t max_rows) {
  if (H5Lexists(file, path.c_str(), H5P_DEFAULT) <= 0) return std::nullopt;
  const Handle dataset(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dataset.ok()) return std::nullopt;
  const Handle space(H5Dget_space(dataset.get()), H5Sclose);
  hsize_t dims[2] = {0, 1};
  const int rank = space.ok() ? H5Sget_simple_extent_ndims(space.get()) : -1;
  if (rank < 1 || rank > 2 || H5Sget_simple_extent_dims(space.get(), dims, nullptr) < 0) return std::nullopt;
  if (rank == 1) dims[1] = 1;
  if (dims[1] != columns || dims[0] > max_rows) return std::nullopt;
  std::vector<double> values(dims[0] * columns);
  if (dims[0] > 0 && H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
    return std::nullopt;
  return values;
}

}  // namespace uwsim::app
