// The recorder writes each sensor's output as /sensors/<name>/<quantity> (output/recorder.h):
// the values the sensor stage holds at each sample, with units, description, columns and the
// sensor's parameters as attributes, read back here through the HDF5 C API.
#include <doctest/doctest.h>

#include <hdf5.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "dynamics/sensor_set.h"
#include "output/hdf5_file.h"
#include "output/recorder.h"
#include "support/simulate.h"

using namespace uwsim;

namespace {

std::vector<double> read_values(hid_t file, const std::string& path, std::vector<hsize_t>& shape) {
  const hid_t ds = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  REQUIRE(ds >= 0);
  const hid_t space = H5Dget_space(ds);
  shape.assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)), 0);
  H5Sget_simple_extent_dims(space, shape.data(), nullptr);
  H5Sclose(space);
  std::size_t count = 1;
  for (hsize_t d : shape) count *= static_cast<std::size_t>(d);
  std::vector<double> values(count);
  REQUIRE(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
  H5Dclose(ds);
  return values;
}

std::string read_text(hid_t file, const std::string& object, const std::string& name) {
  const hid_t attribute = H5Aopen_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(attribute >= 0);
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  char* text = nullptr;
  REQUIRE(H5Aread(attribute, type, &text) >= 0);
  std::string value = text ? text : "";
  H5free_memory(text);
  H5Tclose(type);
  H5Aclose(attribute);
  return value;
}

// Every sample's readings of every sensor, from a SensorSet of its own beside the recorder.
class Both : public integrate::SampleSink {
 public:
  Both(const dynamics::Model& model, output::Hdf5File& file) : recorder_(model, file), sensors_(model) {}
  void on_sample(double t, const double* x, const double* xdot, const dynamics::Workspace& ws) override {
    recorder_.on_sample(t, x, xdot, ws);
    sensors_.sample(t, x, ws);
    readings.emplace_back();
    for (std::size_t i = 0; i < sensors_.size(); ++i) readings.back().push_back(sensors_.reading(i));
  }
  std::vector<std::vector<sensors::Reading>> readings;

 private:
  output::Recorder recorder_;
  dynamics::SensorSet sensors_;
};

}  // namespace

TEST_CASE("result file: each sensor's quantities under /sensors with units, columns and parameters") {
  model::BodySpec body = test::plain_body("rov");
  body.initial.p_WB_W = Eigen::Vector3d(0, 0, 3);
  body.initial.nu_B << 0.2, 0, 0.1, 0, 0, 0.5;
  scenario::Scenario s = test::scenario_with({body}, 0.5, 1e-3, 100.0);
  model::SensorSpec imu;
  imu.parameters.name = "imu";
  imu.parameters.kind = sensors::SensorKind::imu;
  imu.parameters.rate = 50.0;
  imu.parameters.latency = 0.02;
  imu.parameters.seed = 9;
  imu.parameters.imu.accelerometer.noise_density = 0.002;
  imu.body = "rov";
  model::SensorSpec depth = imu;
  depth.parameters.name = "depth";
  depth.parameters.kind = sensors::SensorKind::pressure;
  depth.parameters.pressure.pressure.noise_density = 5.0;
  s.sensors = {imu, depth};
  const dynamics::Model model = model::build_model(s);
  const std::string path = (std::filesystem::temp_directory_path() / "uwsim_sensor_series_test.h5").string();
  std::vector<std::vector<sensors::Reading>> readings;
  {
    output::Hdf5File file(path);
    Both sink(model, file);
    REQUIRE(integrate::run(model, scenario::integration_settings(s.simulation), sink).outcome == integrate::Outcome::completed);
    readings = sink.readings;
    file.close();
  }
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  std::vector<hsize_t> shape;
  const std::vector<double> f = read_values(file, "/sensors/imu/specific_force", shape);
  REQUIRE(shape == std::vector<hsize_t>{readings.size(), 3});
  const std::vector<double> w = read_values(file, "/sensors/imu/angular_rate", shape);
  const std::vector<double> p = read_values(file, "/sensors/depth/pressure", shape);
  REQUIRE(shape == std::vector<hsize_t>{readings.size()});
  const std::vector<double> z = read_values(file, "/sensors/depth/depth", shape);
  for (std::size_t k = 0; k < readings.size(); ++k) {
    for (std::size_t c = 0; c < 3; ++c) {
      CHECK(std::memcmp(&f[3 * k + c], &readings[k][0][c], sizeof(double)) == 0);
      CHECK(std::memcmp(&w[3 * k + c], &readings[k][0][3 + c], sizeof(double)) == 0);
    }
    CHECK(std::memcmp(&p[k], &readings[k][1][0], sizeof(double)) == 0);
    CHECK(std::memcmp(&z[k], &readings[k][1][1], sizeof(double)) == 0);
  }
  CHECK(std::isnan(f[0]));            // 20 ms latency: nothing out at t = 0 and 0.01
  CHECK(std::isfinite(f[3 * 2]));     // the reading of t = 0, out at 0.02
  CHECK(read_text(file, "/sensors/imu/specific_force", "units") == "m/s^2");
  CHECK(read_text(file, "/sensors/imu/specific_force", "columns") == "x,y,z");
  CHECK(read_text(file, "/sensors/imu/angular_rate", "units") == "rad/s");
  CHECK(read_text(file, "/sensors/imu/specific_force", "kind") == "imu");
  CHECK(read_text(file, "/sensors/imu/specific_force", "rate") == "50 Hz");
  CHECK(read_text(file, "/sensors/imu/specific_force", "latency") == "0.02 s");
  CHECK(read_text(file, "/sensors/imu/specific_force", "seed") == "9");
  CHECK(read_text(file, "/sensors/imu/specific_force", "p_BoS_B") == "[0, 0, 0] m");
  CHECK(read_text(file, "/sensors/imu/specific_force", "R_BS") == "[1, 0, 0; 0, 1, 0; 0, 0, 1] (rows)");
  CHECK(read_text(file, "/sensors/imu/angular_rate", "accelerometer_noise_density") == "0.002 m/s^2/sqrt(Hz)");
  CHECK(read_text(file, "/sensors/depth/pressure", "units") == "Pa");
  CHECK(read_text(file, "/sensors/depth/depth", "water_density") == "1000 kg/m^3");  // the environment's
  CHECK(read_text(file, "/sensors/depth/depth", "pressure_noise_density") == "5 Pa/sqrt(Hz)");
  H5Fclose(file);
  std::filesystem::remove(path);
  CHECK(output::Recorder::values_per_sample(model) > 3 + 3 + 1 + 1);
}

TEST_CASE("result file: a series' extra attributes are written after its own and may not reuse their names") {
  const std::string path = (std::filesystem::temp_directory_path() / "uwsim_series_attributes_test.h5").string();
  {
    output::Hdf5File file(path);
    const double row[2] = {1.0, 2.0};
    file.append(file.add_series("/a", 2, "m", "two", {"x", "y"}, {{"rate", "10 Hz"}, {"kind", "imu"}}), row);
    CHECK_THROWS_AS(file.add_series("/b", 1, "m", "b", {}, {{"units", "s"}}), output::OutputError);
    CHECK_THROWS_AS(file.add_series("/c", 1, "m", "c", {}, {{"rate", "1"}, {"rate", "2"}}), output::OutputError);
    CHECK_THROWS_AS(file.add_series("/d", 1, "m", "d", {}, {{"", "1"}}), output::OutputError);
    file.close();
  }
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  CHECK(read_text(file, "/a", "units") == "m");
  CHECK(read_text(file, "/a", "columns") == "x,y");
  CHECK(read_text(file, "/a", "rate") == "10 Hz");
  CHECK(read_text(file, "/a", "kind") == "imu");
  CHECK(H5Lexists(file, "/b", H5P_DEFAULT) == 0);
  H5Fclose(file);
  std::filesystem::remove(path);
}
