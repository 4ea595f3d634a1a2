// Triangle meshes from the files a visual names (STL, Collada), and their decimation to the
// budget a replay page draws. Plain geometry: no scenario, no model.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstddef>
#include <unordered_map>
#include <optional>
#include <string>
#include <vector>

#include "scenario/load_scenario.h"

namespace uwsim::scenario {

struct Mesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<Eigen::Vector3i> triangles;  // indices into vertices, counter-clockwise from outside
};

// Collects corners, one vertex per distinct point, and the triangles between them (those with
// two equal corners dropped).
class MeshBuilder {
 public:
  int vertex(const Eigen::Vector3d& p);  // p finite
  void triangle(int a, int b, int c);
  Mesh take() { return std::move(mesh_); }

 private:
  struct PointHash {
    std::size_t operator()(const std::array<double, 3>& p) const;
  };
  std::unordered_map<std::array<double, 3>, int, PointHash> index_;
  Mesh mesh_;
};

// An STL file's bytes, binary or ASCII (a binary file may start with "solid" too: it is told
// by its length, 84 + 50 bytes per triangle), in the file's own units. Equal corners become one
// vertex; triangles with two equal corners are dropped. Nothing with the reason in `why`.
std::optional<Mesh> read_stl(const std::string& bytes, std::string& why);

// A Collada (.dae) document's geometry as its <scene> places it (or, without a scene, every
// geometry as it stands), in metres (<unit meter>). <up_axis> is not applied: URDF tools (RViz,
// Gazebo) take a mesh's coordinates as its link's, whatever the tag says. Polygons
// (<triangles>, <polylist>, <polygons>) are split into fans; materials and textures are not
// read. Problems go to `out` at their line and column in `file`; nothing if there was any.
std::optional<Mesh> read_collada(const std::string& file, const std::string& text, std::vector<Diagnostic>& out);

// The mesh with at most `budget` triangles: vertex clustering on a grid (Rossignac & Borrel
// 1993) with the finest cell that meets the budget; each cell's vertices merge at their mean,
// and triangles that collapse or repeat are dropped. A mesh within the budget is returned as
// it is.
Mesh decimated(const Mesh& mesh, std::size_t budget);

}  // namespace uwsim::scenario
