// What a sensor is, as plain parameters (SI; frames as in README "Frames": NED world W, body B
// x forward / y starboard / z down). Each sensor is mounted on a body at the pose of its own
// frame S: origin p_BoS_B, axes R_BS (S → B). It measures at `rate` (Hz), and what it measures
// reaches its output `latency` seconds later (dynamics/sensor_set.h: sampling and delay).
// `seed` starts its own random stream (sensors/random.h): the same seed, the same noise.
//
// The kinds and what each measures at its frame S (formulas in sensors/measurement.h):
//   imu             specific force f_S = R_BSᵀ(a_S − R_WBᵀ g_W) (m/s²) and angular rate ω_S (rad/s)
//   pressure        absolute pressure p_atm + ρ g z_S (Pa) and the depth the sensor infers (m)
//   dvl             velocity of S over ground in S (m/s), altitude over a flat seabed, validity
//   pose            motion capture / USBL: position of S (a marker) in NED (m), attitude q_WS
//   magnetometer    a constant Earth field in S (T)
//   heading         yaw of S (ZYX, rad)
//   encoder         a joint's position in whole counts (rad or m) and the count
//   thruster_speed  a propeller's shaft speed (rpm)
//   wrench          a connector's force and moment on its first body, at S, in S (N, N m)
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "sensors/noise.h"
#include "spatial/spatial.h"

namespace uwsim::sensors {

enum class SensorKind { imu, pressure, dvl, pose, magnetometer, heading, encoder, thruster_speed, wrench };

// The same axis model for the three axes of each triad (noise.h).
struct ImuParameters {
  NoiseParameters accelerometer;  // q = m/s²: noise density m/s²/√Hz, bias random walk m/s³/√Hz
  NoiseParameters gyroscope;      // q = rad/s: noise density rad/s/√Hz, bias random walk rad/s²/√Hz
};

struct PressureParameters {
  NoiseParameters pressure;              // q = Pa; `resolution` is the sensor's pressure step
  double atmospheric_pressure = 101325.0;  // Pa: added to the water column, and taken off again for depth
  // kg/m³ the sensor assumes to turn pressure into depth (a seawater setting in fresh water reads
  // deep); ≤ 0: the environment's (resolved when the model is built).
  double water_density = 0.0;
};

struct DvlParameters {
  NoiseParameters velocity;  // q = m/s, each axis of S
  // A flat seabed at this NED depth (m); NaN: none given, the DVL always has bottom lock.
  double seabed_depth = std::numeric_limits<double>::quiet_NaN();
  double min_altitude = 0.0;                                       // m
  double max_altitude = std::numeric_limits<double>::infinity();   // m: beyond it, no lock
};

struct PoseParameters {
  NoiseParameters position;  // q = m, each NED axis
  NoiseParameters attitude;  // q = rad, a small rotation about each axis of S: q_WS ⊗ exp(δθ)
};

struct MagnetometerParameters {
  NoiseParameters field;                 // q = T, each axis of S
  spatial::Vec3 field_W = spatial::Vec3::Zero();  // T, the Earth's field in NED (e.g. from a WMM table)
};

struct HeadingParameters {
  NoiseParameters heading;  // q = rad; the reading is wrapped to (−π, π] after the noise
};

struct EncoderParameters {
  double counts_per_turn = 0.0;   // revolute joint: counts per 2π rad
  double counts_per_metre = 0.0;  // prismatic joint: counts per metre
};

struct ThrusterSpeedParameters {
  NoiseParameters speed;  // q = rpm
};

struct WrenchParameters {
  NoiseParameters force;   // q = N, each axis of S
  NoiseParameters torque;  // q = N m, each axis of S
};

struct SensorParameters {
  std::string name;
  SensorKind kind = SensorKind::imu;
  spatial::Vec3 p_BoS_B = spatial::Vec3::Zero();      // m
  spatial::Mat3 R_BS = spatial::Mat3::Identity();     // S → B
  double rate = 100.0;      // Hz, > 0
  double latency = 0.0;     // s, ≥ 0
  std::uint64_t seed = 0;
  ImuParameters imu;
  PressureParameters pressure;
  DvlParameters dvl;
  PoseParameters pose;
  MagnetometerParameters magnetometer;
  HeadingParameters heading;
  EncoderParameters encoder;
  ThrusterSpeedParameters thruster_speed;
  WrenchParameters wrench;
};

// A sensor placed in a model: its parameters and what it is attached to, by index.
struct Sensor {
  SensorParameters parameters;
  int body = -1;    // the body carrying it (for encoder: the joint's child body; thruster_speed:
                    // the thruster's body; wrench: the connector's first body)
  int target = -1;  // encoder: the joint's child body; thruster_speed: the thruster;
                    // wrench: the connector; −1 otherwise
};

}  // namespace uwsim::sensors
