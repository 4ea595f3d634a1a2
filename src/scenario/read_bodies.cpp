// GCC 12 reports a false -Wmaybe-uninitialized inside Eigen's tridiagonalisation at -O2.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Eigenvalues>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <Eigen/Cholesky>
#include <cstdio>
#include <map>

#include "model/shape_hydrodynamics.h"
#include "scenario/sections.h"
#include "scenario/tables.h"
#include "spatial/rotation.h"

namespace uwsim::scenario {
namespace {

constexpr double kSymmetryTolerance = 1e-9;   // relative to the largest entry
constexpr double kSemiDefiniteSlack = 1e-9;   // relative to the largest eigenvalue
constexpr double kQuaternionZero = 1e-9;
constexpr double kQuaternionUnitTolerance = 1e-6;

// The two forms of an inertia and of an added mass matrix, for the schema.
constexpr std::string_view kInertiaSchema = R"({"oneOf": [
    {"type": "array", "description": "Principal moments [Ixx, Iyy, Izz] (kg m²).", "items": {"type": "number", "exclusiveMinimum": 0}, "minItems": 3, "maxItems": 3},
    {"type": "array", "description": "Full 3×3 inertia matrix, list of rows (kg m²).", "minItems": 3, "maxItems": 3, "items": {"type": "array", "description": "One row of the matrix.", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}}]})";
constexpr std::string_view kAddedMassSchema = R"({"oneOf": [
    {"type": "array", "description": "Diagonal [X_u̇, Y_v̇, Z_ẇ, K_ṗ, M_q̇, N_ṙ] magnitudes.", "items": {"type": "number", "minimum": 0}, "minItems": 6, "maxItems": 6},
    {"type": "array", "description": "Full 6×6 added mass matrix, list of rows.", "minItems": 6, "maxItems": 6, "items": {"type": "array", "description": "One row of the matrix.", "items": {"type": "number"}, "minItems": 6, "maxItems": 6}}]})";

Field element(const Field& matrix, int i, int j) {
  return Field{YAML::Node(YAML::NodeType::Undefined), matrix.value[i][j],
               index_path(index_path(matrix.path, i), j)};
}

// Computed values, rounded so that messages stay readable.
std::string rounded(double x, int significant) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*g", significant, x);
  return buffer;
}

std::string list_text(const Eigen::VectorXd& v) {
  std::string out;
  for (Eigen::Index i = 0; i < v.size(); ++i) out += (i ? ", " : "") + rounded(v[i], 6);
  return out;
}

// Reports the first asymmetric pair at its later element; returns the symmetrised matrix.
std::optional<Eigen::MatrixXd> symmetric(Reader& r, const Field& f, const Eigen::MatrixXd& m) {
  const double scale = m.cwiseAbs().maxCoeff();
  for (int i = 0; i < m.rows(); ++i)
    for (int j = 0; j < i; ++j)
      if (std::abs(m(i, j) - m(j, i)) > kSymmetryTolerance * scale) {
        r.error(element(f, i, j), "the matrix is not symmetric: " + to_text(m(i, j)) +
                                      " here but " + to_text(m(j, i)) + " at [" +
                                      std::to_string(j) + "][" + std::to_string(i) + "]");
        return std::nullopt;
      }
  return Eigen::MatrixXd(0.5 * (m + m.transpose()));
}

// A rigid body's principal moments obey the triangle inequality I1 ≤ I2 + I3 (each is a sum
// of two of the three second moments of the mass distribution); a set that breaks it is no
// body at all, usually a typo.
bool realizable(Reader& r, const Field& f, const Eigen::Vector3d& principal) {
  const double slack = 1e-9 * principal.sum();
  for (int i = 0; i < 3; ++i) {
    if (principal[i] > principal[(i + 1) % 3] + principal[(i + 2) % 3] + slack) {
      r.error(f, "the principal moments " + list_text(principal) +
                     " break the triangle inequality (each must be at most the sum of the other two)");
      return false;
    }
  }
  return true;
}

// 3 principal moments, or a full symmetric positive-definite 3×3 matrix.
std::optional<Matrix3> read_inertia(Reader& r, const Field& f) {
  if (!f.present()) return std::nullopt;
  if (!Reader::is_list_of_rows(f)) {
    if (!f.value.IsSequence() || f.value.size() != 3) {
      r.error(f, "expected principal moments [Ixx, Iyy, Izz] (kg m²) or full 3×3 inertia matrix, list of rows "
                 "(kg m²), got " + describe_value(f.value));
      return std::nullopt;
    }
    auto d = r.numbers(f, 3, Sign::positive, "kg m²");
    if (!d || !realizable(r, f, *d)) return std::nullopt;
    return Matrix3(d->asDiagonal());
  }
  auto m = r.matrix(f, 3, "kg m²");
  if (!m) return std::nullopt;
  auto s = symmetric(r, f, *m);
  if (!s) return std::nullopt;
  const Matrix3 inertia = *s;
  Eigen::SelfAdjointEigenSolver<Matrix3> eigen(inertia, Eigen::EigenvaluesOnly);
  if (Eigen::LLT<Matrix3>(inertia).info() != Eigen::Success ||
      eigen.eigenvalues().minCoeff() <= 0.0) {
    r.error(f, "the inertia matrix is not positive definite (principal moments " +
                   list_text(eigen.eigenvalues()) + ")");
    return std::nullopt;
  }
  if (!realizable(r, f, eigen.eigenvalues())) return std::nullopt;
  return inertia;
}

// 6 diagonal values, or a full symmetric positive semi-definite 6×6 matrix.
std::optional<Matrix6> read_added_mass(Reader& r, const Field& f) {
  if (!f.present()) return std::nullopt;
  if (!Reader::is_list_of_rows(f)) {
    auto d = r.numbers(f, 6, Sign::non_negative, "");
    if (!d) return std::nullopt;
    return Matrix6(d->asDiagonal());
  }
  auto m = r.matrix(f, 6, "");
  if (!m) return std::nullopt;
  auto s = symmetric(r, f, *m);
  if (!s) return std::nullopt;
  const Matrix6 added = *s;
  Eigen::SelfAdjointEigenSolver<Matrix6> eigen(added, Eigen::EigenvaluesOnly);
  const double largest = eigen.eigenvalues().cwiseAbs().maxCoeff();
  if (eigen.eigenvalues().minCoeff() < -kSemiDefiniteSlack * largest) {
    r.error(f, "the added mass matrix is not positive semi-definite (eigenvalues " +
                   list_text(eigen.eigenvalues()) + ")");
    return std::nullopt;
  }
  return added;
}

}  // namespace

std::optional<Eigen::Quaterniond> read_quaternion(Reader& r, const Field& f) {
  auto q = r.numbers(f, 4, Sign::any, "");
  if (!q) return std::nullopt;
  const double norm = q->norm();
  if (norm <= kQuaternionZero) {
    r.error(f, "the quaternion [w, x, y, z] has zero norm");
    return std::nullopt;
  }
  // A typo should not be silently normalised away; rounding in the file is fine.
  if (std::abs(norm - 1.0) > kQuaternionUnitTolerance) {
    r.error(f, "not a unit quaternion: its norm is " + rounded(norm, 9) +
                   " (it must be 1 within 1e-6)");
    return std::nullopt;
  }
  return Eigen::Quaterniond((*q)[0], (*q)[1], (*q)[2], (*q)[3]).normalized();
}

namespace {

BodyInitialSpec read_initial(Reader& r, const Field& f) {
  BodyInitialSpec initial;
  if (!absent(f)) read_table(r, f, body_initial_table(), initial);
  return initial;
}

// A solid: exactly one of cylinder / box, plus its centre and drag coefficients. True if it
// was read without problems (only then are coefficients derived from it).
bool read_shape(Reader& r, const Field& f, ShapeSpec& shape) {
  const std::size_t before = r.diagnostics().size();
  const Mapping m = read_table(r, f, shape_table(), shape);
  if (!m.ok()) return false;
  if (!m.has("cylinder") && !m.has("box"))
    r.error(f, "expected the solid as 'cylinder: {radius, length}' or 'box: {size: [lx, ly, lz]}'");
  return r.diagnostics().size() == before;
}

bool is_diagonal(const Eigen::MatrixXd& m) {
  return (m - Eigen::MatrixXd(m.diagonal().asDiagonal())).cwiseAbs().maxCoeff() == 0.0;
}

// Fills in what the shape implies for every key the body does not give, and writes each
// derived value under the body's `derived` key so that resolved_yaml shows it. Explicit keys
// win. The derived values are never read back (body keys would freeze them: a later --set of
// the shape or the mass would not change them); a resolved scenario derives them again.
void derive_from_shape(const Mapping& m, const Field& item, const EnvironmentSpec& env,
                       bool mass_known, BodySpec& b) {
  YAML::Node derived(YAML::NodeType::Map);
  const ShapeSpec& shape = b.shape;
  const Vector3& center = shape.center_B;
  if (!m.has("volume")) {
    b.volume = model::shape_volume(shape);
    derived["volume"] = yaml_number(b.volume);
  }
  if (!m.has("center_of_gravity")) {
    b.p_BoBcm_B = center;
    derived["center_of_gravity"] = yaml_list(center);
  }
  if (!m.has("center_of_buoyancy")) {
    b.p_BoBcb_B = center;
    derived["center_of_buoyancy"] = yaml_list(center);
  }
  // Damping identified for the body (either kind given) acts at the body origin, Fossen's
  // CO, unless center_of_drag says otherwise; only drag derived from the shape acts at the
  // shape's centre.
  const bool damping_given = m.has("linear_damping") || m.has("quadratic_damping");
  if (!m.has("center_of_drag") && !damping_given) {
    b.p_BoBcd_B = center;
    derived["center_of_drag"] = yaml_list(center);
  }
  if (!m.has("quadratic_damping")) {
    b.quadratic_damping = model::shape_quadratic_drag(shape, env.water_density);
    derived["quadratic_damping"] = yaml_list(b.quadratic_damping);
  }
  if (mass_known) {  // else the missing or invalid mass is reported already
    if (!m.has("inertia")) {
      b.inertia_Bcm_B = model::homogeneous_inertia(shape, b.mass);
      derived["inertia"] = is_diagonal(b.inertia_Bcm_B) ? yaml_list(b.inertia_Bcm_B.diagonal())
                                                        : yaml_rows(b.inertia_Bcm_B);
    }
    if (!m.has("added_mass")) {
      const Matrix6 added = model::shape_added_mass(shape, b.mass, env.water_density);
      // Exactly symmetric, as reading the matrix would make it.
      b.added_mass_B = 0.5 * (added + added.transpose());
      derived["added_mass"] = is_diagonal(b.added_mass_B) ? yaml_list(b.added_mass_B.diagonal())
                                                          : yaml_rows(b.added_mass_B);
    }
  }
  YAML::Node node = item.value;  // shares the tree: changes show in resolved_yaml
  node.remove("derived");  // the stale values of a resolved scenario
  if (derived.size() > 0) node["derived"] = derived;
}

}  // namespace

const Table<BodyInitialSpec>& body_initial_table() {
  static const auto table = make_table<BodyInitialSpec>(
      "Initial state of a free body (one that is not the child of a joint; a jointed body takes its state from its joint, and giving it `initial` is an error). Give the attitude as rpy or as quaternion, not both; default identity",
      {vector("position", &BodyInitialSpec::p_WB_W, Sign::any, "m", "Initial position of the body origin in the NED world frame (m); z is depth"),
       custom<BodyInitialSpec>(
           "rpy", "Initial attitude as [roll, pitch, yaw] (rad), ZYX convention: R = Rz(yaw)·Ry(pitch)·Rx(roll), body → NED",
           R"({"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3, "default": [0.0, 0.0, 0.0]})",
           [](Reader& r, const Field& f, BodyInitialSpec& initial) {
             if (auto a = r.numbers(f, 3, Sign::any, "rad")) {
               const spatial::Quat q = spatial::quaternion_from_euler_zyx((*a)[0], (*a)[1], (*a)[2]);
               initial.q_WB = Eigen::Quaterniond(q[0], q[1], q[2], q[3]);
             }
           }),
       custom<BodyInitialSpec>(
           "quaternion", "Initial attitude as a unit quaternion [w, x, y, z], body → NED; its norm must be 1 within 1e-6",
           R"({"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4, "default": [1.0, 0.0, 0.0, 0.0]})",
           [](Reader& r, const Field& f, BodyInitialSpec& initial) {
             if (auto q = read_quaternion(r, f)) initial.q_WB = *q;
           }),
       vector("velocity", &BodyInitialSpec::nu_B, Sign::any, "m/s, rad/s",
              "Initial body-frame velocity [u v w p q r] (m/s, rad/s)")},
      {{"the attitude", {"rpy", "quaternion"}}}, true);
  return table;
}

const Table<ShapeSpec>& cylinder_table() {
  static const auto table = make_table<ShapeSpec>(
      "A circular cylinder whose axis is the body x axis, or the body axis `axis` names",
      {number("radius", &ShapeSpec::radius, Sign::positive, "m", "Radius").needed().no_default(),
       number("length", &ShapeSpec::length, Sign::positive, "m", "Length along its axis (m)").needed().no_default(),
       choice("axis", &ShapeSpec::axis, {{"x", 0}, {"y", 1}, {"z", 2}}, "The body axis the cylinder lies along (a URDF link's cylinders often lie along z)")});
  return table;
}

const Table<ShapeSpec>& box_table() {
  static const auto table = make_table<ShapeSpec>(
      "A rectangular box with edges along the body axes",
      {vector("size", &ShapeSpec::size, Sign::positive, "m", "Edge lengths [lx, ly, lz] along the body x, y, z axes (m), each > 0")
           .needed()
           .no_default()});
  return table;
}

const Table<ShapeSpec>& shape_table() {
  static const auto table = make_table<ShapeSpec>(
      "A simple solid the body's missing coefficients are derived from (volume, centres, inertia, added mass, "
      "quadratic damping); keys the body gives explicitly win, and the derived values are written into the "
      "resolved scenario under the body's `derived` key (never read back: they are derived again, so a --set "
      "of the shape or the mass takes effect). Exactly one of cylinder or box",
      {sub_table<ShapeSpec>("cylinder", "A cylinder", &cylinder_table,
                        [](Reader& r, const Field& f, ShapeSpec& shape) {
                          if (read_table(r, f, cylinder_table(), shape).ok()) shape.kind = ShapeSpec::Kind::cylinder;
                        }),
       sub_table<ShapeSpec>("box", "A box", &box_table,
                        [](Reader& r, const Field& f, ShapeSpec& shape) {
                          if (read_table(r, f, box_table(), shape).ok()) shape.kind = ShapeSpec::Kind::box;
                        }),
       vector("center", &ShapeSpec::center_B, Sign::any, "m", "Centre of the solid from the body origin, body axes (m)"),
       vector("drag_coefficients", &ShapeSpec::drag_coefficients, Sign::non_negative, "",
              "Drag coefficients [C_x, C_y, C_z] for flow along the body x, y, z axes (dimensionless), each ≥ 0")},
      {{"the solid", {"cylinder", "box"}, true}});
  return table;
}

namespace {

// A body's name: written to the output file as an HDF5 group path (check_name_text).
constexpr std::string_view kBodyNameSchema =
    R"({"type": "string", "minLength": 1, "not": {"const": "world"}, "pattern": "^(?!\\.\\.?(/|$))(?!.*/\\.\\.?(/|$))[^/\\u0000-\\u001f\\u007f]+(/[^/\\u0000-\\u001f\\u007f]+)*$", "maxLength": 255})";

// The coefficients a body gives or its shape derives (and `derived` holds), one row each.
std::vector<Row<BodySpec>> coefficient_rows() {
  return {
      custom<BodySpec>(
          "inertia",
          "Rotational inertia about the centre of gravity, in body axes (kg m²): either the 3 principal moments "
          "[Ixx, Iyy, Izz] (each > 0) or a full symmetric positive-definite 3×3 matrix as a list of 3 rows. With a "
          "`shape` and this key absent: that of a homogeneous solid of the shape's form and the body's mass, about "
          "its centre. Required when there is no shape",
          kInertiaSchema,
          [](Reader& r, const Field& f, BodySpec& b) {
            if (auto inertia = read_inertia(r, f)) b.inertia_Bcm_B = *inertia;
          }),
      vector("center_of_gravity", &BodySpec::p_BoBcm_B, Sign::any, "m",
             "Centre of gravity from the body origin, body axes (m). With a `shape` and this key absent: the "
             "shape's center"),
      vector("center_of_buoyancy", &BodySpec::p_BoBcb_B, Sign::any, "m",
             "Centre of buoyancy from the body origin, body axes (m). With a `shape` and this key absent: the "
             "shape's center"),
      vector("center_of_drag", &BodySpec::p_BoBcd_B, Sign::any, "m",
             "Centre of drag from the body origin, body axes (m): where the linear and quadratic damping act. "
             "With a `shape`, this key absent and neither `linear_damping` nor `quadratic_damping` given: the "
             "shape's center (the drag is the shape's). When damping coefficients are given they are taken as "
             "identified at the body origin (Fossen's CO), so the default stays [0, 0, 0]"),
      number("volume", &BodySpec::volume, Sign::non_negative, "m³",
             "Displaced volume (m³); buoyancy = water_density · gravity · volume. With a `shape` and this key "
             "absent: the shape's volume"),
      custom<BodySpec>(
          "added_mass",
          "Added mass at the body origin in Fossen order [u v w p q r] (kg, kg m, kg m²): either the 6 diagonal "
          "values (each ≥ 0) or a full symmetric positive semi-definite 6×6 matrix as a list of 6 rows. With a "
          "`shape` and this key absent: derived from the shape (cylinder: slender-body values moved from the "
          "shape centre to the body origin; box: none, give it explicitly)",
          kAddedMassSchema,
          [](Reader& r, const Field& f, BodySpec& b) {
            if (auto added = read_added_mass(r, f)) b.added_mass_B = *added;
          })
          .with_default("[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]"),
      vector("quadratic_damping", &BodySpec::quadratic_damping, Sign::non_negative, "",
             "Quadratic damping magnitudes in Fossen order [u v w p q r] (N s²/m² for translation, N m s²/rad² "
             "for rotation), each ≥ 0. They act at center_of_drag. With a `shape` and this key absent: ½ρ·C_d·A "
             "per axis from the shape, its drag_coefficients and the water density (strip theory for rotation)"),
  };
}

}  // namespace

const Table<BodySpec>& derived_table() {
  static const auto table = [] {
    // The body's keys, each with what it holds here (no default: the shape gives every one).
    const std::map<std::string_view, std::string_view> held = {
        {"inertia", "Inertia about the centre of gravity, body axes (kg m²)"},
        {"center_of_gravity", "Centre of gravity from the body origin"},
        {"center_of_buoyancy", "Centre of buoyancy from the body origin"},
        {"center_of_drag", "Where the damping acts, from the body origin"},
        {"volume", "Displaced volume"},
        {"added_mass", "Added mass at the body origin, Fossen order"},
        {"quadratic_damping", "Quadratic damping magnitudes, Fossen order"}};
    std::vector<Row<BodySpec>> rows = coefficient_rows();
    for (Row<BodySpec>& row : rows) {
      if (auto it = held.find(row.info.key); it != held.end()) row.info.doc = it->second;  // else the body's
      row = std::move(row).no_default();
    }
    return make_table<BodySpec>(
        "Written by sim into result files: values derived from `shape`. Ignored when read, re-derived from the "
        "shape (a --set into it is an error: set the body's own key to override the shape)",
        std::move(rows), {}, true);
  }();
  return table;
}

// Every key of a body but `name`: those a manipulator's link shares. `shape`, `visual`,
// `initial` and `derived` are read by read_body_properties (what they imply reaches across
// keys); the table documents them.
const Table<BodySpec>& body_property_table() {
  static const auto table = [] {
    std::vector<Row<BodySpec>> rows;
    rows.push_back(number("mass", &BodySpec::mass, Sign::positive, "kg", "Dry mass (kg)").needed().no_default());
    for (Row<BodySpec>& row : coefficient_rows()) {
      // Linear damping (a body's own: no shape derives it) before quadratic.
      if (row.info.key == "quadratic_damping")
        rows.push_back(vector("linear_damping", &BodySpec::linear_damping, Sign::non_negative, "",
                              "Linear damping magnitudes in Fossen order [u v w p q r] (N s/m for translation, N "
                              "m s/rad for rotation), each ≥ 0. They act at center_of_drag"));
      rows.push_back(std::move(row));
    }
    rows.push_back(sub_table<BodySpec, ShapeSpec>("shape", "", &shape_table, {}));
    rows.push_back(list_of<BodySpec>(
        "visual",
        "What `sim replay` draws for the body instead of its `shape` or the box of its inertia: a list of solids "
        "in the body frame. Never read by the model (no mass, buoyancy or drag comes from it). A URDF part's "
        "<visual> elements become this list",
        &visual_item_info, {}));
    rows.push_back(sub_table<BodySpec, BodySpec>("derived", "", &derived_table, {}));
    rows.push_back(sub_table<BodySpec, BodyInitialSpec>("initial", "", &body_initial_table, {}));
    Table<BodySpec> t = make_table<BodySpec>("", std::move(rows));
    t.describe.one_needed = {{"inertia", "shape"}};
    return t;
  }();
  return table;
}

const Table<BodySpec>& body_table() {
  static const auto table = [] {
    std::vector<Row<BodySpec>> rows;
    rows.push_back(by_hand<BodySpec>(
                       "name",
                       "Unique body name; forces, joints and --set address the body by it. 'world' is reserved. "
                       "Written to the output file as an HDF5 group path: '/'-separated non-empty parts (no "
                       "leading or trailing '/', no '//'), no part '.' or '..', no control characters. No body name "
                       "may begin with another body's name and '/' (`rov` and `rov/hull`), counting the names "
                       "manipulators expand to",
                       kBodyNameSchema)
                       .needed());
    for (const Row<BodySpec>& row : body_property_table().rows) rows.push_back(row);
    Table<BodySpec> t = make_table<BodySpec>(
        "A rigid body. Body frame B: x forward, y starboard, z down (SNAME). Give `inertia`, or a `shape` to "
        "derive it from",
        std::move(rows));
    t.describe.one_needed = body_property_table().describe.one_needed;
    return t;
  }();
  return table;
}

const std::vector<std::string>& body_keys() {
  static const std::vector<std::string> keys = body_table().keys();
  return keys;
}

void read_body_properties(Reader& r, Mapping& m, const Field& item, const EnvironmentSpec& env,
                          BodySpec& b, BodySource& source) {
  source.item = item;
  const Field shape = m.get("shape");
  read_rows(r, m, item, body_property_table(), b);
  // With a shape the inertia defaults to that of a homogeneous solid.
  if (!shape.present()) m.require("inertia");
  const bool mass_known = b.mass > 0.0;  // else the missing or invalid mass is reported
  const bool shape_ok = shape.present() && read_shape(r, shape, b.shape);
  b.visuals = read_visuals(r, m.get("visual"));
  source.initial = m.get("initial");
  b.initial = read_initial(r, source.initial);
  // `derived` (written into result files) is ignored: the values are derived again below.
  // A --set into it would silently do nothing, so that is an error.
  const Field derived = m.get("derived");
  if (!absent(derived)) {
    // Checked as the body's own keys are, never used.
    BodySpec ignored;
    read_table(r, derived, derived_table(), ignored);
  }
  if (derived.present()) {
    if (auto set = r.override_at_or_below(derived.path)) {
      std::string message(*set);
      message += ": values under 'derived' are ignored when read (they are derived again "
                 "from the shape); set the body's own key instead (the same path without "
                 "'derived')";
      r.report(derived.key.Mark(), *set, message);
    }
  }
  if (shape_ok) {
    derive_from_shape(m, item, env, mass_known, b);
  } else if (derived.present() && !shape.present()) {
    YAML::Node node = item.value;
    node.remove("derived");  // nothing is derived without a shape: drop the stale values
  }
}

void read_bodies(Reader& reader, const Field& field, const EnvironmentSpec& env, Assembly& out) {
  if (absent(field)) return;
  auto items = reader.sequence(field);
  if (!items) return;
  for (const Field& item : *items) {
    BodySpec b;
    BodySource source{item, Field{}, NameSource{}};
    Mapping m(reader, item, body_keys());
    if (m.ok()) {
      const Field name = m.require("name");
      source.name.at = name;
      if (auto s = reader.string(name); s && check_name_text(reader, name, *s)) {
        if (*s == kWorld) {
          reader.error(name, "'world' names the fixed world frame (a joint parent); choose "
                             "another body name");
        } else if (auto [it, fresh] = out.body_names.emplace(*s, item.path); !fresh) {
          reader.error(name, "duplicate body name '" + *s + "' (also " + it->second + ")");
        } else {
          b.name = *s;
        }
      }
      read_body_properties(reader, m, item, env, b, source);
    }
    out.bodies.push_back(std::move(b));
    out.body_sources.push_back(std::move(source));
  }
}

}  // namespace uwsim::scenario
