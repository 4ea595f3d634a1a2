#include "sensors/parameter_attributes.h"

#include <charconv>
#include <initializer_list>

#include "sensors/quantities.h"

namespace uwsim::sensors {

namespace {

// The shortest text that reads back as the same double (std::to_chars without a format).
std::string number(double x) {
  char text[32];
  const std::to_chars_result r = std::to_chars(text, text + sizeof text, x);
  return std::string(text, r.ptr);
}

// "[a, b, c]" then " units": appended piece by piece (GCC 12 warns, falsely, on "literal" +
// std::string&& at -O3: -Wrestrict).
std::string list_text(std::initializer_list<double> values, const char* separator_every_third, const char* units) {
  std::string text = "[";
  std::size_t i = 0;
  for (double v : values) {
    if (i > 0) text += i % 3 == 0 ? separator_every_third : ", ";
    text += number(v);
    ++i;
  }
  text += "] ";
  text += units;
  return text;
}

std::string vector_text(const spatial::Vec3& v, const char* units) { return list_text({v.x(), v.y(), v.z()}, ", ", units); }

struct Attributes {
  std::vector<std::pair<std::string, std::string>> list;
  void add(const std::string& name, double value, const std::string& units) {
    list.emplace_back(name, units.empty() ? number(value) : number(value) + " " + units);
  }
  // An axis model (noise.h) of quantity units q.
  void add_noise(const std::string& prefix, const NoiseParameters& n, const std::string& q) {
    add(prefix + "noise_density", n.noise_density, q + "/sqrt(Hz)");
    add(prefix + "bias", n.bias, q);
    add(prefix + "bias_random_walk", n.bias_random_walk, q + "/s/sqrt(Hz)");
    add(prefix + "scale_factor_error", n.scale_factor_error, "1");
    add(prefix + "range", n.range, q);
    add(prefix + "resolution", n.resolution, q);
  }
};

}  // namespace

std::vector<std::pair<std::string, std::string>> parameter_attributes(const SensorParameters& p) {
  Attributes a;
  a.list.emplace_back("kind", kind_name(p.kind));
  a.add("rate", p.rate, "Hz");
  a.add("latency", p.latency, "s");
  a.list.emplace_back("seed", std::to_string(p.seed));
  a.list.emplace_back("p_BoS_B", vector_text(p.p_BoS_B, "m"));
  const spatial::Mat3& R = p.R_BS;
  a.list.emplace_back("R_BS", list_text({R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1), R(2, 2)}, "; ",
                                        "(rows)"));
  switch (p.kind) {
    case SensorKind::imu:
      a.add_noise("accelerometer_", p.imu.accelerometer, "m/s^2");
      a.add_noise("gyroscope_", p.imu.gyroscope, "rad/s");
      break;
    case SensorKind::pressure:
      a.add_noise("pressure_", p.pressure.pressure, "Pa");
      a.add("atmospheric_pressure", p.pressure.atmospheric_pressure, "Pa");
      a.add("water_density", p.pressure.water_density, "kg/m^3");
      break;
    case SensorKind::dvl:
      a.add_noise("velocity_", p.dvl.velocity, "m/s");
      a.add("seabed_depth", p.dvl.seabed_depth, "m");
      a.add("min_altitude", p.dvl.min_altitude, "m");
      a.add("max_altitude", p.dvl.max_altitude, "m");
      break;
    case SensorKind::pose:
      a.add_noise("position_", p.pose.position, "m");
      a.add_noise("attitude_", p.pose.attitude, "rad");
      break;
    case SensorKind::magnetometer:
      a.add_noise("field_", p.magnetometer.field, "T");
      a.list.emplace_back("field_W", vector_text(p.magnetometer.field_W, "T"));
      break;
    case SensorKind::heading:
      a.add_noise("heading_", p.heading.heading, "rad");
      break;
    case SensorKind::encoder:
      if (p.encoder.counts_per_turn > 0.0) a.add("counts_per_turn", p.encoder.counts_per_turn, "1");
      if (p.encoder.counts_per_metre > 0.0) a.add("counts_per_metre", p.encoder.counts_per_metre, "1/m");
      break;
    case SensorKind::thruster_speed:
      a.add_noise("speed_", p.thruster_speed.speed, "rpm");
      break;
    case SensorKind::wrench:
      a.add_noise("force_", p.wrench.force, "N");
      a.add_noise("torque_", p.wrench.torque, "N m");
      break;
  }
  return a.list;
}

}  // namespace uwsim::sensors
