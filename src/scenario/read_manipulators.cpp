// The `manipulators` section: serial arms written as one row per joint + link, expanded to
// bodies `<arm>/<link>` and joints `<arm>/<joint>` whose errors point into the arm's text.
#include <set>

#include "scenario/sections.h"

namespace uwsim::scenario {
namespace {

const std::vector<std::string>& link_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k = body_keys();
    k.push_back("joint");
    return k;
  }();
  return keys;
}

// parent and child are implied by the arm; origin, axis and the other convention's row are
// accepted here only to be rejected with a specific message.
const std::vector<std::string>& link_joint_keys() {
  static const std::vector<std::string> keys = {
      "name", "type", "origin", "axis", "dh", "mdh", "initial", "limits", "damping",
      "friction", "effort", "actuator"};
  return keys;
}

// An optional name inside the arm: `fallback` when absent, nullopt when invalid (reported).
std::optional<std::string> part_name(Reader& r, const Field& f, const std::string& fallback) {
  if (!f.present()) return fallback;
  auto s = r.string(f);
  if (!s || !check_name_text(r, f, *s)) return std::nullopt;
  return s;
}

struct Expanded {
  BodySpec body;
  BodySource body_source;
  Field body_name_at;   // where a clash of the body's name is reported
  JointSpec joint;
  JointSource joint_source;
  Field joint_name_at;
};

}  // namespace

void read_manipulators(Reader& r, const Field& field, const EnvironmentSpec& env, Assembly& out) {
  if (absent(field)) return;
  auto items = r.sequence(field);
  if (!items) return;
  std::map<std::string, std::string> arm_names;  // name → path of the arm that has it
  for (const Field& item : *items) {
    Mapping m(r, item, {"name", "base", "mount", "convention", "links"});
    if (!m.ok()) continue;

    const Field name_field = m.require("name");
    std::optional<std::string> arm = r.string(name_field);
    if (arm && !check_name_text(r, name_field, *arm)) {
      arm.reset();
    } else if (arm) {
      if (auto [it, fresh] = arm_names.emplace(*arm, item.path); !fresh) {
        r.error(name_field, "duplicate manipulator name '" + *arm + "' (also " + it->second + ")");
        arm.reset();
      }
    }
    const Field base = m.require("base");
    const std::optional<std::string> base_name = r.string(base);

    Vector3 mount_xyz = Vector3::Zero(), mount_rpy = Vector3::Zero();
    const Field mount = m.get("mount");
    if (!absent(mount)) {
      Mapping mm(r, mount, {"xyz", "rpy"});
      mm.read("xyz", mount_xyz, Sign::any, "m");
      mm.read("rpy", mount_rpy, Sign::any, "rad");
    }

    PlacementRule rule = PlacementRule::unknown;
    if (auto c = r.choice(m.require("convention"), {"dh", "mdh"}))
      rule = *c == 0 ? PlacementRule::dh_only : PlacementRule::mdh_only;

    const Field links = m.require("links");
    auto link_items = r.sequence(links);
    if (!link_items) continue;
    if (link_items->empty()) r.error(links, "expected at least one link");

    // Read every link (to report all problems), then add the arm only if its names are free.
    std::vector<Expanded> parts;
    bool names_ok = arm && base_name;
    for (std::size_t k = 0; k < link_items->size(); ++k) {
      const Field& link = (*link_items)[k];
      const std::string number = std::to_string(k + 1);
      Expanded e;
      e.body_source.item = link;
      Mapping lm(r, link, link_keys());
      e.body_name_at = lm.has("name") ? lm.get("name") : name_field;
      auto link_name = part_name(r, lm.get("name"), "link" + number);
      std::optional<std::string> joint_name = "joint" + number;
      Field joint_field = lm.require("joint");
      e.joint_name_at = name_field;
      if (lm.ok()) {
        read_body_properties(r, lm, link, env, e.body, e.body_source);
        Mapping jm(r, joint_field, link_joint_keys());
        if (jm.ok()) {
          if (jm.has("name")) e.joint_name_at = jm.get("name");
          joint_name = part_name(r, jm.get("name"), joint_name.value());
          read_joint_properties(r, jm, joint_field, rule, e.joint);
        }
      }
      if (!link_name || !joint_name) names_ok = false;
      if (!names_ok) continue;

      e.body.name = *arm + "/" + *link_name;
      e.joint.name = *arm + "/" + *joint_name;
      e.body_source.name = NameSource{e.body_name_at, name_field, arm->size()};
      e.joint_source.name = NameSource{e.joint_name_at, name_field, arm->size()};
      e.joint.child = e.body.name;
      e.joint.key_path = set_path_of(joint_field.path);
      JointSource& js = e.joint_source;
      js.item = joint_field.present() ? joint_field : link;
      js.child = link;
      if (k == 0) {
        e.joint.parent = *base_name;
        e.joint.placement.mount_xyz = mount_xyz;
        e.joint.placement.mount_rpy = mount_rpy;
        js.parent = base;
        js.blame = base;
        js.section = base.path;
        js.order = 1;
      } else {
        e.joint.parent = parts.back().body.name;
        js.parent = (*link_items)[k - 1];
        js.blame = link;
        js.section = link.path;
        js.order = 0;
      }
      parts.push_back(std::move(e));
    }
    if (!names_ok) continue;

    std::set<std::string> bodies_here, joints_here;
    for (const Expanded& e : parts) {
      if (auto it = out.body_names.find(e.body.name); it != out.body_names.end()) {
        r.error(e.body_name_at, "the body '" + e.body.name + "' of " + e.body_source.item.path +
                                    " clashes with " + it->second + ", which has the same name");
        names_ok = false;
      } else if (!bodies_here.insert(e.body.name).second) {
        r.error(e.body_name_at, "two links of manipulator '" + *arm + "' are named '" +
                                    e.body.name + "'");
        names_ok = false;
      }
      if (auto it = out.joint_names.find(e.joint.name); it != out.joint_names.end()) {
        r.error(e.joint_name_at, "the joint '" + e.joint.name + "' of " +
                                     e.body_source.item.path + " clashes with " + it->second +
                                     ", which has the same name");
        names_ok = false;
      } else if (!joints_here.insert(e.joint.name).second) {
        r.error(e.joint_name_at, "two joints of manipulator '" + *arm + "' are named '" +
                                     e.joint.name + "'");
        names_ok = false;
      }
    }
    if (!names_ok) continue;
    for (Expanded& e : parts) {
      out.body_names.emplace(e.body.name, e.body_source.item.path);
      out.joint_names.emplace(e.joint.name, e.body_source.item.path + ".joint");
      out.bodies.push_back(std::move(e.body));
      out.body_sources.push_back(std::move(e.body_source));
      out.joints.push_back(std::move(e.joint));
      out.joint_sources.push_back(std::move(e.joint_source));
    }
  }
}

}  // namespace uwsim::scenario
