// What each kind of sensor writes: its quantities, their columns within the sensor's reading
// (dynamics/sensor_set.h), units and meaning. The result file holds each as
// /sensors/<name>/<quantity> (output/recorder.h).
#pragma once

#include <array>
#include <span>

#include "sensors/sensor.h"

namespace uwsim::sensors {

inline constexpr int kMaxReading = 7;  // the widest reading: pose (3 + 4)

struct Quantity {
  const char* name;
  int offset;   // first column within the reading
  int columns;
  const char* units;
  const char* description;
  std::array<const char*, kMaxReading> column_names;  // the first `columns` used; null: none
};

inline std::span<const Quantity> quantities(SensorKind kind) {
  static constexpr Quantity imu[] = {
      {"specific_force", 0, 3, "m/s^2", "accelerometer: specific force (acceleration of the sensor point less gravity) in the sensor frame", {"x", "y", "z"}},
      {"angular_rate", 3, 3, "rad/s", "gyroscope: angular velocity in the sensor frame", {"x", "y", "z"}}};
  static constexpr Quantity pressure[] = {
      {"pressure", 0, 1, "Pa", "absolute pressure at the sensor point", {}},
      {"depth", 1, 1, "m", "depth inferred from the pressure with the sensor's water density and atmospheric pressure", {}}};
  static constexpr Quantity dvl[] = {
      {"velocity", 0, 3, "m/s", "velocity of the sensor point over ground, sensor frame (NaN without bottom lock)", {"x", "y", "z"}},
      {"altitude", 3, 1, "m", "height of the sensor point above the seabed (NaN without a seabed or bottom lock)", {}},
      {"valid", 4, 1, "1", "bottom lock: 1 within the altitude range (or without a seabed), 0 outside", {}}};
  static constexpr Quantity pose[] = {
      {"position", 0, 3, "m", "position of the sensor point (marker) in the NED world frame", {"north", "east", "down"}},
      {"quaternion", 3, 4, "1", "attitude quaternion of the sensor frame, rotates sensor to NED", {"w", "x", "y", "z"}}};
  static constexpr Quantity magnetometer[] = {
      {"field", 0, 3, "T", "magnetic field in the sensor frame", {"x", "y", "z"}}};
  static constexpr Quantity heading[] = {
      {"heading", 0, 1, "rad", "yaw (ZYX) of the sensor frame, wrapped to (-pi, pi]", {}}};
  static constexpr Quantity encoder[] = {
      {"position", 0, 1, "rad or m", "joint position in whole encoder counts", {}},
      {"count", 1, 1, "1", "encoder count, floor(position x counts per unit)", {}}};
  static constexpr Quantity thruster_speed[] = {
      {"speed", 0, 1, "rpm", "propeller shaft speed", {}}};
  static constexpr Quantity wrench[] = {
      {"wrench", 0, 6, "N, N m", "force and moment the connector applies to its first body, about the sensor point, sensor frame",
       {"Fx", "Fy", "Fz", "Mx", "My", "Mz"}}};
  switch (kind) {
    case SensorKind::imu: return imu;
    case SensorKind::pressure: return pressure;
    case SensorKind::dvl: return dvl;
    case SensorKind::pose: return pose;
    case SensorKind::magnetometer: return magnetometer;
    case SensorKind::heading: return heading;
    case SensorKind::encoder: return encoder;
    case SensorKind::thruster_speed: return thruster_speed;
    case SensorKind::wrench: return wrench;
  }
  return {};
}

// Columns of a kind's reading.
inline int reading_size(SensorKind kind) {
  int n = 0;
  for (const Quantity& q : quantities(kind)) n += q.columns;
  return n;
}

inline const char* kind_name(SensorKind kind) {
  switch (kind) {
    case SensorKind::imu: return "imu";
    case SensorKind::pressure: return "pressure";
    case SensorKind::dvl: return "dvl";
    case SensorKind::pose: return "pose";
    case SensorKind::magnetometer: return "magnetometer";
    case SensorKind::heading: return "heading";
    case SensorKind::encoder: return "encoder";
    case SensorKind::thruster_speed: return "thruster_speed";
    case SensorKind::wrench: return "wrench";
  }
  return "";
}

}  // namespace uwsim::sensors
