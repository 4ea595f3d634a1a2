// Result files as a hostile sender would craft them, written with the HDF5 C API (no code of
// sim's writer): datasets of any shape and claim, external and soft links, virtual datasets,
// datasets stored in other files, string attributes.
#pragma once

#include <doctest/doctest.h>
#include <hdf5.h>

#include <string>
#include <vector>

namespace uwsim::test {

class CraftedFile {
 public:
  explicit CraftedFile(const std::string& path) : file_(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) {
    REQUIRE(file_ >= 0);
    lcpl_ = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl_, 1);
  }
  CraftedFile(const CraftedFile&) = delete;
  CraftedFile& operator=(const CraftedFile&) = delete;
  ~CraftedFile() {
    H5Pclose(lcpl_);
    H5Fclose(file_);
  }
  hid_t id() const { return file_; }

  // rows × columns doubles (columns 0: one-dimensional), row by row; deflated if `compress`.
  void dataset(const std::string& path, hsize_t rows, hsize_t columns, const std::vector<double>& values, bool compress = false) {
    const hsize_t dims[2] = {rows, columns};
    const hid_t space = H5Screate_simple(columns == 0 ? 1 : 2, dims, nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (compress) {
      const hsize_t chunk[2] = {rows > 0 ? rows : 1, columns > 0 ? columns : 1};
      H5Pset_chunk(dcpl, columns == 0 ? 1 : 2, chunk);
      H5Pset_deflate(dcpl, 6);
    }
    const hid_t set = H5Dcreate2(file_, path.c_str(), H5T_NATIVE_DOUBLE, space, lcpl_, dcpl, H5P_DEFAULT);
    REQUIRE(set >= 0);
    if (!values.empty()) REQUIRE(H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
    H5Dclose(set);
    H5Pclose(dcpl);
    H5Sclose(space);
  }
  void series(const std::string& path, const std::vector<double>& values) { dataset(path, values.size(), 0, values); }

  // A one-dimensional dataset claiming `rows` rows and holding none (contiguous, allocated
  // late: the file stays a few kB), or, compressed, chunked with no chunk written.
  void claim(const std::string& path, hsize_t rows, bool compressed = false) {
    const hsize_t maximum = H5S_UNLIMITED;
    const hid_t space = H5Screate_simple(1, &rows, compressed ? &maximum : nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (compressed) {
      const hsize_t chunk = 1024;
      H5Pset_chunk(dcpl, 1, &chunk);
      H5Pset_deflate(dcpl, 6);
    }
    const hid_t set = H5Dcreate2(file_, path.c_str(), H5T_NATIVE_DOUBLE, space, lcpl_, dcpl, H5P_DEFAULT);
    REQUIRE(set >= 0);
    H5Dclose(set);
    H5Pclose(dcpl);
    H5Sclose(space);
  }

  void external_link(const std::string& path, const std::string& file, const std::string& object) {
    REQUIRE(H5Lcreate_external(file.c_str(), object.c_str(), file_, path.c_str(), lcpl_, H5P_DEFAULT) >= 0);
  }
  void soft_link(const std::string& path, const std::string& target) {
    REQUIRE(H5Lcreate_soft(target.c_str(), file_, path.c_str(), lcpl_, H5P_DEFAULT) >= 0);
  }

  // `rows` doubles that are the dataset `source` of the file `source_file`.
  void virtual_dataset(const std::string& path, hsize_t rows, const std::string& source_file, const std::string& source) {
    const hid_t space = H5Screate_simple(1, &rows, nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    REQUIRE(H5Pset_virtual(dcpl, space, source_file.c_str(), source.c_str(), space) >= 0);
    const hid_t set = H5Dcreate2(file_, path.c_str(), H5T_NATIVE_DOUBLE, space, lcpl_, dcpl, H5P_DEFAULT);
    REQUIRE(set >= 0);
    H5Dclose(set);
    H5Pclose(dcpl);
    H5Sclose(space);
  }

  // `rows` doubles stored in the raw file `raw_file` (HDF5 "external storage").
  void external_storage(const std::string& path, hsize_t rows, const std::string& raw_file) {
    const hid_t space = H5Screate_simple(1, &rows, nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    REQUIRE(H5Pset_external(dcpl, raw_file.c_str(), 0, rows * sizeof(double)) >= 0);
    const hid_t set = H5Dcreate2(file_, path.c_str(), H5T_NATIVE_DOUBLE, space, lcpl_, dcpl, H5P_DEFAULT);
    REQUIRE(set >= 0);
    H5Dclose(set);
    H5Pclose(dcpl);
    H5Sclose(space);
  }

  // A variable-length UTF-8 string attribute of `object` ("/" or a dataset), as sim writes them.
  void text(const std::string& object, const std::string& name, const std::string& value) {
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t holder = H5Oopen(file_, object.c_str(), H5P_DEFAULT);
    REQUIRE(holder >= 0);
    const hid_t attribute = H5Acreate2(holder, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
    const char* data = value.c_str();
    REQUIRE(H5Awrite(attribute, type, &data) >= 0);
    H5Aclose(attribute);
    H5Oclose(holder);
    H5Sclose(space);
    H5Tclose(type);
  }

 private:
  hid_t file_;
  hid_t lcpl_ = -1;
};

// 0, dt, 2 dt, …
inline std::vector<double> ramp(std::size_t n, double dt = 0.1, double offset = 0.0) {
  std::vector<double> t(n);
  for (std::size_t k = 0; k < n; ++k) t[k] = offset + dt * static_cast<double>(k);
  return t;
}

}  // namespace uwsim::test
