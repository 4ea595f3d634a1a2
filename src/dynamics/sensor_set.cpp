// References: sensors/measurement.h (the ideal readings), sensors/noise.h (the error model).
#include "dynamics/sensor_set.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sensors/measurement.h"
#include "spatial/rotation.h"

namespace uwsim::dynamics {

using sensors::Reading;
using sensors::SensorKind;

namespace {

double time_tolerance(double t) { return 1e-12 * std::max(1.0, std::abs(t)); }

void put(Reading& r, int offset, const Vec3& v) {
  for (int i = 0; i < 3; ++i) r[static_cast<std::size_t>(offset + i)] = v[i];
}

}  // namespace

bool rate_divides(double output_rate, double rate) {
  const double ratio = output_rate / rate;
  return ratio >= 1.0 - 1e-9 && std::abs(ratio - std::round(ratio)) <= 1e-9 * ratio;
}

Reading true_reading(const Model& model, const sensors::Sensor& sensor, const double* x, const Workspace& ws) {
  const sensors::SensorParameters& p = sensor.parameters;
  Reading r;
  r.fill(0.0);
  const BodyState& s = ws.bodies[static_cast<std::size_t>(sensor.body)];
  const Mat3& R_WB = s.motion.R_WB;
  const Vec3 w_WB_B = spatial::angular(s.motion.V_WB_B), v_WBo_B = spatial::linear(s.motion.V_WB_B);
  const Vec3& p_BoS_B = p.p_BoS_B;
  const Vec3 p_WS_W = s.X_WB.p + R_WB * p_BoS_B;
  const double g = model.environment.gravity;
  switch (p.kind) {
    case SensorKind::imu: {
      const Vec3 a_WS_B = sensors::point_acceleration(w_WB_B, v_WBo_B, spatial::angular(s.A_WB_B), spatial::linear(s.A_WB_B), p_BoS_B);
      put(r, 0, sensors::specific_force(R_WB, p.R_BS, a_WS_B, g));
      put(r, 3, p.R_BS.transpose() * w_WB_B);
      break;
    }
    case SensorKind::pressure: {
      const double rho_sensor = p.pressure.water_density;
      const double pressure = sensors::hydrostatic_pressure(p_WS_W.z(), model.environment.water_density, g,
                                                            p.pressure.atmospheric_pressure);
      r[0] = pressure;
      r[1] = sensors::depth_from_pressure(pressure, rho_sensor, g, p.pressure.atmospheric_pressure);
      break;
    }
    case SensorKind::dvl: {
      put(r, 0, p.R_BS.transpose() * sensors::point_velocity(w_WB_B, v_WBo_B, p_BoS_B));
      const double altitude = p.dvl.seabed_depth - p_WS_W.z();  // NaN without a seabed
      r[3] = altitude;
      r[4] = std::isnan(altitude) || (altitude >= p.dvl.min_altitude && altitude <= p.dvl.max_altitude) ? 1.0 : 0.0;
      break;
    }
    case SensorKind::pose: {
      put(r, 0, p_WS_W);
      const spatial::Quat q_WS = spatial::quaternion_from_rotation(R_WB * p.R_BS);
      for (int i = 0; i < 4; ++i) r[static_cast<std::size_t>(3 + i)] = q_WS[i];
      break;
    }
    case SensorKind::magnetometer:
      put(r, 0, (R_WB * p.R_BS).transpose() * p.magnetometer.field_W);
      break;
    case SensorKind::heading:
      r[0] = spatial::euler_zyx_from_rotation(R_WB * p.R_BS).z();
      break;
    case SensorKind::encoder: {
      const Body& body = model.bodies[static_cast<std::size_t>(sensor.target)];
      const double q = x[body.q_offset];
      const double counts_per_unit = body.joint.type == JointType::revolute ? p.encoder.counts_per_turn / (2.0 * M_PI)
                                                                             : p.encoder.counts_per_metre;
      const double count = sensors::encoder_count(q, counts_per_unit);
      r[0] = count / counts_per_unit;
      r[1] = count;
      break;
    }
    case SensorKind::thruster_speed:
      r[0] = ws.thrusters[static_cast<std::size_t>(sensor.target)].shaft_speed * 60.0 / (2.0 * M_PI);
      break;
    case SensorKind::wrench: {
      // About Bo in B (connector_solver.h), moved to S: n_S = n_Bo − r × f, then into S's axes.
      const Vec6& F_Bo_B = ws.connectors.wrench_on_first(static_cast<std::size_t>(sensor.target));
      const Vec3 f = spatial::linear(F_Bo_B);
      const Vec3 n = spatial::angular(F_Bo_B) - p_BoS_B.cross(f);
      put(r, 0, p.R_BS.transpose() * f);
      put(r, 3, p.R_BS.transpose() * n);
      break;
    }
  }
  return r;
}

SensorSet::SensorSet(const Model& model) : model_(model) {
  states_.reserve(model.sensors.size());
  for (const sensors::Sensor& s : model.sensors)
    states_.push_back(State{sensors::Random(s.parameters.seed), {}, sensors::ReadingDelay(s.parameters.latency, s.parameters.rate)});
  for (const Controller& c : model.controllers) {
    const Feedback& f = c.feedback;
    for (int i : {f.depth, f.position, f.attitude, f.imu, f.heading, f.angular_rate, f.velocity})
      if (i >= 0) states_[static_cast<std::size_t>(i)].fed = true;
  }
}

Reading SensorSet::measure(const sensors::Sensor& sensor, State& state, double t, const double* x, const Workspace& ws) {
  const sensors::SensorParameters& p = sensor.parameters;
  Reading r = true_reading(model_, sensor, x, ws);
  const double interval = 1.0 / p.rate;
  const double elapsed = state.measured ? t - state.last_time : 0.0;
  sensors::Random& random = state.random;
  // Axis k of the reading through noise.h (1) with parameters n.
  const auto noisy = [&](int k, const sensors::NoiseParameters& n) {
    auto& value = r[static_cast<std::size_t>(k)];
    value = state.axes[static_cast<std::size_t>(k)].measure(value, n, interval, elapsed, random);
  };
  switch (p.kind) {
    case SensorKind::imu:
      for (int k = 0; k < 3; ++k) noisy(k, p.imu.accelerometer);
      for (int k = 3; k < 6; ++k) noisy(k, p.imu.gyroscope);
      break;
    case SensorKind::pressure: {
      noisy(0, p.pressure.pressure);
      r[1] = sensors::depth_from_pressure(r[0], p.pressure.water_density, model_.environment.gravity,
                                          p.pressure.atmospheric_pressure);
      break;
    }
    case SensorKind::dvl:
      for (int k = 0; k < 3; ++k) noisy(k, p.dvl.velocity);
      if (r[4] == 0.0) r[0] = r[1] = r[2] = r[3] = std::numeric_limits<double>::quiet_NaN();
      break;
    case SensorKind::pose: {
      for (int k = 0; k < 3; ++k) noisy(k, p.pose.position);
      Vec3 dtheta;
      for (int k = 0; k < 3; ++k)
        dtheta[k] = state.axes[static_cast<std::size_t>(3 + k)].measure(0.0, p.pose.attitude, interval, elapsed, random);
      const spatial::Quat q_WS(r[3], r[4], r[5], r[6]);
      spatial::Quat q = spatial::quaternion_product(q_WS, spatial::quaternion_from_rotation_vector(dtheta));
      if (q.dot(state.last_q_WS) < 0.0) q = -q;  // a continuous series, as the bodies' (output/recorder.h)
      state.last_q_WS = q;
      for (int k = 0; k < 4; ++k) r[static_cast<std::size_t>(3 + k)] = q[k];
      break;
    }
    case SensorKind::magnetometer:
      for (int k = 0; k < 3; ++k) noisy(k, p.magnetometer.field);
      break;
    case SensorKind::heading:
      noisy(0, p.heading.heading);
      r[0] = sensors::wrap_angle(r[0]);
      break;
    case SensorKind::encoder:
      break;  // quantised by its counts, noise-free
    case SensorKind::thruster_speed:
      noisy(0, p.thruster_speed.speed);
      break;
    case SensorKind::wrench:
      for (int k = 0; k < 3; ++k) noisy(k, p.wrench.force);
      for (int k = 3; k < 6; ++k) noisy(k, p.wrench.torque);
      break;
  }
  return r;
}

bool SensorSet::due(std::size_t i, double t) const {
  return t >= static_cast<double>(states_[i].next_tick) / model_.sensors[i].parameters.rate - time_tolerance(t);
}

void SensorSet::take(std::size_t i, double t, const double* x, const Workspace& ws) {
  const sensors::Sensor& sensor = model_.sensors[i];
  State& state = states_[i];
  state.delay.push(t, measure(sensor, state, t, x, ws));
  state.measured = true;
  state.last_time = t;
  state.next_tick = static_cast<long>(std::floor((t + time_tolerance(t)) * sensor.parameters.rate)) + 1;
}

void SensorSet::sample(double t, const double* x, const Workspace& ws) {
  const double tolerance = time_tolerance(t);
  for (std::size_t i = 0; i < states_.size(); ++i) {
    if (due(i, t)) take(i, t, x, ws);
    states_[i].delay.release(t, tolerance);
  }
}

void SensorSet::write(Workspace& ws, double t) {
  const double tolerance = time_tolerance(t);
  for (std::size_t i = 0; i < states_.size(); ++i) {
    states_[i].delay.release(t, tolerance);
    ws.sensors[i] = states_[i].delay.held();
    ws.sensor_feedback[i] = states_[i].delay.held_or_first();
  }
}

void SensorSet::sample_outputs(double t, const double* x, Workspace& ws) {
  for (std::size_t i = 0; i < states_.size(); ++i)
    if (!states_[i].fed && due(i, t)) take(i, t, x, ws);
  write(ws, t);
}

void SensorSet::sample_feedback(double t, const double* x, Workspace& ws) {
  for (std::size_t i = 0; i < states_.size(); ++i)
    if (states_[i].fed && due(i, t)) take(i, t, x, ws);
  write(ws, t);
}

double SensorSet::next_feedback_tick() const {
  double t = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < states_.size(); ++i)
    if (states_[i].fed) t = std::min(t, static_cast<double>(states_[i].next_tick) / model_.sensors[i].parameters.rate);
  return t;
}

}  // namespace uwsim::dynamics
