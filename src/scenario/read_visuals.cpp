// A body's `visual` list: the solids `sim replay` draws for it (model/spec.h, VisualSpec). The
// model never reads them; only mesh files are more than numbers, and they are read later, by a
// load from the scenario's own file (visual_meshes.h).
#include "scenario/sections.h"
#include "spatial/rotation.h"

namespace uwsim::scenario {
namespace {

using model::VisualSpec;

Matrix3 rotation_rpy(const Vector3& rpy) {
  return spatial::rotation_from_quaternion(spatial::quaternion_from_euler_zyx(rpy[0], rpy[1], rpy[2]));
}

// A cylinder lies along V's z (as in URDF); `axis` names the visual axis it lies along: the
// rotation that takes z there (x: +90° about y, y: −90° about x).
Matrix3 z_onto(int axis) {
  Matrix3 R = Matrix3::Identity();
  if (axis == 0) R << 0, 0, 1, 0, 1, 0, -1, 0, 0;
  if (axis == 1) R << 1, 0, 0, 0, 0, 1, 0, -1, 0;
  return R;
}

VisualSpec solid(VisualSpec::Kind kind, const Vector3& size, const Vector3& p_BV_B, const Eigen::Vector4d& rgba,
                 const Matrix3& R_BV = Matrix3::Identity()) {
  VisualSpec v;
  v.kind = kind;
  v.size = size;
  v.p_BV_B = p_BV_B;
  v.R_BV = R_BV;
  v.rgba = rgba;
  return v;
}

// The BlueROV2 (Blue Robotics' frame, the shipped parts' vehicle) as primitives, to be known at a
// glance: its overall 457 × 338 × 254 mm (length, width, height: Blue Robotics' published size;
// 254 mm is also scenarios/kolano2024/README.md's) around the body origin, the two black side
// panels (their rails and posts), the clear 4" electronics tube with its dome forward on top,
// the aluminium 3" battery tube below it, the buoyancy foam on top either side of the tube and
// two bars of the bottom tray. Proportions drawn by eye from the product's pictures, not measured: an outline, never
// geometry the model uses. The thrusters are drawn where the part puts them (replay draws every
// thruster as a duct), so the Heavy shows eight and a part without thrusters none.
std::vector<VisualSpec> bluerov2_outline() {
  using K = VisualSpec::Kind;
  const Eigen::Vector4d black(0.13, 0.13, 0.14, 1.0), clear(0.78, 0.88, 0.96, 0.45);
  const Eigen::Vector4d aluminium(0.62, 0.64, 0.68, 1.0), foam(0.20, 0.21, 0.24, 1.0);
  const Matrix3 along_x = z_onto(0);
  std::vector<VisualSpec> out;
  for (const double side : {-1.0, 1.0}) {
    // a side panel, as its outer rails and posts (the real one is open between them)
    for (const double z : {-0.107, 0.107}) out.push_back(solid(K::box, {0.457, 0.0127, 0.04}, {0.0, side * 0.1626, z}, black));
    for (const double x : {-0.2085, 0.2085}) out.push_back(solid(K::box, {0.04, 0.0127, 0.174}, {x, side * 0.1626, 0.0}, black));
    out.push_back(solid(K::box, {0.40, 0.095, 0.06}, {-0.01, side * 0.106, -0.097}, foam));      // buoyancy foam
    out.push_back(solid(K::box, {0.03, 0.312, 0.0127}, {side * 0.19, 0.0, 0.118}, black));       // bottom tray bar
  }
  out.push_back(solid(K::cylinder, {0.057, 0.30, 0.0}, {0.0, 0.0, -0.035}, clear, along_x));        // electronics tube
  out.push_back(solid(K::sphere, {0.057, 0.0, 0.0}, {0.15, 0.0, -0.035}, clear));                   // its dome
  out.push_back(solid(K::cylinder, {0.060, 0.02, 0.0}, {-0.16, 0.0, -0.035}, aluminium, along_x));  // its end cap
  out.push_back(solid(K::cylinder, {0.0445, 0.21, 0.0}, {-0.03, 0.0, 0.075}, aluminium, along_x));  // battery tube
  return out;
}

std::optional<Eigen::Vector4d> read_color(Reader& r, const Field& f) {
  const bool rgb = f.value.IsSequence() && f.value.size() == 3;
  auto c = r.numbers(f, rgb ? 3 : 4, Sign::non_negative, "");
  if (!c) return std::nullopt;
  if (c->maxCoeff() > 1.0) {
    r.error(f, "expected red, green, blue (and opacity) from 0 to 1, got " + to_text(c->maxCoeff()));
    return std::nullopt;
  }
  return rgb ? Eigen::Vector4d((*c)[0], (*c)[1], (*c)[2], 1.0) : Eigen::Vector4d(*c);
}

void read_mesh(Reader& r, const Field& f, VisualSpec& v) {
  v.kind = VisualSpec::Kind::mesh;
  Mapping m(r, f, {"file", "scale"});
  if (!m.ok()) return;
  const Field file = m.require("file");
  if (auto text = r.string(file)) {
    if (text->empty())
      r.error(file, "expected a mesh file name (.stl or .dae), got an empty string");
    else
      v.mesh_file = *text;
    if (file.value.Mark().line >= 0) {
      v.line = file.value.Mark().line + 1;
      v.column = file.value.Mark().column + 1;
    }
  }
  const Field scale = m.get("scale");
  if (scale.present() && scale.value.IsScalar()) {
    if (auto s = r.number(scale, Sign::positive, "")) v.scale = Vector3::Constant(*s);
  } else if (scale.present()) {
    if (auto s = r.numbers(scale, 3, Sign::positive, "")) v.scale = *s;
  }
}

// One item: its solid (or outline) and where it sits. Empty after a problem.
std::vector<VisualSpec> read_item(Reader& r, const Field& item) {
  using K = VisualSpec::Kind;
  const std::size_t before = r.diagnostics().size();
  Mapping m(r, item, {"box", "cylinder", "sphere", "mesh", "outline", "origin", "color"});
  if (!m.ok()) return {};
  const char* kinds[] = {"box", "cylinder", "sphere", "mesh", "outline"};
  std::vector<Field> given;
  for (const char* k : kinds)
    if (m.has(k)) given.push_back(m.get(k));
  if (given.size() != 1) {
    const Field& at = given.size() > 1 ? given[1] : item;
    r.error(at, given.empty() ? "expected one solid: box, cylinder, sphere, mesh or outline"
                              : "give one solid per item (box, cylinder, sphere, mesh or outline); "
                                "list several items for several solids");
    return {};
  }
  const Field& f = given.front();
  const std::string kind = f.key.Scalar();
  std::vector<VisualSpec> pieces(1);
  VisualSpec& v = pieces.front();
  if (kind == "box") {
    Mapping b(r, f, {"size"});
    if (b.ok())
      if (auto size = r.numbers(b.require("size"), 3, Sign::positive, "m")) v.size = *size;
  } else if (kind == "cylinder") {
    v.kind = K::cylinder;
    Mapping c(r, f, {"radius", "length", "axis"});
    if (c.ok()) {
      c.read("radius", v.size[0], Sign::positive, "m", true);
      c.read("length", v.size[1], Sign::positive, "m", true);
      std::size_t axis = 0;  // x, as a shape's cylinder
      if (const Field a = c.get("axis"); a.present())
        if (auto k = r.choice(a, {"x", "y", "z"})) axis = *k;
      v.R_BV = z_onto(static_cast<int>(axis));
    }
  } else if (kind == "sphere") {
    v.kind = K::sphere;
    Mapping s(r, f, {"radius"});
    if (s.ok()) s.read("radius", v.size[0], Sign::positive, "m", true);
  } else if (kind == "mesh") {
    read_mesh(r, f, v);
  } else if (auto name = r.choice(f, {"bluerov2"})) {
    pieces = bluerov2_outline();
  }
  Vector3 xyz = Vector3::Zero(), rpy = Vector3::Zero();
  if (const Field origin = m.get("origin"); origin.present()) {
    Mapping o(r, origin, {"xyz", "rpy"});
    if (o.ok()) {
      o.read("xyz", xyz, Sign::any, "m");
      o.read("rpy", rpy, Sign::any, "rad");
    }
  }
  std::optional<Eigen::Vector4d> color;
  if (const Field c = m.get("color"); c.present()) color = read_color(r, c);
  if (r.diagnostics().size() != before) return {};
  // The origin places the item's frame in the body frame; the pieces sit in that frame.
  const Matrix3 R_BO = rotation_rpy(rpy);
  for (VisualSpec& piece : pieces) {
    piece.p_BV_B = xyz + R_BO * piece.p_BV_B;
    piece.R_BV = R_BO * piece.R_BV;
    if (color) piece.rgba = *color;
  }
  return pieces;
}

}  // namespace

std::vector<VisualSpec> read_visuals(Reader& r, const Field& f) {
  std::vector<VisualSpec> out;
  if (absent(f)) return out;
  auto items = r.sequence(f);
  if (!items) return out;
  for (const Field& item : *items)
    for (VisualSpec& v : read_item(r, item)) out.push_back(std::move(v));
  return out;
}

}  // namespace uwsim::scenario
