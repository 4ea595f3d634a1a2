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

#include "scenario/sections.h"

namespace uwsim::scenario {
namespace {

constexpr double kSymmetryTolerance = 1e-9;   // relative to the largest entry
constexpr double kSemiDefiniteSlack = 1e-9;   // relative to the largest eigenvalue
constexpr double kQuaternionZero = 1e-9;
constexpr double kQuaternionUnitTolerance = 1e-6;

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

BodyInitialSpec read_initial(Reader& r, const Field& f) {
  BodyInitialSpec initial;
  if (!f.present() || f.value.IsNull()) return initial;
  Mapping m(r, f, {"position", "rpy", "quaternion", "velocity"});
  if (!m.ok()) return initial;
  m.read("position", initial.p_WB_W, Sign::any, "m");
  m.read("velocity", initial.nu_B, Sign::any, "m/s, rad/s");
  const Field rpy = m.get("rpy");
  const Field quaternion = m.get("quaternion");
  if (rpy.present() && quaternion.present()) {
    r.report(quaternion.key.Mark(), quaternion.path,
             f.path + ": give the attitude either as 'rpy' or as 'quaternion', not both");
    return initial;
  }
  if (rpy.present()) {
    // ZYX convention: R = Rz(yaw)·Ry(pitch)·Rx(roll), body → NED.
    if (auto a = r.numbers(rpy, 3, Sign::any, "rad"))
      initial.q_WB = Eigen::AngleAxisd((*a)[2], Vector3::UnitZ()) *
                     Eigen::AngleAxisd((*a)[1], Vector3::UnitY()) *
                     Eigen::AngleAxisd((*a)[0], Vector3::UnitX());
  } else if (quaternion.present()) {
    if (auto q = read_quaternion(r, quaternion)) initial.q_WB = *q;
  }
  return initial;
}

BodySpec read_body(Reader& r, const Field& f, std::map<std::string, std::string>& names) {
  BodySpec b;
  Mapping m(r, f,
            {"name", "mass", "inertia", "center_of_gravity", "center_of_buoyancy", "volume",
             "added_mass", "linear_damping", "quadratic_damping", "initial"});
  if (!m.ok()) return b;
  const Field name = m.require("name");
  if (auto s = r.string(name)) {
    if (s->empty()) {
      r.error(name, "expected a non-empty name");
    } else if (auto [it, fresh] = names.emplace(*s, f.path); !fresh) {
      r.error(name, "duplicate body name '" + *s + "' (also " + it->second + ")");
    } else {
      b.name = *s;
    }
  }
  m.read("mass", b.mass, Sign::positive, "kg", true);
  if (auto inertia = read_inertia(r, m.require("inertia"))) b.inertia_Bcm_B = *inertia;
  m.read("center_of_gravity", b.p_BoBcm_B, Sign::any, "m");
  m.read("center_of_buoyancy", b.p_BoBcb_B, Sign::any, "m");
  m.read("volume", b.volume, Sign::non_negative, "m³");
  if (auto added = read_added_mass(r, m.get("added_mass"))) b.added_mass_B = *added;
  m.read("linear_damping", b.linear_damping, Sign::non_negative, "");
  m.read("quadratic_damping", b.quadratic_damping, Sign::non_negative, "");
  b.initial = read_initial(r, m.get("initial"));
  return b;
}

}  // namespace

std::vector<BodySpec> read_bodies(Reader& reader, const Field& field) {
  std::vector<BodySpec> bodies;
  auto items = reader.sequence(field);
  if (!items) return bodies;
  if (items->empty()) reader.error(field, "expected at least one body");
  std::map<std::string, std::string> names;  // name → path of the body that has it
  for (const Field& item : *items) bodies.push_back(read_body(reader, item, names));
  return bodies;
}

}  // namespace uwsim::scenario
