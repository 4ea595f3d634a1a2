// The `thrusters` section, joints' `actuator`, and the channel references of forces.
#include <algorithm>
#include <cmath>
#include <map>

#include "actuation/t200.h"
#include "scenario/actuation_sections.h"
#include "scenario/tables.h"

namespace uwsim::scenario {

using actuation::ThrusterModel;

namespace {

bool looks_like_number(const Field& f) {
  if (!f.value.IsScalar() || f.value.Tag() == "!") return false;
  const std::string& s = f.value.Scalar();
  return !s.empty() && s.find_first_of("0123456789+-.") == 0;
}

std::string unknown_channel(const std::string& name, const std::vector<std::string>& channels) {
  std::string message = "no input channel named '" + name + "'";
  if (auto guess = closest_match(name, channels)) message += "; did you mean '" + *guess + "'?";
  else if (channels.empty()) message += " (the scenario has no 'inputs')";
  return message;
}

bool check_channel(Reader& r, const Field& f, const std::vector<std::string>& channels) {
  if (!f.present() || looks_like_number(f) || !f.value.IsScalar()) return true;
  if (std::find(channels.begin(), channels.end(), f.value.Scalar()) != channels.end()) return true;
  r.error(f, unknown_channel(f.value.Scalar(), channels));
  return false;
}

void read_thrust_table(Reader& r, const Field& f, actuation::ThrusterParameters& t) {
  Mapping m(r, f, {"forward", "reverse"});
  if (!m.ok()) return;
  const Field forward = m.get("forward"), reverse = m.get("reverse");
  if (!forward.present() && !reverse.present()) {
    r.error(f, "expected 'forward' and/or 'reverse' rows [command, N]");
    return;
  }
  const auto fwd = forward.present() ? read_rows(r, forward, 1, "command", "thrust (N)") : std::nullopt;
  const auto rev = reverse.present() ? read_rows(r, reverse, 1, "command", "thrust (N)") : std::nullopt;
  if ((forward.present() && !fwd) || (reverse.present() && !rev)) return;
  auto check_sign = [&](const Field& at, const inputs::Table& table, double sign, const char* what) {
    for (std::size_t k = 0; k < table.y.size(); ++k) {
      if (sign * table.y[k] >= 0.0) continue;
      r.error(Field(YAML::Node(YAML::NodeType::Undefined), at.value[k], index_path(at.path, k)),
              std::string("expected ") + what + ", got " + to_text(table.y[k]) + " N");
      return false;
    }
    return true;
  };
  bool ok = true;
  if (fwd) ok = check_sign(forward, *fwd, 1.0, "a forward thrust ≥ 0") && ok;
  if (rev) ok = check_sign(reverse, *rev, -1.0, "a reverse thrust ≤ 0") && ok;
  if (fwd && rev && rev->x.back() >= fwd->x.front()) {
    r.error(reverse, "expected every reverse command below the first forward command (" +
                         to_text(fwd->x.front()) + "), got " + to_text(rev->x.back()));
    ok = false;
  }
  if (!ok) return;
  if (rev) t.thrust_table = *rev;
  if (fwd) {
    t.thrust_table.x.insert(t.thrust_table.x.end(), fwd->x.begin(), fwd->x.end());
    t.thrust_table.y.insert(t.thrust_table.y.end(), fwd->y.begin(), fwd->y.end());
  }
}

// The thrust axis as Nielsen et al. 2018 eq. 8's angles.
struct AxisAngles {
  double alpha = 0.0, beta = 0.0;
};

const Table<AxisAngles>& angles_table() {
  static const auto table = make_table<AxisAngles>(
      "The direction as Nielsen et al. eq. 8: [cos α cos β, −cos α sin β, sin α] (not with `direction`)",
      {number("alpha", &AxisAngles::alpha, Sign::any, "rad", "α").needed().no_default(),
       number("beta", &AxisAngles::beta, Sign::any, "rad", "β").needed().no_default()});
  return table;
}

// `t200: {voltage: V}`: Blue Robotics' sheets at V (actuation/t200.h).
const Table<actuation::ThrusterParameters>& t200_table() {
  static const auto table = make_table<actuation::ThrusterParameters>(
      "table (instead of `table`): Blue Robotics' T200 bollard thrust sheets (\"T200 Public Performance Data "
      "10-20V September 2019\", 1100-1900 µs), at a supply voltage from 10 to 20 V, interpolated linearly in "
      "voltage between the sheets (10, 12, 14, 16, 18, 20 V)",
      {custom<actuation::ThrusterParameters>(
           "voltage", "Supply voltage (V)", R"({"type": "number", "minimum": 10, "maximum": 20})",
           [](Reader& r, const Field& f, actuation::ThrusterParameters& t) {
             const auto v = r.number(f, Sign::positive, "V");
             if (!v) return;
             if (*v < actuation::kT200MinVoltage || *v > actuation::kT200MaxVoltage) {
               r.error(f, "expected a supply voltage from 10 to 20 V (the T200 sheets' range; between two "
                          "sheets the thrust is interpolated), got " + to_text(*v) + " V");
               return;
             }
             t.thrust_table = actuation::t200_thrust_table(*v);
           })
           .needed()});
  return table;
}

const Table<actuation::PowerLawSpeedMap>& power_law_table() {
  using actuation::PowerLawSpeedMap;
  static const auto table = make_table<PowerLawSpeedMap>(
      "ω = sign(u − neutral)·max(0, a·x^(−b) + c), x = neutral + |u − neutral| (eq. 39)",
      {number("a", &PowerLawSpeedMap::a, Sign::any, "rad/s", "a (rad/s per unit^(−b))").needed().no_default(),
       number("b", &PowerLawSpeedMap::b, Sign::any, "", "b (1)").needed().no_default(),
       number("c", &PowerLawSpeedMap::c, Sign::any, "rad/s", "c").needed().no_default()});
  return table;
}

const Table<actuation::ThrusterParameters>& shaft_speed_table() {
  using actuation::PowerLawSpeedMap;
  using actuation::ThrusterParameters;
  static const auto table = make_table<ThrusterParameters>(
      "ω = f(command) (eq. 14): power_law (eq. 39) with neutral and dead_band, or table",
      {sub_table("power_law", &ThrusterParameters::power_law, &power_law_table, ""),
       inside(&ThrusterParameters::power_law,
              number("neutral", &PowerLawSpeedMap::neutral, Sign::any, "", "power_law: the command of zero speed "
                                                                            "(e.g. 1500 µs)")
                  .no_default()),
       inside(&ThrusterParameters::power_law,
              number("dead_band", &PowerLawSpeedMap::dead_band, Sign::non_negative, "",
                     "power_law: |command − neutral| at or below this gives ω = 0")),
       custom<ThrusterParameters>(
           "table", "Rows [command, shaft speed (rad/s)], at least 2",
           R"({"type": "array", "minItems": 2, "items": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}})",
           [](Reader& r, const Field& f, ThrusterParameters& t) {
             if (auto rows = read_rows(r, f, 2, "command", "shaft speed (rad/s)")) t.speed_table = *rows;
             t.speed_from_table = true;
           })},
      {{"the shaft speed map", {"power_law", "table"}, true}});
  return table;
}

// A shaft_speed mapping: exactly one map, and the keys that go with it (the power law's
// neutral and dead band are read only with it).
void read_shaft_speed(Reader& r, const Field& f, actuation::ThrusterParameters& t) {
  const Table<actuation::ThrusterParameters>& table = shaft_speed_table();
  Mapping m(r, f, table.keys());
  if (!m.ok()) return;
  if (m.has("power_law") == m.has("table")) {
    r.error(f, "expected the shaft speed map as 'power_law' (eq. 39, with 'neutral' and "
               "'dead_band') or as 'table' rows [command, rad/s], exactly one");
    return;
  }
  if (m.has("table")) {
    for (const char* key : {"neutral", "dead_band"})
      if (m.has(key)) r.error(m.get(key), "goes with 'power_law', not with 'table'");
    table.row("table")->read(r, m.get("table"), t);
    return;
  }
  read_rows(r, m, f, table, t);
  if (!m.has("neutral")) {
    m.require("neutral");
    return;
  }
  if (t.power_law.neutral + t.power_law.dead_band <= 0.0 && t.power_law.b != 0.0)
    r.error(m.get("neutral"), "expected neutral + dead_band > 0: the power law a·u^(−b) needs u > 0");
}

const Table<actuation::ThrusterParameters>& propeller_table() {
  using actuation::ThrusterParameters;
  static const auto table = make_table<ThrusterParameters>(
      "propeller: τ = T_|ω|ω·|ω|ω + T_|ω|u·|ω|·u_a (eq. 12), u_a the water speed through the disc along the axis",
      {number("thrust_coefficient", &ThrusterParameters::thrust_coefficient, Sign::any, "N/(rad/s)²", "T_|ω|ω")
           .needed()
           .no_default(),
       number("advance_coefficient", &ThrusterParameters::advance_coefficient, Sign::any, "N/((rad/s)(m/s))",
              "T_|ω|u (N/((rad/s)(m/s))); negative: thrust drops with forward speed"),
       sub_table<ThrusterParameters, ThrusterParameters>("shaft_speed", "", &shaft_speed_table, read_shaft_speed)
           .needed()});
  return table;
}

constexpr std::string_view kThrustTableSchema =
    R"({"type": "object", "additionalProperties": false, "properties": {"forward": {"type": "array", "description": "Rows [command, thrust ≥ 0 (N)].", "minItems": 1, "items": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}}, "reverse": {"type": "array", "description": "Rows [command, thrust ≤ 0 (N)], below every forward command.", "minItems": 1, "items": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}}}})";

// The keys of a thruster. `name`, `body`, `input` and `model` (with the keys only one model
// takes) are read by read_thruster: a name checked against the others, a body against the bodies, a
// model's own key required with it and an error with the others.
const Table<ThrusterSpec>& thruster_table() {
  using actuation::ThrusterParameters;
  const auto params = &ThrusterSpec::thruster;
  static const auto table = make_table<ThrusterSpec>(
      "One thruster: a force along a fixed axis at a fixed point of a body",
      {by_hand<ThrusterSpec>("name", "Unique thruster name", R"({"type": "string", "minLength": 1})").needed(),
       by_hand<ThrusterSpec>("body", "The body it is mounted on", R"({"type": "string"})").needed(),
       inside(params, vector("position", &ThrusterParameters::p_BoT_B, Sign::any, "m",
                             "Where the thrust acts, from the body origin in the body frame (m)")),
       custom<ThrusterSpec>("direction", "Direction of positive thrust in the body frame (normalised; not with `angles`)",
                            R"({"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3})",
                            [](Reader& r, const Field& f, ThrusterSpec& s) {
                              if (auto d = r.numbers(f, 3, Sign::any, "")) {
                                if (d->norm() < 1e-9)
                                  r.error(f, "expected a nonzero direction (norm at least 1e-9)");
                                else
                                  s.thruster.axis_B = d->normalized();
                              }
                            })
           .with_default("[1.0, 0.0, 0.0]"),
       sub_table<ThrusterSpec, AxisAngles>("angles", "", &angles_table,
                                           [](Reader& r, const Field& f, ThrusterSpec& s) {
                                             AxisAngles a;
                                             const std::size_t before = r.diagnostics().size();
                                             read_table(r, f, angles_table(), a);
                                             if (r.diagnostics().size() == before)
                                               s.thruster.axis_B = actuation::direction_from_angles(a.alpha, a.beta);
                                           }),
       by_hand<ThrusterSpec>("input",
                             "The command: the name of an input channel (see `inputs`), or a constant number. Its "
                             "unit is whatever the receiver takes",
                             command_schema())
           .needed(),
       custom<ThrusterSpec>("command_limits", "[min, max]: the command is clamped to this range. Absent: unbounded",
                            R"({"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2})",
                            [](Reader& r, const Field& f, ThrusterSpec& s) {
                              if (auto l = r.numbers(f, 2, Sign::any, "")) {
                                if ((*l)[0] >= (*l)[1])
                                  r.error(f, "expected [min, max] with min < max, got [" + to_text((*l)[0]) + ", " +
                                                 to_text((*l)[1]) + "]");
                                else
                                  s.thruster.command_min = (*l)[0], s.thruster.command_max = (*l)[1];
                              }
                            }),
       by_hand<ThrusterSpec>("model",
                             "linear: thrust = gain·command; table: command → thrust piecewise linear (bollard "
                             "data); propeller: eq. 12 with the shaft speed from the command",
                             R"({"type": "string", "enum": ["linear", "table", "propeller"]})")
           .needed(),
       by_hand<ThrusterSpec>("gain", "linear: N per command unit", R"({"type": "number"})").with_default("1.0"),
       by_hand<ThrusterSpec>("table",
                             "table: rows [command, thrust (N)], reverse side (thrust ≤ 0) and forward side (thrust "
                             "≥ 0) apart; commands strictly increasing through both; end values hold outside",
                             kThrustTableSchema),
       sub_table<ThrusterSpec, ThrusterParameters>("t200", "", &t200_table, {}),
       sub_table<ThrusterSpec, ThrusterParameters>("propeller", "", &propeller_table, {}),
       inside(params, number("time_constant", &ThrusterParameters::time_constant, Sign::non_negative, "s",
                             "First-order spin-up time constant (s) of the shaft speed (propeller) or thrust (table, "
                             "linear); 0: none. With it the lagged value is a state")),
       inside(params, number("max_thrust", &ThrusterParameters::max_thrust, Sign::positive, "N",
                             "|thrust| ≤ this (N). Absent: unbounded")),
       inside(params, number("reaction_torque", &ThrusterParameters::reaction_torque, Sign::any, "N m/N",
                             "Propeller reaction torque about +direction per N of thrust (N m/N); its sign is the "
                             "propeller's handedness"))},
      {{"the thrust axis", {"direction", "angles"}}, {"the thrust", {"table", "t200"}}});
  return table;
}

ThrusterSpec read_thruster(Reader& r, const Field& item, const std::vector<std::string>& bodies,
                           const std::vector<std::string>& channels,
                           std::map<std::string, std::string>& names) {
  ThrusterSpec spec;
  actuation::ThrusterParameters& t = spec.thruster;
  Mapping m = read_table(r, item, thruster_table(), spec);
  if (!m.ok()) return spec;
  const Field name = m.get("name");
  if (auto s = r.string(name); s && check_name_text(r, name, *s)) {
    if (auto [it, fresh] = names.emplace(*s, item.path); !fresh)
      r.error(name, "duplicate thruster name '" + *s + "' (also " + it->second + ")");
    else
      t.name = *s;
  }
  const Field body = m.get("body");
  if (auto s = r.string(body)) {
    if (std::find(bodies.begin(), bodies.end(), *s) != bodies.end()) {
      spec.body = *s;
    } else {
      std::string message = "no body named '" + *s + "'";
      if (auto guess = closest_match(*s, bodies)) message += "; did you mean '" + *guess + "'?";
      r.error(body, message);
    }
  }
  if (auto c = read_command(r, m.get("input"), channels)) spec.input = *c;
  const Field model_field = m.get("model");
  const auto model = r.choice(model_field, {"linear", "table", "propeller"});
  if (model) t.model = static_cast<ThrusterModel>(*model);
  // Each model's own key: required with it, an error with the others (both table and t200:
  // reported by the table).
  const char* own[] = {"gain", "table", "propeller"};
  const bool t200 = m.has("t200");
  const bool both = t200 && m.has("table");  // reported by the table, once
  if (model && *model != 1 && t200 && !both) r.error(m.get("t200"), "applies to model 'table' only");
  for (std::size_t k = 0; model && k < 3; ++k) {
    const Field f = m.get(own[k]);
    if (k == 1 && ((*model == 1 && t200) || both)) continue;  // the table comes from the sheets
    if (k == *model && !f.present())
      r.report(item.value.Mark(), item.path, item.path + ": missing required key '" + own[k] + (k == 1 ? "' (or 't200')" : "'") + " for model '" + model_field.value.Scalar() + "'");
    else if (k != *model && f.present())
      r.error(f, std::string("applies to model '") + (k == 0 ? "linear" : k == 1 ? "table" : "propeller") + "' only");
  }
  if (model && *model == 0 && m.has("gain")) {
    if (auto g = r.number(m.get("gain"), Sign::any, "N per command unit")) t.gain = *g;
  }
  if (model && *model == 1 && m.has("table") && !t200) read_thrust_table(r, m.get("table"), t);
  if (model && *model == 1 && t200 && !m.has("table")) read_table(r, m.get("t200"), t200_table(), t);
  if (model && *model == 2 && m.has("propeller")) read_table(r, m.get("propeller"), propeller_table(), t);
  return spec;
}

}  // namespace

TableInfo thruster_info() { return thruster_table().describe; }

std::optional<CommandSpec> read_command(Reader& r, const Field& f, const std::vector<std::string>& channels) {
  if (!f.present()) return std::nullopt;
  CommandSpec c;
  if (looks_like_number(f)) {
    auto x = r.number(f, Sign::any, "");
    if (!x) return std::nullopt;
    c.constant = *x;
    return c;
  }
  auto s = r.string(f);
  if (!s) return std::nullopt;
  if (!check_channel(r, f, channels)) return std::nullopt;
  c.channel = *s;
  return c;
}

std::vector<ThrusterSpec> read_thrusters(Reader& reader, const Field& field,
                                         const std::vector<BodySpec>& bodies,
                                         const std::vector<std::string>& channels) {
  std::vector<ThrusterSpec> thrusters;
  if (absent(field)) return thrusters;
  auto items = reader.sequence(field);
  if (!items) return thrusters;
  std::vector<std::string> body_names;
  for (const auto& b : bodies)
    if (!b.name.empty()) body_names.push_back(b.name);
  std::map<std::string, std::string> names;
  for (const Field& item : *items) thrusters.push_back(read_thruster(reader, item, body_names, channels, names));
  return thrusters;
}

namespace {

// [Leborne2018] eq. 2: the motor and gearbox of gear_motor and linear_actuator.
void read_motor(Mapping& m, actuation::GearMotor& motor) {
  m.read("torque_constant", motor.torque_constant, Sign::any, "N m/A", true);
  m.read("gear_ratio", motor.gear_ratio, Sign::positive, "");
  m.read("rotor_inertia", motor.rotor_inertia, Sign::non_negative, "kg m^2");
  m.read("viscous_friction", motor.viscous_friction, Sign::non_negative, "N m s/rad");
  m.read("dry_friction", motor.dry_friction, Sign::non_negative, "N m");
}

// [Leborne2018] eq. 3–6: the ball screw and the lever; the lever must stay a triangle over the
// joint's range (0 < θ0 + q < π).
void read_lever(Reader& r, Mapping& m, const Field& f, JointSpec& joint) {
  actuation::LinearActuator& a = joint.actuator.linear;
  m.read("pitch", a.lever.pitch, Sign::positive, "m", true);
  m.read("l1", a.lever.l1, Sign::positive, "m", true);
  m.read("l2", a.lever.l2, Sign::positive, "m", true);
  m.read("angle_offset", a.lever.angle_offset, Sign::any, "rad");
  m.read("nut_mass", a.nut_mass, Sign::non_negative, "kg");
  m.read("screw_viscous_friction", a.screw_viscous_friction, Sign::non_negative, "N s/m");
  m.read("screw_dry_friction", a.screw_dry_friction, Sign::non_negative, "N");
  if (joint.type != JointType::revolute) {
    r.error(m.get("type"), "a linear_actuator turns a lever: it needs a revolute joint");
    return;
  }
  const double low = a.lever.angle_offset + joint.limits.lower;
  const double high = a.lever.angle_offset + joint.limits.upper;
  if (!(low > 0.0 && high < M_PI))
    r.error(f, "expected the joint's limits with 0 < angle_offset + q < π over the whole range (the "
               "lever angle θ of eq. 3–4, where the lever never folds flat), got θ in " +
               std::string("[") + to_text(low) + ", " + to_text(high) + "] rad; give limits.lower and limits.upper");
}

}  // namespace

void read_joint_actuator(Reader& r, const Field& f, JointSpec& joint) {
  if (absent(f)) return;
  Mapping m(r, f, {"type", "input", "torque_constant", "gear_ratio", "rotor_inertia", "viscous_friction",
                   "dry_friction", "pitch", "l1", "l2", "angle_offset", "nut_mass", "screw_viscous_friction",
                   "screw_dry_friction"});
  if (!m.ok()) return;
  const YAML::Mark at = f.value.Mark();
  joint.actuator.mark_pos = at.pos, joint.actuator.mark_line = at.line, joint.actuator.mark_column = at.column;
  joint.actuator.path = f.path;
  const auto kind = r.choice(m.require("type"), {"effort", "gear_motor", "linear_actuator"});
  if (kind) joint.actuator.kind = static_cast<actuation::JointActuatorKind>(*kind + 1);
  // Each type's own keys: errors with the others.
  static const std::vector<std::string> motor_keys = {"torque_constant", "gear_ratio", "rotor_inertia", "viscous_friction", "dry_friction"};
  static const std::vector<std::string> lever_keys = {"pitch", "l1", "l2", "angle_offset", "nut_mass", "screw_viscous_friction", "screw_dry_friction"};
  if (kind) {
    for (const auto& key : motor_keys)
      if (*kind == 0 && m.has(key)) r.error(m.get(key), "applies to types 'gear_motor' and 'linear_actuator' only");
    for (const auto& key : lever_keys)
      if (*kind != 2 && m.has(key)) r.error(m.get(key), "applies to type 'linear_actuator' only");
    if (*kind == 1) read_motor(m, joint.actuator.motor);
    if (*kind == 2) {
      read_motor(m, joint.actuator.linear.motor);
      read_lever(r, m, f, joint);
    }
  }
  // Channel names are checked once all joints are read (check_actuator_inputs). A motor may
  // leave out `input` when a pid drives it (checked with the controllers).
  const Field input = kind && *kind > 0 ? m.get("input") : m.require("input");
  if (!input.present()) return;
  joint.actuator.has_input = true;
  if (looks_like_number(input)) {
    if (auto x = r.number(input, Sign::any, "")) joint.actuator.input.constant = *x;
  } else if (auto s = r.string(input)) {
    joint.actuator.input.channel = *s;
  }
}

void check_actuator_inputs(Reader& r, const Field& joints, const Field& manipulators,
                           const std::vector<std::string>& channels) {
  auto check_joint = [&](const YAML::Node& joint, const std::string& path) {
    if (!joint.IsMap()) return;
    const YAML::Node actuator = joint["actuator"];
    if (!actuator.IsDefined() || !actuator.IsMap()) return;
    const YAML::Node input = actuator["input"];
    if (!input.IsDefined()) return;
    check_channel(r, Field(YAML::Node(YAML::NodeType::Undefined), input, join_path(join_path(path, "actuator"), "input")), channels);
  };
  if (!absent(joints) && joints.value.IsSequence()) {
    for (std::size_t i = 0; i < joints.value.size(); ++i) {
      const YAML::Node& list = joints.value;
      check_joint(list[i], index_path(joints.path, i));
    }
  }
  if (!absent(manipulators) && manipulators.value.IsSequence()) {
    const YAML::Node& arms = manipulators.value;
    for (std::size_t a = 0; a < arms.size(); ++a) {
      const YAML::Node arm = arms[a];
      if (!arm.IsMap()) continue;
      const YAML::Node links = arm["links"];
      if (!links.IsDefined() || !links.IsSequence()) continue;
      for (std::size_t k = 0; k < links.size(); ++k) {
        const YAML::Node link = links[k];
        if (link.IsMap())
          check_joint(link["joint"], join_path(index_path(join_path(index_path(manipulators.path, a), "links"), k), "joint"));
      }
    }
  }
}

void check_force_inputs(Reader& r, const Field& forces, const std::vector<std::string>& channels) {
  if (absent(forces) || !forces.value.IsSequence()) return;
  const YAML::Node& list = forces.value;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node item = list[i];
    if (!item.IsMap()) continue;
    const YAML::Node input = item["input"];
    if (!input.IsDefined()) continue;
    const Field f(YAML::Node(YAML::NodeType::Undefined), input, join_path(index_path(forces.path, i), "input"));
    if (looks_like_number(f) || !input.IsScalar())
      r.error(f, "expected the name of an input channel, got " + (input.IsScalar() ? "'" + input.Scalar() + "'" : std::string("a collection")));
    else
      check_channel(r, f, channels);
  }
}

}  // namespace uwsim::scenario
