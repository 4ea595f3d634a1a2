// The `thrusters` section, joints' `actuator`, and the channel references of forces.
#include <algorithm>
#include <cmath>
#include <map>

#include "actuation/t200.h"
#include "scenario/actuation_sections.h"

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

void read_direction(Reader& r, Mapping& m, actuation::ThrusterParameters& t) {
  const Field direction = m.get("direction");
  const Field angles = m.get("angles");
  if (direction.present() && angles.present()) {
    const Field& later = after(angles.key.Mark(), direction.key.Mark()) ? angles : direction;
    r.error(later, "give the thrust axis as 'direction' or as 'angles', not both");
    return;
  }
  if (direction.present()) {
    if (auto d = r.numbers(direction, 3, Sign::any, "")) {
      if (d->norm() < 1e-9)
        r.error(direction, "expected a nonzero direction (norm at least 1e-9)");
      else
        t.axis_B = d->normalized();
    }
  } else if (angles.present()) {
    Mapping a(r, angles, {"alpha", "beta"});
    double alpha = 0.0, beta = 0.0;
    a.read("alpha", alpha, Sign::any, "rad", true);
    a.read("beta", beta, Sign::any, "rad", true);
    t.axis_B = actuation::direction_from_angles(alpha, beta);
  }
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

// `t200: {voltage: V}`: Blue Robotics' sheets at V (actuation/t200.h).
void read_t200(Reader& r, const Field& f, actuation::ThrusterParameters& t) {
  Mapping m(r, f, {"voltage"});
  if (!m.ok()) return;
  const Field voltage = m.require("voltage");
  const auto v = r.number(voltage, Sign::positive, "V");
  if (!v) return;
  if (*v < actuation::kT200MinVoltage || *v > actuation::kT200MaxVoltage) {
    r.error(voltage, "expected a supply voltage from 10 to 20 V (the T200 sheets' range; between two "
                     "sheets the thrust is interpolated), got " + to_text(*v) + " V");
    return;
  }
  t.thrust_table = actuation::t200_thrust_table(*v);
}

void read_shaft_speed(Reader& r, const Field& f, actuation::ThrusterParameters& t) {
  Mapping m(r, f, {"power_law", "neutral", "dead_band", "table"});
  if (!m.ok()) return;
  const Field law = m.get("power_law"), table = m.get("table");
  if (law.present() == table.present()) {
    r.error(f, "expected the shaft speed map as 'power_law' (eq. 39, with 'neutral' and "
               "'dead_band') or as 'table' rows [command, rad/s], exactly one");
    return;
  }
  if (table.present()) {
    for (const char* key : {"neutral", "dead_band"})
      if (m.has(key)) r.error(m.get(key), "goes with 'power_law', not with 'table'");
    if (auto rows = read_rows(r, table, 2, "command", "shaft speed (rad/s)")) t.speed_table = *rows;
    t.speed_from_table = true;
    return;
  }
  Mapping p(r, law, {"a", "b", "c"});
  p.read("a", t.power_law.a, Sign::any, "rad/s", true);
  p.read("b", t.power_law.b, Sign::any, "", true);
  p.read("c", t.power_law.c, Sign::any, "rad/s", true);
  m.read("neutral", t.power_law.neutral, Sign::any, "", true);
  m.read("dead_band", t.power_law.dead_band, Sign::non_negative, "");
  if (t.power_law.neutral + t.power_law.dead_band <= 0.0 && t.power_law.b != 0.0)
    r.error(m.get("neutral"), "expected neutral + dead_band > 0: the power law a·u^(−b) needs u > 0");
}

void read_propeller(Reader& r, const Field& f, actuation::ThrusterParameters& t) {
  Mapping m(r, f, {"thrust_coefficient", "advance_coefficient", "shaft_speed"});
  if (!m.ok()) return;
  m.read("thrust_coefficient", t.thrust_coefficient, Sign::any, "N/(rad/s)^2", true);
  m.read("advance_coefficient", t.advance_coefficient, Sign::any, "N/((rad/s)(m/s))");
  const Field speed = m.require("shaft_speed");
  if (speed.present()) read_shaft_speed(r, speed, t);
}

ThrusterSpec read_thruster(Reader& r, const Field& item, const std::vector<std::string>& bodies,
                           const std::vector<std::string>& channels,
                           std::map<std::string, std::string>& names) {
  ThrusterSpec spec;
  actuation::ThrusterParameters& t = spec.thruster;
  Mapping m(r, item, {"name", "body", "position", "direction", "angles", "input", "command_limits",
                      "model", "gain", "table", "t200", "propeller", "time_constant", "max_thrust",
                      "reaction_torque"});
  if (!m.ok()) return spec;
  const Field name = m.require("name");
  if (auto s = r.string(name); s && check_name_text(r, name, *s)) {
    if (auto [it, fresh] = names.emplace(*s, item.path); !fresh)
      r.error(name, "duplicate thruster name '" + *s + "' (also " + it->second + ")");
    else
      t.name = *s;
  }
  const Field body = m.require("body");
  if (auto s = r.string(body)) {
    if (std::find(bodies.begin(), bodies.end(), *s) != bodies.end()) {
      spec.body = *s;
    } else {
      std::string message = "no body named '" + *s + "'";
      if (auto guess = closest_match(*s, bodies)) message += "; did you mean '" + *guess + "'?";
      r.error(body, message);
    }
  }
  m.read("position", t.p_BoT_B, Sign::any, "m");
  read_direction(r, m, t);
  if (auto c = read_command(r, m.require("input"), channels)) spec.input = *c;
  const Field limits = m.get("command_limits");
  if (auto l = r.numbers(limits, 2, Sign::any, "")) {
    if ((*l)[0] >= (*l)[1])
      r.error(limits, "expected [min, max] with min < max, got [" + to_text((*l)[0]) + ", " + to_text((*l)[1]) + "]");
    else
      t.command_min = (*l)[0], t.command_max = (*l)[1];
  }
  const auto model = r.choice(m.require("model"), {"linear", "table", "propeller"});
  if (model) t.model = static_cast<ThrusterModel>(*model);
  // Each model's own key: required with it, an error with the others.
  const char* own[] = {"gain", "table", "propeller"};
  const Field t200 = m.get("t200");
  if (model && *model == 1 && t200.present() && m.has("table"))
    r.error(t200, "give the thrust as 'table' rows or as 't200' sheets, not both");
  else if (model && *model != 1 && t200.present())
    r.error(t200, "applies to model 'table' only");
  for (std::size_t k = 0; model && k < 3; ++k) {
    const Field f = m.get(own[k]);
    if (k == 1 && *model == 1 && t200.present()) continue;  // the table comes from the sheets
    if (k == *model && !f.present())
      r.report(item.value.Mark(), item.path, item.path + ": missing required key '" + own[k] + (k == 1 ? "' (or 't200')" : "'") + " for model '" + m.get("model").value.Scalar() + "'");
    else if (k != *model && f.present())
      r.error(f, std::string("applies to model '") + (k == 0 ? "linear" : k == 1 ? "table" : "propeller") + "' only");
  }
  if (model && *model == 0) m.read("gain", t.gain, Sign::any, "N per command unit");
  if (model && *model == 1 && m.has("table") && !t200.present()) read_thrust_table(r, m.get("table"), t);
  if (model && *model == 1 && t200.present() && !m.has("table")) read_t200(r, t200, t);
  if (model && *model == 2 && m.has("propeller")) read_propeller(r, m.get("propeller"), t);
  m.read("time_constant", t.time_constant, Sign::non_negative, "s");
  m.read("max_thrust", t.max_thrust, Sign::positive, "N");
  m.read("reaction_torque", t.reaction_torque, Sign::any, "N m/N");
  return spec;
}

}  // namespace

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
