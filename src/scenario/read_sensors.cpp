// The `sensors` section: what the vehicle's instruments would read (sensors/sensor.h), each
// mounted on a body at a pose, with its own rate, latency, noise and seed. One table of the keys
// every sensor has, one per kind for its parameters, one per measured quantity for the error
// model of noise.h; names are checked against the bodies, joints, thrusters and connectors read
// before, and what only the built model can check (model::sensor_spec_problems) is reported at
// the key it is about.
#include <algorithm>
#include <cstdint>
#include <map>

#include "dynamics/sensor_set.h"
#include "model/build_sensors.h"
#include "scenario/sections.h"
#include "scenario/tables.h"
#include "spatial/rotation.h"

namespace uwsim::scenario {

using sensors::NoiseParameters;
using sensors::SensorKind;
using sensors::SensorParameters;

namespace {

// The units of the error model's parameters (noise.h) for a quantity measured in `q`.
struct NoiseUnits {
  std::string q, density, walk;
};

NoiseUnits noise_units(std::string_view q) {
  const std::string u(q);
  return {u, u + "/√Hz", u + "/√s"};
}

Table<NoiseParameters> make_noise_table(std::string_view what, const NoiseUnits& u) {
  return make_table<NoiseParameters>(
      what,
      {number("noise_density", &NoiseParameters::noise_density, Sign::non_negative, u.density,
              "White noise density N, as datasheets give it (the 'random walk' coefficient of IEEE 952); per sample "
              "σ = N·√rate"),
       number("bias", &NoiseParameters::bias, Sign::any, u.q, "Constant offset (turn-on bias)"),
       number("bias_random_walk", &NoiseParameters::bias_random_walk, Sign::non_negative, u.walk,
              "Bias random walk density K: the bias walks by K·√Δt between measurements Δt apart"),
       number("scale_factor_error", &NoiseParameters::scale_factor_error, Sign::any, "",
              "Scale factor error e: reads (1 + e)·x (a datasheet's ppm × 1e-6); greater than -1"),
       number("range", &NoiseParameters::range, Sign::positive, u.q, "Saturation: readings clamp to ±range. Absent: none"),
       number("resolution", &NoiseParameters::resolution, Sign::non_negative, u.q,
              "Quantisation step: readings round to a multiple of it; 0 means none")},
      {}, true);
}

// One table per measured quantity, for its units.
enum Quantity { accel, gyro, pressure_q, velocity_q, position_q, attitude_q, field_q, heading_q, speed_q, force_q, torque_q };

template <Quantity Q>
const Table<NoiseParameters>& noise_table() {
  static const NoiseUnits units = [] {
    constexpr std::string_view q[] = {"m/s²", "rad/s", "Pa", "m/s", "m", "rad", "T", "rad", "rpm", "N", "N m"};
    return noise_units(q[Q]);
  }();
  static const auto table = make_noise_table(
      "The error model of each axis (noise.h): y = Q(sat((1 + e)·x + b + β + N·√rate·n)), β the bias walk. Absent: exact",
      units);
  return table;
}

// A sub-table row for the noise of one quantity, read into `member` of the kind's parameters.
template <class S, Quantity Q>
Row<S> noise(std::string_view key, NoiseParameters S::*member, std::string_view doc) {
  return sub_table<S, NoiseParameters>(key, member, &noise_table<Q>, doc);
}

// An attitude given as roll, pitch, yaw into a rotation matrix (S → B).
void read_rpy(Reader& r, const Field& f, SensorParameters& p) {
  if (auto a = r.numbers(f, 3, Sign::any, "rad")) p.R_BS = spatial::rotation_from_euler_zyx(*a);
}

void read_quaternion_pose(Reader& r, const Field& f, SensorParameters& p) {
  if (auto q = read_quaternion(r, f)) p.R_BS = spatial::rotation_from_quaternion(spatial::Quat(q->w(), q->x(), q->y(), q->z()));
}

// A whole number 0 … 2^64 − 1, as its digits (a double would round above 2^53).
void read_seed(Reader& r, const Field& f, SensorParameters& p) {
  const std::string expected = "expected a whole number from 0 to 18446744073709551615";
  if (!f.value.IsScalar()) {
    r.error(f, expected + ", got " + describe_value(f.value));
    return;
  }
  const std::string& text = f.value.Scalar();
  std::uint64_t seed = 0;
  bool ok = !text.empty() && text.size() <= 20;
  for (char c : text) {
    if (!ok) break;
    if (c < '0' || c > '9') {
      ok = false;
      break;
    }
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (seed > (UINT64_MAX - digit) / 10) ok = false;
    else seed = seed * 10 + digit;
  }
  if (!ok) {
    r.error(f, expected + ", got " + describe_value(f.value));
    return;
  }
  p.seed = seed;
}

constexpr std::string_view kNameSchema = R"({"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[^/]+$"})";

}  // namespace

// An absent seed: the sensor's name hashed by FNV-1a (64 bit; Fowler, Noll, Vo, IETF draft
// "The FNV Non-Cryptographic Hash Algorithm", offset basis 14695981039346656037, prime
// 1099511628211), so that two sensors never share a noise stream by default and reordering the
// list changes no sensor's noise.
std::uint64_t default_sensor_seed(const std::string& name) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : name) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

const Table<SensorParameters>& sensor_table() {
  static const auto table = make_table<SensorParameters>(
      "A sensor: what it measures at its frame S, mounted on a body at `position` with axes `rpy` or `quaternion`; "
      "written to /sensors/NAME/ beside the truth (README \"Sensors\"). Keys besides these are its type's",
      {by_hand<SensorParameters>("name", "Unique sensor name: the output group /sensors/NAME", kNameSchema).needed(),
       by_hand<SensorParameters>(
           "type",
           "imu: specific force and angular rate; pressure: pressure and depth; dvl: velocity over ground and altitude; "
           "pose: motion capture / USBL position and attitude of a marker; magnetometer: the Earth's field; heading: "
           "yaw; encoder: a joint's position in counts; thruster_speed: a propeller's rpm; wrench: a connector's "
           "force and moment",
           R"({"type": "string", "enum": ["imu", "pressure", "dvl", "pose", "magnetometer", "heading", "encoder", "thruster_speed", "wrench"]})")
           .needed(),
       by_hand<SensorParameters>("body",
                                 "The body carrying the sensor. An encoder, thruster_speed or wrench sensor may leave it "
                                 "out: the joint's child, the thruster's body, the connector's first body",
                                 R"({"type": "string", "minLength": 1})"),
       vector("position", &SensorParameters::p_BoS_B, Sign::any, "m",
              "Origin of the sensor frame S from the body origin, body frame (m): the point it measures at"),
       custom<SensorParameters>("rpy", "Axes of S as [roll, pitch, yaw] (rad, ZYX) relative to the body's: R_BS",
                                R"({"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3, "default": [0.0, 0.0, 0.0]})",
                                read_rpy),
       custom<SensorParameters>("quaternion", "Axes of S as a unit quaternion [w, x, y, z], S → body; norm 1 within 1e-6",
                                R"({"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4, "default": [1.0, 0.0, 0.0, 0.0]})",
                                read_quaternion_pose),
       number("rate", &SensorParameters::rate, Sign::positive, "Hz",
              "Measurements per second (Hz); best a divisor of simulation.output_rate, else it measures on the output grid. "
              "Absent: simulation.output_rate")
           .no_default(),
       number("latency", &SensorParameters::latency, Sign::non_negative, "s",
              "Time from a measurement to its output (s): the written series is the measured one delayed by exactly this"),
       custom<SensorParameters>("seed", "Seed of the sensor's own noise stream: the same seed, the same noise. Absent: a hash of the name",
                                R"({"type": "integer", "minimum": 0, "maximum": 18446744073709551615})", read_seed)},
      {{"the sensor's axes", {"rpy", "quaternion"}}});
  return table;
}

const Table<sensors::ImuParameters>& imu_table() {
  using P = sensors::ImuParameters;
  static const auto table = make_table<P>(
      "An IMU: accelerometer (specific force f = R_BSᵀ(a − R_WBᵀg), gravity included, as a real one reads) and gyroscope",
      {noise<P, accel>("accelerometer", &P::accelerometer, "The accelerometer's error model, each axis (m/s²)"),
       noise<P, gyro>("gyroscope", &P::gyroscope, "The gyroscope's error model, each axis (rad/s)")});
  return table;
}

const Table<sensors::PressureParameters>& pressure_table() {
  using P = sensors::PressureParameters;
  static const auto table = make_table<P>(
      "A pressure sensor: p = p_atm + ρ g z at its point, and the depth it infers with its own ρ",
      {noise<P, pressure_q>("pressure", &P::pressure, "The pressure's error model (Pa); `resolution` is the sensor's step"),
       number("atmospheric_pressure", &P::atmospheric_pressure, Sign::non_negative, "Pa",
              "Added to the water column, and taken off again for depth (Pa)"),
       number("water_density", &P::water_density, Sign::positive, "kg/m³",
              "The density the sensor assumes to turn pressure into depth (kg/m³). Absent: environment.water_density")
           .no_default()});
  return table;
}

const Table<sensors::DvlParameters>& dvl_table() {
  using P = sensors::DvlParameters;
  static const auto table = make_table<P>(
      "A Doppler velocity log: velocity of its point over ground in its frame, altitude over a flat seabed",
      {noise<P, velocity_q>("velocity", &P::velocity, "The velocity's error model, each axis of S (m/s)"),
       number("seabed_depth", &P::seabed_depth, Sign::any, "m",
              "A flat seabed at this NED depth (m). Absent: none, and the DVL always has bottom lock")
           .no_default(),
       number("min_altitude", &P::min_altitude, Sign::non_negative, "m", "Bottom lock from this altitude (m)"),
       number("max_altitude", &P::max_altitude, Sign::non_negative, "m",
              "Bottom lock up to this altitude (m); above it velocity and altitude are NaN. Absent: no limit")});
  return table;
}

const Table<sensors::PoseParameters>& pose_table() {
  using P = sensors::PoseParameters;
  static const auto table = make_table<P>(
      "Motion capture or USBL: the position of its point (a marker) in NED and the attitude q_WS",
      {noise<P, position_q>("position_noise", &P::position, "The position's error model, each NED axis (m)"),
       noise<P, attitude_q>("attitude_noise", &P::attitude,
                            "The attitude's error model: a small rotation about each axis of S (rad)")});
  return table;
}

const Table<sensors::MagnetometerParameters>& magnetometer_table() {
  using P = sensors::MagnetometerParameters;
  static const auto table = make_table<P>(
      "A magnetometer: a constant Earth field, in its frame",
      {noise<P, field_q>("field", &P::field, "The field's error model, each axis of S (T)"),
       vector("earth_field", &P::field_W, Sign::any, "T", "The Earth's field in NED (T), e.g. from a WMM table")});
  return table;
}

const Table<sensors::HeadingParameters>& heading_table() {
  using P = sensors::HeadingParameters;
  static const auto table = make_table<P>(
      "A heading sensor (compass): the yaw of its frame, wrapped to (−π, π] after the noise",
      {noise<P, heading_q>("heading", &P::heading, "The heading's error model (rad)")});
  return table;
}

const Table<sensors::EncoderParameters>& encoder_table() {
  using P = sensors::EncoderParameters;
  static const auto table = make_table<P>(
      "A joint encoder: the joint's position in whole counts",
      {by_hand<P>("joint", "The joint it reads", R"({"type": "string", "minLength": 1})").needed(),
       number("counts_per_turn", &P::counts_per_turn, Sign::positive, "", "Counts per revolution, for a revolute joint")
           .no_default(),
       number("counts_per_metre", &P::counts_per_metre, Sign::positive, "1/m", "Counts per metre, for a prismatic joint")
           .no_default()});
  return table;
}

const Table<sensors::ThrusterSpeedParameters>& thruster_speed_table() {
  using P = sensors::ThrusterSpeedParameters;
  static const auto table = make_table<P>(
      "A propeller's shaft speed (a propeller thruster's only)",
      {by_hand<P>("thruster", "The thruster it reads", R"({"type": "string", "minLength": 1})").needed(),
       noise<P, speed_q>("speed", &P::speed, "The speed's error model (rpm)")});
  return table;
}

const Table<sensors::WrenchParameters>& wrench_table() {
  using P = sensors::WrenchParameters;
  static const auto table = make_table<P>(
      "A force/torque sensor at a connector: the force and moment it applies to its first body, at S, in S",
      {by_hand<P>("connector", "The connector it reads", R"({"type": "string", "minLength": 1})").needed(),
       noise<P, force_q>("force", &P::force, "The force's error model, each axis of S (N)"),
       noise<P, torque_q>("torque", &P::torque, "The moment's error model, each axis of S (N m)")});
  return table;
}

const std::vector<SensorKindTable>& sensor_kind_tables() {
  static const std::vector<SensorKindTable> kinds = {
      {"imu", SensorKind::imu, imu_table().describe},
      {"pressure", SensorKind::pressure, pressure_table().describe},
      {"dvl", SensorKind::dvl, dvl_table().describe},
      {"pose", SensorKind::pose, pose_table().describe},
      {"magnetometer", SensorKind::magnetometer, magnetometer_table().describe},
      {"heading", SensorKind::heading, heading_table().describe},
      {"encoder", SensorKind::encoder, encoder_table().describe, "joint"},
      {"thruster_speed", SensorKind::thruster_speed, thruster_speed_table().describe, "thruster"},
      {"wrench", SensorKind::wrench, wrench_table().describe, "connector"}};
  return kinds;
}

namespace {

std::vector<std::string> keys_of(const TableInfo& t) {
  std::vector<std::string> out;
  for (const KeyInfo& k : t.keys) out.emplace_back(k.key);
  return out;
}

// The names a sensor may refer to.
struct Known {
  std::vector<std::string> bodies, joints, thrusters, connectors;
};

// "no joint named 'x'; did you mean 'y'? (joints: 'a', 'b')"
std::string unknown_name(const std::string& what, const std::string& name, const std::vector<std::string>& known) {
  std::string message = "no " + what + " named '" + name + "'";
  if (auto guess = closest_match(name, known)) message += "; did you mean '" + *guess + "'?";
  message += " (" + what + "s: " + (known.empty() ? std::string("none") : quoted_names(known)) + ")";
  return message;
}

// Reads a name at `f` that must be one of `known`.
void read_reference(Reader& r, const Field& f, const std::string& what, const std::vector<std::string>& known,
                    std::string& out) {
  if (!f.present()) return;
  auto s = r.string(f);
  if (!s) return;
  if (std::find(known.begin(), known.end(), *s) == known.end()) r.error(f, unknown_name(what, *s, known));
  else out = *s;
}

// Where each sensor was written, for the checks only the model can make.
struct SensorSource {
  Field item;
  bool read = false;  // its type was known and its keys read
};

model::SensorSpec read_sensor(Reader& r, const Field& item, const Known& known, double output_rate,
                              std::map<std::string, std::string>& names, SensorSource& source) {
  model::SensorSpec spec;
  SensorParameters& p = spec.parameters;
  source.item = item;
  const std::vector<SensorKindTable>& kinds = sensor_kind_tables();
  const std::vector<std::string> common = keys_of(sensor_table().describe);
  // The type first: it decides which keys the mapping may hold.
  const SensorKindTable* kind = nullptr;
  if (item.value.IsMap()) {
    if (const YAML::Node t = item.value["type"]; t && t.IsScalar())
      for (const SensorKindTable& k : kinds)
        if (t.Scalar() == k.word) kind = &k;
  }
  std::vector<std::string> allowed = common;
  std::vector<std::string> others;  // keys of another type, reported below
  if (kind) {
    for (const std::string& k : keys_of(kind->table)) allowed.push_back(k);
    for (auto it = item.value.begin(); it != item.value.end(); ++it) {
      if (!it->first.IsScalar()) continue;
      const std::string key = it->first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
      for (const SensorKindTable& k : kinds) {
        const std::vector<std::string> theirs = keys_of(k.table);
        if (std::find(theirs.begin(), theirs.end(), key) == theirs.end()) continue;
        const Field f{it->first, it->second, join_path(item.path, key)};
        r.error(f, "'" + key + "' is a key of " + std::string(k.word) + " sensors, not of " + std::string(kind->word) +
                       " (a " + std::string(kind->word) + " sensor takes " + quoted_names(keys_of(kind->table)) + ")");
        others.push_back(key);
        break;
      }
    }
  } else {
    // An unknown type is reported at `type`; every type's keys are let through unread.
    for (const SensorKindTable& k : kinds)
      for (const std::string& key : keys_of(k.table))
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) allowed.push_back(key);
  }
  allowed.insert(allowed.end(), others.begin(), others.end());
  Mapping m(r, item, allowed);
  if (!m.ok()) return spec;
  const Field name = m.require("name");
  if (auto s = r.string(name); s && check_name_text(r, name, *s)) {
    if (s->find('/') != std::string::npos)
      r.error(name, "expected a name without '/' (it names the group /sensors/" + *s + "), got '" + *s + "'");
    else if (auto [it, fresh] = names.emplace(*s, item.path); !fresh)
      r.error(name, "duplicate sensor name '" + *s + "' (also " + it->second + ")");
    else
      p.name = *s;
  }
  std::vector<std::string> words;
  for (const SensorKindTable& k : kinds) words.emplace_back(k.word);
  const Field type = m.require("type");
  if (type.present()) r.choice(type, words);  // reports a bad type; `kind` holds a good one
  read_rows(r, m, item, sensor_table(), p);
  if (!m.has("seed")) p.seed = default_sensor_seed(p.name);
  if (!m.has("rate")) p.rate = output_rate;
  if (!kind) return spec;
  p.kind = kind->kind;
  source.read = true;
  switch (p.kind) {
    case SensorKind::imu: read_rows(r, m, item, imu_table(), p.imu); break;
    case SensorKind::pressure: read_rows(r, m, item, pressure_table(), p.pressure); break;
    case SensorKind::dvl: read_rows(r, m, item, dvl_table(), p.dvl); break;
    case SensorKind::pose: read_rows(r, m, item, pose_table(), p.pose); break;
    case SensorKind::magnetometer: read_rows(r, m, item, magnetometer_table(), p.magnetometer); break;
    case SensorKind::heading: read_rows(r, m, item, heading_table(), p.heading); break;
    case SensorKind::encoder: read_rows(r, m, item, encoder_table(), p.encoder); break;
    case SensorKind::thruster_speed: read_rows(r, m, item, thruster_speed_table(), p.thruster_speed); break;
    case SensorKind::wrench: read_rows(r, m, item, wrench_table(), p.wrench); break;
  }
  if (const Field body = m.get("body"); body.present()) {
    if (auto b = r.string(body)) {
      if (std::find(known.bodies.begin(), known.bodies.end(), *b) == known.bodies.end())
        r.error(body, unknown_body(*b, known.bodies, false));
      else
        spec.body = *b;
    }
  }
  if (kind->target.empty() && !m.has("body"))
    r.error(item, "missing required key 'body' (the body that carries the " + std::string(kind->word) + ")");
  if (p.kind == SensorKind::encoder) read_reference(r, m.require("joint"), "joint", known.joints, spec.target);
  if (p.kind == SensorKind::thruster_speed)
    read_reference(r, m.require("thruster"), "thruster", known.thrusters, spec.target);
  if (p.kind == SensorKind::wrench) read_reference(r, m.require("connector"), "connector", known.connectors, spec.target);
  return spec;
}

// The field a problem of model::sensor_problems is about ("accelerometer.noise_density: …",
// "orientation: …"): the key it names within `item`, else the item.
Field problem_field(const Field& item, const std::string& message) {
  const std::size_t colon = message.find(": ");
  if (colon == std::string::npos) return item;
  std::string path = message.substr(0, colon);
  if (path == "orientation") path = item.value["quaternion"] ? "quaternion" : "rpy";
  if (path == "field_W") path = "earth_field";
  Field at = item;
  for (std::size_t begin = 0; begin <= path.size();) {
    std::size_t end = path.find('.', begin);
    if (end == std::string::npos) end = path.size();
    const std::string key = path.substr(begin, end - begin);
    if (!at.value.IsMap() || !at.value[key]) break;
    YAML::Node key_node;
    for (auto it = at.value.begin(); it != at.value.end(); ++it)
      if (it->first.IsScalar() && it->first.Scalar() == key) key_node = it->first;
    at = Field{key_node, at.value[key], join_path(at.path, key)};
    begin = end + 1;
  }
  return at;
}

}  // namespace

std::vector<model::SensorSpec> read_sensors(Reader& reader, const Field& field, const Scenario& scenario) {
  std::vector<model::SensorSpec> out;
  if (absent(field)) return out;
  auto items = reader.sequence(field);
  if (!items) return out;
  Known known;
  for (const BodySpec& b : scenario.bodies) known.bodies.push_back(b.name);
  for (const JointSpec& j : scenario.joints) known.joints.push_back(j.name);
  for (const ThrusterSpec& t : scenario.thrusters) known.thrusters.push_back(t.thruster.name);
  for (const ConnectorSpec& c : scenario.connectors) known.connectors.push_back(c.name);
  std::map<std::string, std::string> names;
  std::vector<SensorSource> sources(items->size());
  for (std::size_t i = 0; i < items->size(); ++i) out.push_back(read_sensor(reader, (*items)[i], known, scenario.simulation.output_rate, names, sources[i]));
  // What the model must check (a fixed joint, a thruster without a shaft, a body that is not
  // the joint's, ranges across keys), where the file wrote it; only on an otherwise sound file,
  // which the model builder's preconditions ask for.
  if (!reader.diagnostics().empty()) return out;
  model::Spec spec = scenario;
  spec.sensors = out;
  for (const model::SensorProblem& p : model::sensor_spec_problems(spec)) {
    // At the key the message names ("rate: …" at rate), else at the sensor, key and all.
    const std::size_t colon = p.message.find(": ");
    const Field at = problem_field(sources[p.sensor].item, p.message);
    reader.error(at, colon == std::string::npos || at.path == sources[p.sensor].item.path ? p.message
                                                                                        : p.message.substr(colon + 2));
  }
  // dynamics/sensor_set.h: a rate that does not divide the output rate measures on the output grid.
  const double output_rate = scenario.simulation.output_rate;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double rate = out[i].parameters.rate;
    if (dynamics::rate_divides(output_rate, rate)) continue;
    const Field rate_field = problem_field(sources[i].item, "rate: ");
    if (rate > output_rate)
      reader.warn(rate_field, to_text(rate) + " Hz is faster than simulation.output_rate (" + to_text(output_rate) +
                                  " Hz): the sensor measures once per output sample, at " + to_text(output_rate) + " Hz");
    else
      reader.warn(rate_field, to_text(rate) + " Hz does not divide simulation.output_rate (" + to_text(output_rate) +
                                  " Hz): the sensor measures at the first output sample after each of its ticks, up to " +
                                  to_text(1.0 / output_rate) + " s late (choose output_rate / k, or an output_rate a multiple of " +
                                  to_text(rate) + ")");
  }
  return out;
}

}  // namespace uwsim::scenario
