// The `joints` section, the joint keys shared with manipulator links, and the checks that
// tie joints and bodies into a forest.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "scenario/actuation_sections.h"
#include "scenario/tables.h"

namespace uwsim::scenario {
namespace {

constexpr double kZeroAxis = 1e-9;

struct Units {
  std::string_view position, velocity, effort, damping;
};

Units units_of(JointType type) {
  if (type == JointType::prismatic) return {"m", "m/s", "N", "N s/m"};
  return {"rad", "rad/s", "N m", "N m s/rad"};
}

const char* kind_name(JointPlacementSpec::Kind kind) {
  switch (kind) {
    case JointPlacementSpec::Kind::dh: return "dh";
    case JointPlacementSpec::Kind::mdh: return "mdh";
    default: return "origin";
  }
}

void read_dh(Reader& r, const Field& f, JointPlacementSpec& p) {
  p.kind = JointPlacementSpec::Kind::dh;
  if (!absent(f)) read_table(r, f, dh_table(), p);
}

void read_mdh(Reader& r, const Field& f, JointPlacementSpec& p) {
  p.kind = JointPlacementSpec::Kind::mdh;
  if (!absent(f)) read_table(r, f, mdh_table(), p);
}

void read_origin(Reader& r, const Field& f, JointPlacementSpec& p) {
  p.kind = JointPlacementSpec::Kind::origin;
  if (!absent(f)) read_table(r, f, origin_table(), p);
}

void read_axis(Reader& r, const Field& f, JointType type, JointPlacementSpec& p) {
  auto axis = r.numbers(f, 3, Sign::any, "");
  if (!axis) return;
  const double norm = axis->norm();
  if (norm >= kZeroAxis) {
    p.axis = *axis / norm;
  } else if (type != JointType::fixed) {  // a fixed joint has no use for its axis
    r.error(f, "expected a nonzero direction (norm at least 1e-9), got [" + to_text((*axis)[0]) +
                   ", " + to_text((*axis)[1]) + ", " + to_text((*axis)[2]) + "]");
  }
}

// A key that must not be there, reported at the key as the attitude conflicts are.
void reject(Reader& r, const Field& f, const std::string& message) {
  r.report(f.key.Mark(), f.path, f.path + ": " + message);
}

void read_placement(Reader& r, Mapping& m, const Field& item, PlacementRule rule,
                    JointType type, JointPlacementSpec& p) {
  const Field origin = m.get("origin");
  const Field axis = m.get("axis");
  const Field dh = m.get("dh");
  const Field mdh = m.get("mdh");
  if (rule == PlacementRule::any) {
    std::vector<const Field*> given;
    for (const Field* f : {&origin, &dh, &mdh})
      if (f->present()) given.push_back(f);
    if (given.size() > 1) {
      const Field* last = *std::max_element(given.begin(), given.end(), [](auto* a, auto* b) {
        return after(b->key.Mark(), a->key.Mark());
      });
      r.report(last->key.Mark(), last->path,
               item.path + ": give the placement as one of 'origin', 'dh' or 'mdh', not several");
      return;
    }
    if (dh.present()) read_dh(r, dh, p);
    if (mdh.present()) read_mdh(r, mdh, p);
    if (origin.present()) read_origin(r, origin, p);
    if (axis.present()) {
      if (dh.present() || mdh.present())
        reject(r, axis,
               std::string("a joint placed by '") + kind_name(p.kind) +
                   "' moves about the z axis of its frame; 'axis' goes only with 'origin'");
      else
        read_axis(r, axis, type, p);
    }
    return;
  }
  // A manipulator's joint: only the row of the manipulator's convention.
  const char* convention = rule == PlacementRule::dh_only ? "dh" : "mdh";
  const std::string row = rule == PlacementRule::dh_only ? "dh: {theta, d, a, alpha}"
                                                         : "mdh: {alpha, d, theta, r}";
  const bool known = rule != PlacementRule::unknown;
  if (origin.present())
    reject(r, origin, known ? std::string("a manipulator's joints are placed by their '") +
                                  convention + "' row (write '" + row +
                                  "'); 'origin' is for top-level joints"
                            : "a manipulator's joints are placed by 'dh' or 'mdh' rows; "
                              "'origin' is for top-level joints");
  if (axis.present())
    reject(r, axis, "a manipulator's joints move about the z axis of their DH frame; 'axis' "
                    "is for top-level joints");
  if (rule == PlacementRule::dh_only) {
    if (mdh.present())
      reject(r, mdh, "this manipulator's convention is 'dh'; write the row as '" + row + "'");
    read_dh(r, dh, p);
  } else if (rule == PlacementRule::mdh_only) {
    if (dh.present())
      reject(r, dh, "this manipulator's convention is 'mdh'; write the row as '" + row + "'");
    read_mdh(r, mdh, p);
  } else {
    // The convention itself is invalid (reported): still check the values.
    JointPlacementSpec ignored;
    if (dh.present()) read_dh(r, dh, ignored);
    if (mdh.present()) read_mdh(r, mdh, ignored);
  }
}

std::string interval(double lower, double upper) {
  return "[" + to_text(lower) + ", " + to_text(upper) + "]";
}

}  // namespace

const Table<JointPlacementSpec>& dh_table() {
  static const auto table = make_table<JointPlacementSpec>(
      "Classic Denavit–Hartenberg row: T_PC = Rz(θ+q)·Tz(d)·Tx(a)·Rx(α) (prismatic: d+q). The joint moves "
      "about / along z",
      {number("theta", &JointPlacementSpec::theta, Sign::any, "rad", "θ (rad)"),
       number("d", &JointPlacementSpec::d, Sign::any, "m", "d (m)"),
       number("a", &JointPlacementSpec::a, Sign::any, "m", "a (m)"),
       number("alpha", &JointPlacementSpec::alpha, Sign::any, "rad", "α (rad)")},
      {}, true);
  return table;
}

const Table<JointPlacementSpec>& mdh_table() {
  static const auto table = make_table<JointPlacementSpec>(
      "Modified Denavit–Hartenberg row (Khalil–Kleinfinger): T_PC = Rx(α)·Tx(d)·Rz(θ+q)·Tz(r) (prismatic: r+q). "
      "The joint moves about / along z",
      {number("alpha", &JointPlacementSpec::alpha, Sign::any, "rad", "α (rad)"),
       number("d", &JointPlacementSpec::d, Sign::any, "m", "d (m)"),
       number("theta", &JointPlacementSpec::theta, Sign::any, "rad", "θ (rad)"),
       number("r", &JointPlacementSpec::r, Sign::any, "m", "r (m)")},
      {}, true);
  return table;
}

const Table<JointPlacementSpec>& origin_table() {
  static const auto table = make_table<JointPlacementSpec>(
      "Pose of the joint frame J in the parent frame P; the child frame is J moved by the joint",
      {vector("xyz", &JointPlacementSpec::xyz, Sign::any, "m", "Position of J in P (m)"),
       vector("rpy", &JointPlacementSpec::rpy, Sign::any, "rad", "Attitude of J in P as [roll, pitch, yaw] (rad), ZYX: R = Rz(yaw)·Ry(pitch)·Rx(roll)")},
      {}, true);
  return table;
}

// "no body named 'x'; did you mean 'y'? (bodies: 'a', 'b'; or 'world')"
std::string unknown_body(const std::string& name, const std::vector<std::string>& known,
                         bool world_allowed) {
  std::vector<std::string> candidates = known;
  if (world_allowed) candidates.push_back(kWorld);
  std::string message = "no body named '" + name + "'";
  if (auto guess = closest_match(name, candidates)) message += "; did you mean '" + *guess + "'?";
  message += " (bodies: " + (known.empty() ? std::string("none") : quoted_names(known));
  if (world_allowed) message += std::string("; or '") + kWorld + "'";
  return message + ")";
}

const std::vector<std::string>& joint_keys() {
  static const std::vector<std::string> keys = {
      "name", "type", "parent", "child", "origin", "axis", "dh", "mdh", "initial", "limits",
      "damping", "friction", "effort", "actuator"};
  return keys;
}

void read_joint_properties(Reader& r, Mapping& m, const Field& item, PlacementRule rule,
                           JointSpec& j) {
  if (auto type = r.choice(m.require("type"), {"revolute", "prismatic", "fixed"}))
    j.type = static_cast<JointType>(*type);
  const bool fixed = j.type == JointType::fixed;
  const Units u = units_of(j.type);
  read_placement(r, m, item, rule, j.type, j.placement);

  // A fixed joint has no motion to limit, damp, drive or start: these keys are errors for it
  // rather than silently unused.
  auto no_motion = [&](const Field& f, const char* key) {
    std::string message("a fixed joint has no motion: '");
    message += key;
    message += "' does not apply";
    reject(r, f, message);
  };

  Field position, velocity;
  const Field initial = m.get("initial");
  if (!absent(initial)) {
    Mapping im(r, initial, {"position", "velocity"});
    position = im.get("position");
    velocity = im.get("velocity");
    if (auto q = r.number(position, Sign::any, u.position)) j.initial_position = *q;
    if (fixed) {
      if (j.initial_position != 0.0)
        r.error(position, "a fixed joint does not move; expected 0, got " +
                              to_text(j.initial_position));
      if (velocity.present()) no_motion(velocity, "initial.velocity");
    } else if (auto v = r.number(velocity, Sign::any, u.velocity)) {
      j.initial_velocity = *v;
    }
  }
  if (fixed) {
    for (const char* key : {"limits", "damping", "friction", "effort", "actuator"})
      if (const Field f = m.get(key); f.present()) no_motion(f, key);
    return;
  }

  bool limits_known = true;  // false when a limit was given but is invalid
  const Field limits = m.get("limits");
  if (!absent(limits)) {
    Mapping lm(r, limits, {"lower", "upper", "effort", "velocity"});
    if (!lm.ok()) limits_known = false;
    const Field lower = lm.get("lower");
    const Field upper = lm.get("upper");
    if (auto x = r.number(lower, Sign::any, u.position))
      j.limits.lower = *x;
    else if (lower.present())
      limits_known = false;
    if (auto x = r.number(upper, Sign::any, u.position)) {
      if (*x <= j.limits.lower) {
        r.error(upper, "expected a number greater than lower (" + to_text(j.limits.lower) +
                           "), got " + to_text(*x));
        limits_known = false;
      } else {
        j.limits.upper = *x;
      }
    } else if (upper.present()) {
      limits_known = false;
    }
    lm.read("effort", j.limits.effort, Sign::positive, u.effort);
    lm.read("velocity", j.limits.velocity, Sign::positive, u.velocity);
  }
  m.read("damping", j.damping, Sign::non_negative, u.damping);
  m.read("friction", j.friction, Sign::non_negative, u.effort);
  m.read("effort", j.effort, Sign::any, u.effort);
  read_joint_actuator(r, m.get("actuator"), j);

  const double q = j.initial_position;
  if (limits_known && (q < j.limits.lower || q > j.limits.upper)) {
    const std::string range = interval(j.limits.lower, j.limits.upper) + " " +
                              std::string(u.position);
    if (position.present())
      r.error(position, to_text(q) + " " + std::string(u.position) +
                            " is outside the limits " + range);
    else
      r.error(limits, "the initial position (default 0) is outside the limits " + range +
                          "; give initial.position");
  }
}

void read_joints(Reader& reader, const Field& field, Assembly& out) {
  if (absent(field)) return;
  auto items = reader.sequence(field);
  if (!items) return;
  for (const Field& item : *items) {
    JointSpec j;
    JointSource source;
    source.item = item;
    source.section = field.path;
    source.order = 2;
    Mapping m(reader, item, joint_keys());
    if (m.ok()) {
      const Field name = m.require("name");
      source.name.at = name;
      if (auto s = reader.string(name); s && check_name_text(reader, name, *s)) {
        if (auto [it, fresh] = out.joint_names.emplace(*s, item.path); !fresh)
          reader.error(name, "duplicate joint name '" + *s + "' (also " + it->second + ")");
        else
          j.name = *s;
      }
      source.parent = m.require("parent");
      source.child = m.require("child");
      source.blame = source.child;
      if (auto s = reader.string(source.parent)) j.parent = *s;
      if (auto s = reader.string(source.child)) j.child = *s;
      read_joint_properties(reader, m, item, PlacementRule::any, j);
    }
    j.key_path = set_path_of(item.path);
    out.joints.push_back(std::move(j));
    out.joint_sources.push_back(std::move(source));
  }
}

void connect(Reader& r, Assembly& a) {
  const std::size_t n = a.bodies.size();
  std::map<std::string, int> index;
  std::vector<std::string> known;
  for (std::size_t i = 0; i < n; ++i)
    if (!a.bodies[i].name.empty()) {
      index.emplace(a.bodies[i].name, static_cast<int>(i));
      known.push_back(a.bodies[i].name);
    }
  std::vector<int> parent_joint(n, -1), parent_body(n, -1);

  // A manipulator's inner joints first, then its first joints, then the top-level joints:
  // a conflict is reported at the joint that can be changed without touching the others.
  std::vector<std::size_t> visit(a.joints.size());
  std::iota(visit.begin(), visit.end(), 0);
  std::stable_sort(visit.begin(), visit.end(), [&](std::size_t x, std::size_t y) {
    return a.joint_sources[x].order < a.joint_sources[y].order;
  });
  for (std::size_t ji : visit) {
    const JointSpec& j = a.joints[ji];
    const JointSource& s = a.joint_sources[ji];
    if (j.parent.empty() || j.child.empty()) continue;  // reported while reading
    bool ok = true;
    if (j.child == kWorld) {
      r.error(s.child, "'world' is the fixed world frame; it cannot be the child of a joint");
      ok = false;
    } else if (!index.count(j.child)) {
      r.error(s.child, unknown_body(j.child, known, false));
      ok = false;
    }
    if (j.parent != kWorld && !index.count(j.parent)) {
      r.error(s.parent, unknown_body(j.parent, known, true));
      ok = false;
    }
    if (!ok) continue;
    const int c = index.at(j.child);
    const int p = j.parent == kWorld ? -1 : index.at(j.parent);
    if (p == c) {
      r.error(s.blame, "joint '" + j.name + "' connects body '" + j.child + "' to itself");
      continue;
    }
    if (parent_joint[c] >= 0) {
      r.error(s.child, "body '" + j.child + "' is already the child of joint '" +
                           a.joints[parent_joint[c]].name +
                           "'; a body hangs from at most one joint");
      continue;
    }
    // The accepted joints form a forest, so walking up from the parent ends.
    std::vector<int> up;
    int b = p;
    while (b >= 0 && b != c) {
      up.push_back(b);
      b = parent_body[b];
    }
    if (b == c) {
      std::string chain = j.child;
      for (auto it = up.rbegin(); it != up.rend(); ++it) chain += " → " + a.bodies[*it].name;
      chain += " → " + j.child;
      r.report(s.blame.value.Mark(), s.blame.path,
               s.section + ": joint '" + j.name + "' closes a cycle: " + chain);
      continue;
    }
    parent_joint[c] = static_cast<int>(ji);
    parent_body[c] = p;
  }

  for (std::size_t i = 0; i < n; ++i) {
    const Field& initial = a.body_sources[i].initial;
    if (parent_joint[i] >= 0 && !absent(initial))
      r.report(initial.key.Mark(), initial.path,
               initial.path + ": a body moved by joint '" + a.joints[parent_joint[i]].name +
                   "' takes its initial state from the joint");
  }

  // Depth-first pre-order: the roots (free bodies and bodies jointed to the world) in list
  // order, each followed by its subtree, children in list order.
  std::vector<std::vector<int>> children(n);
  std::vector<int> roots;
  for (std::size_t i = 0; i < n; ++i) {
    if (parent_body[i] >= 0)
      children[parent_body[i]].push_back(static_cast<int>(i));
    else
      roots.push_back(static_cast<int>(i));
  }
  std::vector<int> order;
  order.reserve(n);
  std::vector<int> stack(roots.rbegin(), roots.rend());
  while (!stack.empty()) {
    const int b = stack.back();
    stack.pop_back();
    order.push_back(b);
    stack.insert(stack.end(), children[b].rbegin(), children[b].rend());
  }
  std::vector<BodySpec> bodies;
  std::vector<BodySource> sources;
  std::vector<int> position(n, 0);
  for (int b : order) {
    position[b] = static_cast<int>(bodies.size());
    bodies.push_back(std::move(a.bodies[b]));
    sources.push_back(std::move(a.body_sources[b]));
  }
  a.bodies = std::move(bodies);
  a.body_sources = std::move(sources);

  // Joints in the order of their children; joints that were not accepted (an error was
  // reported) go last.
  std::vector<int> rank(a.joints.size(), static_cast<int>(n));
  for (std::size_t i = 0; i < n; ++i)
    if (parent_joint[i] >= 0) rank[parent_joint[i]] = position[i];
  std::vector<std::size_t> by_child(a.joints.size());
  std::iota(by_child.begin(), by_child.end(), 0);
  std::stable_sort(by_child.begin(), by_child.end(),
                   [&](std::size_t x, std::size_t y) { return rank[x] < rank[y]; });
  std::vector<JointSpec> joints;
  std::vector<JointSource> joint_sources;
  for (std::size_t ji : by_child) {
    joints.push_back(std::move(a.joints[ji]));
    joint_sources.push_back(std::move(a.joint_sources[ji]));
  }
  a.joints = std::move(joints);
  a.joint_sources = std::move(joint_sources);
}

}  // namespace uwsim::scenario
