// A body's `visual` list: the solids `sim replay` draws for it (model/spec.h, VisualSpec). The
// model never reads them; only mesh files are more than numbers, and they are read later, by a
// load from the scenario's own file (visual_meshes.h).
#include <algorithm>

#include "scenario/sections.h"
#include "scenario/tables.h"
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

// A `visual` item as written: each solid's own keys, then where it sits and its colour.
struct BoxItem {
  Vector3 size = Vector3::Zero();
};
struct CylinderItem {
  double radius = 0.0, length = 0.0;
  int axis = 0;  // x, as a shape's cylinder
};
struct SphereItem {
  double radius = 0.0;
};
struct MeshItem {
  std::string file;
  Vector3 scale = Vector3::Ones();
  int line = 0, column = 0;
};
struct OriginItem {
  Vector3 xyz = Vector3::Zero(), rpy = Vector3::Zero();
};
struct VisualItem {
  BoxItem box;
  CylinderItem cylinder;
  SphereItem sphere;
  MeshItem mesh;
  OriginItem origin;
  std::optional<Eigen::Vector4d> color;
};

const Table<BoxItem>& box_item_table() {
  static const auto table = make_table<BoxItem>(
      "A box centred on the item's origin, edges along its axes",
      {vector("size", &BoxItem::size, Sign::positive, "m",
              "Edge lengths [lx, ly, lz] along the item's x, y, z axes (m), each > 0")
           .needed()
           .no_default()});
  return table;
}

const Table<CylinderItem>& cylinder_item_table() {
  static const auto table = make_table<CylinderItem>(
      "A circular cylinder centred on the item's origin",
      {number("radius", &CylinderItem::radius, Sign::positive, "m", "Radius").needed().no_default(),
       number("length", &CylinderItem::length, Sign::positive, "m", "Length along its axis").needed().no_default(),
       choice<CylinderItem, int>("axis", &CylinderItem::axis, {{"x", 0}, {"y", 1}, {"z", 2}},
                                 "The item's axis the cylinder lies along (a URDF <cylinder> lies along z)")});
  return table;
}

const Table<SphereItem>& sphere_item_table() {
  static const auto table = make_table<SphereItem>(
      "A sphere centred on the item's origin",
      {number("radius", &SphereItem::radius, Sign::positive, "m", "Radius").needed().no_default()});
  return table;
}

const Table<MeshItem>& mesh_item_table() {
  static const auto table = make_table<MeshItem>(
      "A triangle mesh from an STL (.stl) or Collada (.dae) file, its coordinates in the item's frame (Collada: "
      "in metres by its <unit>; its <up_axis> is not applied, as URDF tools do not). Read by `sim run` (and "
      "validate) from the scenario's own file and stored in the result file, decimated to at most 10 000 "
      "triangles (README \"Watching and plotting a run\"); `sim replay` reads only the result file",
      {custom<MeshItem>("file", "The mesh file, relative to the file that names it (a part's to the part), or absolute",
                        R"({"type": "string", "minLength": 1})",
                        [](Reader& r, const Field& f, MeshItem& mesh) {
                          if (auto text = r.string(f)) {
                            if (text->empty())
                              r.error(f, "expected a mesh file name (.stl or .dae), got an empty string");
                            else
                              mesh.file = *text;
                            if (f.value.Mark().line >= 0) {
                              mesh.line = f.value.Mark().line + 1;
                              mesh.column = f.value.Mark().column + 1;
                            }
                          }
                        })
           .needed(),
       custom<MeshItem>("scale", "Scale along the item's axes before `origin` places it: one factor or three, each > 0",
                        R"({"oneOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "array", "description": "[sx, sy, sz], each > 0.", "items": {"type": "number", "exclusiveMinimum": 0}, "minItems": 3, "maxItems": 3}]})",
                        [](Reader& r, const Field& f, MeshItem& mesh) {
                          if (f.value.IsScalar()) {
                            if (auto s = r.number(f, Sign::positive, "")) mesh.scale = Vector3::Constant(*s);
                          } else if (auto s = r.numbers(f, 3, Sign::positive, "")) {
                            mesh.scale = *s;
                          }
                        })
           .with_default("1.0")});
  return table;
}

const Table<OriginItem>& origin_item_table() {
  static const auto table = make_table<OriginItem>(
      "Where the item sits: its frame in the body frame, translation then roll-pitch-yaw (ZYX), as a joint's origin",
      {vector("xyz", &OriginItem::xyz, Sign::any, "m", "Position of the item's frame in the body frame (m)"),
       vector("rpy", &OriginItem::rpy, Sign::any, "rad", "Roll, pitch, yaw of the item's axes in the body frame (rad, ZYX)")});
  return table;
}

constexpr std::string_view kSolids[] = {"box", "cylinder", "sphere", "mesh", "outline"};

const Table<VisualItem>& visual_item_table() {
  static const auto table = make_table<VisualItem>(
      "One solid drawn for the body: exactly one of box, cylinder, sphere, mesh or outline, placed by `origin` in "
      "the body frame",
      {sub_table("box", &VisualItem::box, &box_item_table, ""),
       sub_table("cylinder", &VisualItem::cylinder, &cylinder_item_table, ""),
       sub_table("sphere", &VisualItem::sphere, &sphere_item_table, ""),
       sub_table("mesh", &VisualItem::mesh, &mesh_item_table, ""),
       // expanded into its pieces by read_item
       by_hand<VisualItem>("outline",
                           "A named outline built from primitives: `bluerov2`, the BlueROV2's frame, side panels, "
                           "electronics and battery tubes and buoyancy foam around the body origin (its thrusters are "
                           "drawn where the scenario puts them)",
                           R"({"type": "string", "enum": ["bluerov2"]})"),
       sub_table("origin", &VisualItem::origin, &origin_item_table, ""),
       custom<VisualItem>("color",
                          "Red, green, blue and optionally opacity, each from 0 to 1. Default: the body's colour in "
                          "the replay (bodies in order: orange, blue, green, ...); an outline keeps its own colours "
                          "unless given",
                          R"({"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1}, "minItems": 3, "maxItems": 4})",
                          [](Reader& r, const Field& f, VisualItem& item) { item.color = read_color(r, f); })},
      {{"the item's solid", {std::begin(kSolids), std::end(kSolids)}, true}});
  return table;
}

// One item: its solid (or outline) and where it sits. Empty after a problem.
std::vector<VisualSpec> read_item(Reader& r, const Field& f) {
  using K = VisualSpec::Kind;
  const std::size_t before = r.diagnostics().size();
  VisualItem item;
  const Mapping m = read_table(r, f, visual_item_table(), item);
  if (!m.ok()) return {};
  const auto given = std::find_if(std::begin(kSolids), std::end(kSolids), [&](std::string_view k) { return m.has(k); });
  if (given == std::end(kSolids)) r.error(f, "expected one solid: box, cylinder, sphere, mesh or outline");
  std::vector<VisualSpec> pieces(1);
  VisualSpec& v = pieces.front();
  const std::string_view kind = given == std::end(kSolids) ? "" : *given;
  if (kind == "box") {
    v.size = item.box.size;
  } else if (kind == "cylinder") {
    v.kind = K::cylinder;
    v.size << item.cylinder.radius, item.cylinder.length, 0.0;
    v.R_BV = z_onto(item.cylinder.axis);
  } else if (kind == "sphere") {
    v.kind = K::sphere;
    v.size << item.sphere.radius, 0.0, 0.0;
  } else if (kind == "mesh") {
    v.kind = K::mesh;
    v.mesh_file = item.mesh.file;
    v.scale = item.mesh.scale;
    v.line = item.mesh.line;
    v.column = item.mesh.column;
  } else if (kind == "outline") {
    if (r.choice(m.get("outline"), {"bluerov2"})) pieces = bluerov2_outline();
  }
  if (r.diagnostics().size() != before) return {};
  // The origin places the item's frame in the body frame; the pieces sit in that frame.
  const Matrix3 R_BO = rotation_rpy(item.origin.rpy);
  for (VisualSpec& piece : pieces) {
    piece.p_BV_B = item.origin.xyz + R_BO * piece.p_BV_B;
    piece.R_BV = R_BO * piece.R_BV;
    if (item.color) piece.rgba = *item.color;
  }
  return pieces;
}

}  // namespace

TableInfo visual_item_info() { return visual_item_table().describe; }

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
