#include "scenario/mesh_files.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <unordered_set>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace uwsim::scenario {

std::size_t MeshBuilder::PointHash::operator()(const std::array<double, 3>& p) const {
  std::size_t h = 0;
  for (const double x : p) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    h = (h ^ bits) * 0x100000001b3ULL;  // FNV-style mixing of the bit patterns
  }
  return h ^ (h >> 29);
}

int MeshBuilder::vertex(const Eigen::Vector3d& p) {
  // + 0.0 makes −0 into +0: equal points, equal bits.
  const std::array<double, 3> key = {p.x() + 0.0, p.y() + 0.0, p.z() + 0.0};
  const auto [it, fresh] = index_.emplace(key, static_cast<int>(mesh_.vertices.size()));
  if (fresh) mesh_.vertices.push_back(p);
  return it->second;
}

void MeshBuilder::triangle(int a, int b, int c) {
  if (a != b && b != c && a != c) mesh_.triangles.emplace_back(a, b, c);
}

namespace {

std::uint32_t little_endian_u32(const unsigned char* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}

float little_endian_float(const unsigned char* p) {
  const std::uint32_t bits = little_endian_u32(p);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

std::optional<Mesh> read_binary_stl(const std::string& bytes, std::size_t count, std::string& why) {
  MeshBuilder builder;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  for (std::size_t t = 0; t < count; ++t) {
    const unsigned char* record = data + 84 + 50 * t + 12;  // after the facet normal
    int corner[3];
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3d p(little_endian_float(record + 12 * k), little_endian_float(record + 12 * k + 4),
                              little_endian_float(record + 12 * k + 8));
      if (!p.allFinite()) {
        why = "triangle " + std::to_string(t + 1) + " has a corner that is not a finite number";
        return std::nullopt;
      }
      corner[k] = builder.vertex(p);
    }
    builder.triangle(corner[0], corner[1], corner[2]);
  }
  return builder.take();
}

std::optional<Mesh> read_ascii_stl(const std::string& bytes, std::string& why) {
  std::istringstream words(bytes);
  std::string word;
  MeshBuilder builder;
  std::vector<int> loop;
  std::size_t facets = 0;
  while (words >> word) {
    if (word == "vertex") {
      Eigen::Vector3d p;
      if (!(words >> p.x() >> p.y() >> p.z()) || !p.allFinite()) {
        why = "facet " + std::to_string(facets + 1) + ": expected three numbers after 'vertex'";
        return std::nullopt;
      }
      loop.push_back(builder.vertex(p));
    } else if (word == "endloop") {
      if (loop.size() != 3) {
        why = "facet " + std::to_string(facets + 1) + " has " + std::to_string(loop.size()) + " vertices, not 3";
        return std::nullopt;
      }
      builder.triangle(loop[0], loop[1], loop[2]);
      loop.clear();
      ++facets;
    }
  }
  if (facets == 0) {
    why = "neither a binary STL file (84 bytes and 50 per triangle) nor an ASCII one (no 'facet … endloop')";
    return std::nullopt;
  }
  return builder.take();
}

}  // namespace

std::optional<Mesh> read_stl(const std::string& bytes, std::string& why) {
  if (bytes.size() >= 84) {
    const std::size_t count = little_endian_u32(reinterpret_cast<const unsigned char*>(bytes.data()) + 80);
    if (bytes.size() == 84 + 50 * count) return read_binary_stl(bytes, count, why);
  }
  return read_ascii_stl(bytes, why);
}

namespace {

using Cell = std::array<long, 3>;

struct CellHash {
  std::size_t operator()(const Cell& c) const {
    return static_cast<std::size_t>(c[0] * 73856093L ^ c[1] * 19349663L ^ c[2] * 83492791L);
  }
};

// The mesh clustered on a grid of `cells` cells along the longest side of its bounding box.
Mesh clustered(const Mesh& mesh, long cells) {
  Eigen::Vector3d low = mesh.vertices.front(), high = low;
  for (const auto& v : mesh.vertices) {
    low = low.cwiseMin(v);
    high = high.cwiseMax(v);
  }
  const double edge = std::max((high - low).maxCoeff(), 1e-300) / static_cast<double>(cells);
  std::unordered_map<Cell, int, CellHash> cluster_of_cell;
  std::vector<int> cluster(mesh.vertices.size());
  std::vector<Eigen::Vector3d> sums;
  std::vector<int> members;
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Eigen::Vector3d g = (mesh.vertices[i] - low) / edge;
    const Cell c = {std::min(static_cast<long>(g.x()), cells - 1), std::min(static_cast<long>(g.y()), cells - 1),
                    std::min(static_cast<long>(g.z()), cells - 1)};
    const auto [it, fresh] = cluster_of_cell.emplace(c, static_cast<int>(sums.size()));
    if (fresh) {
      sums.push_back(Eigen::Vector3d::Zero());
      members.push_back(0);
    }
    cluster[i] = it->second;
    sums[static_cast<std::size_t>(it->second)] += mesh.vertices[i];
    ++members[static_cast<std::size_t>(it->second)];
  }
  Mesh out;
  for (std::size_t k = 0; k < sums.size(); ++k) out.vertices.push_back(sums[k] / members[k]);
  std::unordered_set<std::uint64_t> seen;  // each triangle's corners, sorted, in 21 bits each
  const bool packable = sums.size() < (std::size_t{1} << 21);
  std::set<std::array<int, 3>> seen_wide;
  for (const Eigen::Vector3i& t : mesh.triangles) {
    const int a = cluster[static_cast<std::size_t>(t[0])], b = cluster[static_cast<std::size_t>(t[1])],
              c = cluster[static_cast<std::size_t>(t[2])];
    if (a == b || b == c || a == c) continue;
    std::array<int, 3> key = {a, b, c};
    std::sort(key.begin(), key.end());
    const bool fresh = packable ? seen.insert(std::uint64_t(key[0]) << 42 | std::uint64_t(key[1]) << 21 | std::uint64_t(key[2])).second
                                : seen_wide.insert(key).second;
    if (fresh) out.triangles.emplace_back(a, b, c);
  }
  return out;
}

}  // namespace

Mesh decimated(const Mesh& mesh, std::size_t budget) {
  if (mesh.triangles.size() <= budget || mesh.vertices.empty()) return mesh;
  // The finest grid within the budget, to 10 % in its cell, by bisection on the logarithm of
  // the cells along the longest side (the count grows with the cells, if not strictly: the
  // result is always within the budget).
  long coarse = 1, fine = 1 << 12;
  Mesh best = clustered(mesh, coarse);
  while (fine > coarse + 1 && 10 * fine > 11 * coarse) {
    const long middle = std::lround(std::sqrt(static_cast<double>(coarse) * static_cast<double>(fine)));
    Mesh candidate = clustered(mesh, middle);
    if (candidate.triangles.size() <= budget) {
      coarse = middle;
      best = std::move(candidate);
    } else {
      fine = middle;
    }
  }
  return best;
}

}  // namespace uwsim::scenario
