#include "scenario/urdf_part.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "scenario/sections.h"
#include "spatial/rotation.h"

namespace uwsim::scenario {
namespace {

using urdf::Inertial;
using urdf::JointKind;
using urdf::Origin;
using urdf::Position;

Eigen::Matrix3d rotation(const Eigen::Vector3d& rpy) { return spatial::rotation_from_euler_zyx(rpy); }

// X_AC = X_AB · X_BC for origins (translation, then rotation).
Origin compose(const Origin& ab, const Origin& bc) {
  const Eigen::Matrix3d r_ab = rotation(ab.rpy);
  Origin ac;
  ac.xyz = ab.xyz + r_ab * bc.xyz;
  ac.rpy = bc.rpy.isZero() ? ab.rpy : spatial::euler_zyx_from_rotation(r_ab * rotation(bc.rpy));
  ac.at = bc.at;
  return ac;
}

// The inertial with its inertia in the link's axes (the origin's rotation applied).
Inertial in_link_axes(Inertial i) {
  if (!i.origin.rpy.isZero()) {
    const Eigen::Matrix3d r = rotation(i.origin.rpy);
    i.inertia = r * i.inertia * r.transpose();
    i.origin.rpy.setZero();
  }
  return i;
}

// The inertial of a link whose frame sits at `x` in this frame, written in this frame.
Inertial moved(const Inertial& in, const Origin& x) {
  Inertial i = in_link_axes(in);
  const Eigen::Matrix3d r = rotation(x.rpy);
  i.origin.xyz = x.xyz + r * i.origin.xyz;
  i.inertia = r * i.inertia * r.transpose();
  return i;
}

// Two rigidly joined inertials (both in one frame and in its axes): masses add, the CG is
// their weighted mean, inertias add about it (parallel axes, I + m(|d|²E − d dᵀ)).
Inertial combined(const Inertial& a, const Inertial& b) {
  Inertial c = a;
  c.mass = a.mass + b.mass;
  c.origin.xyz = (a.mass * a.origin.xyz + b.mass * b.origin.xyz) / c.mass;
  auto shifted = [&](const Inertial& i) {
    const Eigen::Vector3d d = i.origin.xyz - c.origin.xyz;
    return Eigen::Matrix3d(i.inertia + i.mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose()));
  };
  c.inertia = shifted(a) + shifted(b);
  return c;
}

// D = Rx(π) = diag(1, −1, −1) applied to a vector, and D·M·D to a matrix (see urdf_part.h).
// A zero stays +0, so that the text reads "0", never "-0".
double flipped(double x) { return x == 0.0 ? 0.0 : -x; }
Eigen::Vector3d turned(const Eigen::Vector3d& v) { return Eigen::Vector3d(v[0], flipped(v[1]), flipped(v[2])); }
Eigen::Matrix3d turned(const Eigen::Matrix3d& m) {
  const double s[3] = {1.0, -1.0, -1.0};
  Eigen::Matrix3d out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out(i, j) = s[i] * s[j] == 1.0 ? m(i, j) : flipped(m(i, j));
  return out;
}
// D·Rz(y)·Ry(p)·Rx(r)·D = Rz(−y)·Ry(−p)·Rx(r).
Eigen::Vector3d turned_rpy(const Eigen::Vector3d& rpy) {
  return Eigen::Vector3d(rpy[0], flipped(rpy[1]), flipped(rpy[2]));
}

std::string number(double x) { return yaml_number(x).Scalar(); }

// Concatenation by append (GCC 12 warns falsely, -Wrestrict, on `"literal" + std::string`).
template <typename... Parts>
std::string cat(const Parts&... parts) {
  std::string out;
  (out.append(parts), ...);
  return out;
}

std::string list(const Eigen::Vector3d& v) {
  return cat("[", number(v[0]), ", ", number(v[1]), ", ", number(v[2]), "]");
}

// A double-quoted YAML string: names are always strings, whatever they look like.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", u);
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

class Converter {
 public:
  Converter(const std::string& file, std::vector<Diagnostic>& out) : file_(file), out_(out) {}

  std::optional<UrdfPart> convert(urdf::Tree tree) {
    tree_ = std::move(tree);
    world_root_ = tree_.root == kWorld;
    for (std::size_t i = 0; i < tree_.links.size(); ++i) links_[tree_.links[i].name] = i;
    check_world_root();
    check_limits();
    if (failed_) return std::nullopt;
    fold_fixed_frames();
    absorb_into_frames();
    if (failed_) return std::nullopt;
    return emit();
  }

 private:
  void report(Position p, std::string message) {
    out_.push_back(Diagnostic{file_, p.line, p.column, std::move(message)});
    failed_ = true;
  }

  urdf::Link& link(const std::string& name) { return tree_.links[links_.at(name)]; }
  bool massless(const std::string& name) { return !link(name).inertial.has_value(); }
  bool is_world(const std::string& name) const { return world_root_ && name == kWorld; }

  // Index of the (live) joint whose child is `name`, or -1.
  int parent_joint(const std::string& name) const {
    for (std::size_t k = 0; k < tree_.joints.size(); ++k)
      if (!removed_joints_.count(k) && tree_.joints[k].child == name) return static_cast<int>(k);
    return -1;
  }
  std::vector<std::size_t> child_joints(const std::string& name) const {
    std::vector<std::size_t> out;
    for (std::size_t k = 0; k < tree_.joints.size(); ++k)
      if (!removed_joints_.count(k) && tree_.joints[k].parent == name) out.push_back(k);
    return out;
  }

  void check_world_root() {
    if (!world_root_) return;
    const urdf::Link& w = link(kWorld);
    if (w.inertial)
      report(w.at, "the root link 'world' stands for the fixed world; it cannot have an "
                   "<inertial> (rename the link to make it a body)");
  }

  void check_limits() {
    for (const urdf::Joint& j : tree_.joints) {
      if (j.kind != JointKind::revolute && j.kind != JointKind::prismatic) continue;
      if (j.limits && !(j.limits->upper > j.limits->lower))
        report(j.limits->upper_at,
               "joint '" + j.name + "': the upper limit " + to_text(j.limits->upper) +
                   " is not above the lower limit " + to_text(j.limits->lower) +
                   "; a revolute or prismatic joint needs a range (a revolute joint without one "
                   "is 'continuous')");
    }
  }

  // A massless link fixed to its parent: its child joints move to the parent.
  void fold_fixed_frames() {
    bool changed = true;
    while (changed) {
      changed = false;
      for (urdf::Link& l : tree_.links) {
        if (removed_links_.count(l.name) || l.inertial || is_world(l.name)) continue;
        const int up = parent_joint(l.name);
        if (up < 0 || tree_.joints[static_cast<std::size_t>(up)].kind != JointKind::fixed) continue;
        const urdf::Joint& fixed = tree_.joints[static_cast<std::size_t>(up)];
        move_visuals(l, link(fixed.parent), fixed.origin);
        for (std::size_t k : child_joints(l.name)) {
          tree_.joints[k].origin = compose(fixed.origin, tree_.joints[k].origin);
          tree_.joints[k].parent = fixed.parent;
        }
        removed_joints_.insert(static_cast<std::size_t>(up));
        removed_links_.insert(l.name);
        changed = true;
      }
    }
  }

  // A massless root, or a massless link a moving joint carries: takes in the links fixed to
  // it. What stays massless is an error.
  void absorb_into_frames() {
    for (urdf::Link& l : tree_.links) {
      if (removed_links_.count(l.name) || l.inertial || is_world(l.name)) continue;
      for (std::size_t k : child_joints(l.name)) {
        urdf::Joint& fixed = tree_.joints[k];
        if (fixed.kind != JointKind::fixed) continue;
        urdf::Link& c = link(fixed.child);
        if (!c.inertial) continue;  // folded already unless it is massless and moving
        const Inertial in = moved(*c.inertial, fixed.origin);
        l.inertial = l.inertial ? combined(*l.inertial, in) : in;
        l.inertial->mass_at = c.inertial->mass_at;
        l.inertial->inertia_at = c.inertial->inertia_at;
        move_visuals(c, l, fixed.origin);
        for (std::size_t g : child_joints(c.name)) {
          tree_.joints[g].origin = compose(fixed.origin, tree_.joints[g].origin);
          tree_.joints[g].parent = l.name;
        }
        removed_joints_.insert(k);
        removed_links_.insert(c.name);
      }
      if (l.inertial) continue;
      const int up = parent_joint(l.name);
      const std::string why = l.zero_mass ? "its <mass> is 0" : "no <inertial>";
      if (up < 0)
        report(l.at, "link '" + l.name + "' has no mass (" + why + ") and is the root, with "
                     "no link with mass fixed to it; a scenario's bodies need mass: give it an "
                     "<inertial>");
      else
        report(l.at, "link '" + l.name + "' has no mass (" + why + ") and joint '" +
                         tree_.joints[static_cast<std::size_t>(up)].name +
                         "' moves it; a moving body needs mass: give it an <inertial>, or make "
                         "the joint fixed");
    }
  }

  // A link merged into another (at `x` in its frame) is drawn with it.
  static void move_visuals(urdf::Link& from, urdf::Link& into, const Origin& x) {
    for (urdf::Visual& v : from.visuals) {
      v.origin = compose(x, v.origin);
      into.visuals.push_back(std::move(v));
    }
    from.visuals.clear();
  }

  // A mesh's filename as the scenario reads it: relative to the URDF file (as URDF tools read
  // it; the include makes it absolute), a file:// URI's path, or a package:// URI found in the
  // folders above the URDF (a folder named for the package, or holding one), as a ROS
  // workspace lays them out. Nullopt, with a warning, for a package not found there.
  std::optional<std::string> mesh_path(const urdf::Visual& v) {
    namespace fs = std::filesystem;
    if (v.mesh.rfind("file://", 0) == 0) return v.mesh.substr(7);
    if (v.mesh.rfind("package://", 0) != 0) return v.mesh;
    const std::string rest = v.mesh.substr(10);
    const std::size_t slash = rest.find('/');
    const std::string package = rest.substr(0, slash);
    const std::string inside = slash == std::string::npos ? "" : rest.substr(slash + 1);
    std::error_code ec;
    const fs::path urdf = fs::absolute(file_, ec);
    for (fs::path dir = urdf.parent_path(); !ec && !dir.empty(); dir = dir.parent_path()) {
      std::error_code missing;  // a folder that is not there is no error
      for (const fs::path& root : {dir.filename() == package ? dir : fs::path(), dir / package})
        if (!root.empty() && fs::is_directory(root, missing) && fs::exists(root / inside, missing))
          return (root / inside).string();
      if (dir == dir.parent_path()) break;
    }
    out_.push_back(Diagnostic{file_, v.mesh_at.line, v.mesh_at.column,
                              "mesh '" + v.mesh + "': no folder '" + package + "' holding '" + inside +
                                  "' above this file (package:// names a ROS package); the link is drawn without it",
                              true});
    return std::nullopt;
  }

  void emit_visual(const urdf::Visual& v) {
    using Kind = urdf::Visual::Kind;
    std::string solid;
    if (v.kind == Kind::box) {
      solid = cat("box: {size: ", list(v.size), "}");
    } else if (v.kind == Kind::cylinder) {
      solid = cat("cylinder: {radius: ", number(v.size[0]), ", length: ", number(v.size[1]), ", axis: z}");
    } else if (v.kind == Kind::sphere) {
      solid = cat("sphere: {radius: ", number(v.size[0]), "}");
    } else {
      const auto path = mesh_path(v);
      if (!path) return;
      solid = cat("mesh: {file: ", quoted(*path), ", scale: ", list(v.scale), "}");
    }
    line(cat("      - ", solid), v.kind == Kind::mesh ? v.mesh_at : v.at);
    // The solid's frame V turned with its link: p_L' = D·p_L = D·xyz + (D·R)·v_V, so V keeps the
    // URDF's coordinates (a mesh's vertices, a cylinder along z) and its axes are D·R in L'.
    const Eigen::Matrix3d R = Eigen::Vector3d(1.0, -1.0, -1.0).asDiagonal() * rotation(v.origin.rpy);
    const Eigen::Vector3d rpy = spatial::euler_zyx_from_rotation(R).array() + 0.0;  // no "-0"
    line(cat("        origin: {xyz: ", list(turned(v.origin.xyz)), ", rpy: ", list(rpy), "}"), v.origin.at);
    if (v.rgba) {
      const Eigen::Vector4d& c = *v.rgba;
      line(cat("        color: [", number(c[0]), ", ", number(c[1]), ", ", number(c[2]), ", ", number(c[3]), "]"), v.at);
    }
  }

  void line(const std::string& text, Position p) {
    part_.yaml += text;
    part_.yaml += '\n';
    part_.lines.push_back(p);
  }

  void emit_body(const urdf::Link& l) {
    const Inertial i = in_link_axes(*l.inertial);
    line(cat("  - name: ", quoted(l.name)), l.at);
    line(cat("    mass: ", number(i.mass)), i.mass_at);
    line(cat("    center_of_gravity: ", list(turned(i.origin.xyz))), i.origin.at);
    const Eigen::Matrix3d m = turned(i.inertia);
    if (m.isDiagonal(0.0)) {
      line(cat("    inertia: ", list(m.diagonal())), i.inertia_at);
    } else {
      line(cat("    inertia: [", list(m.row(0).transpose()), ", ", list(m.row(1).transpose()), ", ",
               list(m.row(2).transpose()), "]"),
           i.inertia_at);
    }
    if (l.visuals.empty()) return;
    line("    visual:", l.visuals.front().at);
    const std::size_t before = part_.lines.size();
    for (const urdf::Visual& v : l.visuals) emit_visual(v);
    if (part_.lines.size() == before) {  // every mesh left out: no list at all
      part_.lines.pop_back();
      part_.yaml.erase(part_.yaml.rfind("    visual:\n"));
    }
  }

  void emit_joint(const urdf::Joint& j) {
    static const std::map<JointKind, const char*> kinds = {{JointKind::revolute, "revolute"},
                                                           {JointKind::continuous, "revolute"},
                                                           {JointKind::prismatic, "prismatic"},
                                                           {JointKind::fixed, "fixed"}};
    line(cat("  - name: ", quoted(j.name)), j.at);
    line(cat("    type: ", kinds.at(j.kind)), j.kind_at);
    line(cat("    parent: ", is_world(j.parent) ? std::string(kWorld) : quoted(j.parent)), j.parent_at);
    line(cat("    child: ", quoted(j.child)), j.child_at);
    line("    origin:", j.origin.at);
    line(cat("      xyz: ", list(turned(j.origin.xyz))), j.origin.at);
    line(cat("      rpy: ", list(turned_rpy(j.origin.rpy))), j.origin.at);
    if (j.kind == JointKind::fixed) return;
    line(cat("    axis: ", list(turned(j.axis))), j.axis_at);
    double start = 0.0;
    if (j.limits) {
      const urdf::Limits& l = *j.limits;
      const bool range = j.kind != JointKind::continuous;
      if (range || l.effort > 0.0 || l.velocity > 0.0) line("    limits:", l.at);
      if (range) {
        line(cat("      lower: ", number(l.lower)), l.lower_at);
        line(cat("      upper: ", number(l.upper)), l.upper_at);
        start = std::clamp(0.0, l.lower, l.upper);
      }
      if (l.effort > 0.0) line(cat("      effort: ", number(l.effort)), l.effort_at);
      if (l.velocity > 0.0) line(cat("      velocity: ", number(l.velocity)), l.velocity_at);
    }
    if (j.damping > 0.0) line(cat("    damping: ", number(j.damping)), j.dynamics_at);
    if (j.friction > 0.0) line(cat("    friction: ", number(j.friction)), j.dynamics_at);
    line("    initial:", j.at);
    line(cat("      position: ", number(start)), j.at);
  }

  // Bodies depth first from the root, children in file order; joints in file order.
  UrdfPart emit() {
    std::vector<std::string> order;
    std::vector<std::string> stack = {tree_.root};
    while (!stack.empty()) {
      const std::string name = stack.back();
      stack.pop_back();
      if (!is_world(name)) order.push_back(name);
      const auto below = child_joints(name);
      for (auto it = below.rbegin(); it != below.rend(); ++it) stack.push_back(tree_.joints[*it].child);
    }
    if (!order.empty()) {
      line("bodies:", tree_.robot_at);
      for (const std::string& name : order) emit_body(link(name));
    }
    bool any = false;
    for (std::size_t k = 0; k < tree_.joints.size(); ++k) {
      if (removed_joints_.count(k)) continue;
      if (!any) line("joints:", tree_.robot_at);
      any = true;
      emit_joint(tree_.joints[k]);
    }
    if (part_.yaml.empty()) line("bodies: []", tree_.robot_at);
    return part_;
  }

  const std::string& file_;
  std::vector<Diagnostic>& out_;
  urdf::Tree tree_;
  bool world_root_ = false;
  std::map<std::string, std::size_t> links_;
  std::set<std::size_t> removed_joints_;
  std::set<std::string> removed_links_;
  UrdfPart part_;
  bool failed_ = false;
};

}  // namespace

std::optional<UrdfPart> read_urdf_part(const std::string& file, const std::string& text,
                                       std::vector<Diagnostic>& out) {
  auto tree = urdf::read_tree(file, text, out);
  if (!tree) return std::nullopt;
  Converter converter(file, out);
  return converter.convert(std::move(*tree));
}

}  // namespace uwsim::scenario
