// The `trim` block (README "Equilibria and linear models"): unknowns, steady, time.
#include <algorithm>

#include "scenario/tables.h"
#include "scenario/trim_sections.h"

namespace uwsim::scenario {

namespace {

std::string did_you_mean(const std::string& what, const std::string& name,
                         const std::vector<std::string>& known) {
  std::string message = "no " + what + " named '" + name + "'";
  if (auto guess = closest_match(name, known)) message += "; did you mean '" + *guess + "'?";
  return message;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The names of what each kind of variable may refer to.
struct Names {
  std::vector<std::string> bodies, free_bodies, joints, moving_joints, thrusters, lagged_thrusters, channels;

  explicit Names(const Scenario& s) {
    for (const BodySpec& b : s.bodies) {
      bodies.push_back(b.name);
      const bool jointed = std::any_of(s.joints.begin(), s.joints.end(),
                                       [&](const JointSpec& j) { return j.child == b.name; });
      if (!jointed) free_bodies.push_back(b.name);
    }
    for (const JointSpec& j : s.joints) {
      joints.push_back(j.name);
      if (j.type != JointType::fixed) moving_joints.push_back(j.name);
    }
    for (const ThrusterSpec& t : s.thrusters) {
      thrusters.push_back(t.thruster.name);
      if (t.thruster.time_constant > 0.0) lagged_thrusters.push_back(t.thruster.name);
    }
    for (const InputSpec& i : s.inputs) channels.push_back(i.channel.name);
  }
};

// Why `v` names nothing in the scenario, or "" if it does.
std::string check_item(const VariableRef& v, const Names& n, bool steady) {
  switch (v.kind) {
    case VariableKind::body:
      if (contains(n.free_bodies, v.item)) return "";
      if (contains(n.bodies, v.item))
        return "body '" + v.item + "' hangs from a joint: its pose and velocity are its joint's "
               "(use joints.<joint>.position)";
      return did_you_mean("body", v.item, n.bodies);
    case VariableKind::joint:
      if (contains(n.moving_joints, v.item)) return "";
      if (contains(n.joints, v.item)) return "joint '" + v.item + "' is fixed: it has no motion";
      return did_you_mean("joint", v.item, n.joints);
    case VariableKind::thruster:
      if (contains(n.lagged_thrusters, v.item)) return "";
      if (contains(n.thrusters, v.item))
        return "thruster '" + v.item + "' has no time_constant, so no spin-up state";
      return did_you_mean("thruster", v.item, n.thrusters);
    case VariableKind::input:
      if (steady) return "an input channel has no rate: it can be an unknown, not steady";
      if (contains(n.channels, v.item)) return "";
      return did_you_mean("input channel", v.item, n.channels);
  }
  return "";
}

std::vector<VariableRef> read_variables(Reader& r, const Field& field, const Names& names, bool steady) {
  std::vector<VariableRef> out;
  if (!field.present()) return out;
  auto items = r.sequence(field);
  if (!items) return out;
  for (const Field& item : *items) {
    auto text = r.string(item);
    if (!text) continue;
    std::string why;
    auto v = analysis::parse_variable(*text, why);
    if (!v) {
      r.error(item, why);
      continue;
    }
    if (const std::string problem = check_item(*v, names, steady); !problem.empty()) {
      r.error(item, problem);
    } else if (std::find(out.begin(), out.end(), *v) != out.end()) {
      r.error(item, "'" + *text + "' is listed twice");
    } else {
      out.push_back(*v);
    }
  }
  return out;
}

// What a variable is, for both lists: a macro, so that it joins the docs as literals (a row's doc
// is a string_view into static text).
#define UWSIM_TRIM_VARIABLE                                                                                        \
  " A variable: bodies.<free body>.{north,east,down} (m, NED), bodies.<free body>.{roll,pitch,yaw} (rad, ZYX), " \
  "bodies.<free body>.{u,v,w,p,q,r} (body frame), joints.<joint>.{position,velocity}, thrusters.<thruster with "  \
  "a time_constant>.state, or (unknowns only) inputs.<channel>"

// The block's keys; the lists are read by read_trim (each name is checked against the scenario).
const Table<TrimSpec>& trim_table() {
  static const auto table = make_table<TrimSpec>(
      "Equilibrium problem for `sim trim` and `sim linearize --trim`: the unknowns the solver varies, from the "
      "scenario's initial values, and the variables whose rates must vanish",
      {by_hand<TrimSpec>("unknowns", "Variables the solver varies (each once)." UWSIM_TRIM_VARIABLE,
                         R"({"type": "array", "minItems": 1, "items": {"type": "string", "pattern": "^((bodies|joints|thrusters)\\..+\\.[a-z]+|inputs\\..+)$", "maxLength": 300}})")
           .needed(),
       by_hand<TrimSpec>("steady",
                         "Variables whose time derivative must vanish (not inputs). Default: every free body's u, v, "
                         "w, p, q, r, roll and pitch, every joint's position and velocity, and every thruster "
                         "state." UWSIM_TRIM_VARIABLE,
                         R"({"type": "array", "minItems": 1, "items": {"type": "string", "pattern": "^(bodies|joints|thrusters)\\..+\\.[a-z]+$", "maxLength": 300}})"),
       number("time", &TrimSpec::time, Sign::non_negative, "s",
              "Time at which force schedules and input channels are evaluated (s)")},
      {}, true);
  return table;
}
#undef UWSIM_TRIM_VARIABLE

}  // namespace

TableInfo trim_info() { return trim_table().describe; }

TrimSpec read_trim(Reader& r, const Field& field, const Scenario& scenario) {
  TrimSpec trim;
  if (absent(field)) return trim;
  Mapping m = read_table(r, field, trim_table(), trim);
  if (!m.ok()) return trim;
  trim.given = true;
  const Names names(scenario);
  const Field unknowns = m.get("unknowns");
  trim.unknowns = read_variables(r, unknowns, names, false);
  if (unknowns.present() && unknowns.value.IsSequence() && unknowns.value.size() == 0)
    r.error(unknowns, "expected at least one unknown");
  const Field steady = m.get("steady");
  trim.steady = read_variables(r, steady, names, true);
  if (steady.present() && steady.value.IsSequence() && steady.value.size() == 0)
    r.error(steady, "expected at least one variable (leave 'steady' out for the default set)");
  return trim;
}

}  // namespace uwsim::scenario
