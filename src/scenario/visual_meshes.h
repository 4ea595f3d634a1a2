// The mesh files of a scenario's visuals (model/spec.h, VisualSpec), read when the scenario is
// loaded from its own file (load_scenario), never from a text (load_scenario_text: a scenario
// stored in a result file is data, and no file it names is opened). `sim run` stores the
// triangles in the result file (/visuals), so that `sim replay` reads nothing but that file.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/spec.h"
#include "scenario/load_scenario.h"

namespace uwsim::scenario {

// A mesh file is at most 16 MiB (an STL file of some 330 000 triangles). A replay page draws
// at most kMeshTriangles of each mesh, and of n > kVisualTriangles / kMeshTriangles meshes
// kVisualTriangles / n each (at least kFewestMeshTriangles): finer meshes are decimated
// (mesh_files.h), so that a page stays a few MB.
inline constexpr std::size_t kMaxMeshBytes = std::size_t{16} << 20;
inline constexpr std::size_t kMeshTriangles = 10000;
inline constexpr std::size_t kVisualTriangles = 100000;
inline constexpr std::size_t kFewestMeshTriangles = 100;

// Fills the vertices and triangles of every mesh visual of `bodies`: the file (absolute, or
// relative to the folder of `scenario_file`) read as STL (.stl) or Collada (.dae), scaled,
// and decimated to the budget above. Problems go to `out`: a file that cannot be read at its
// `file` key (VisualSpec::line and column, in `scenario_file`'s text as the loader numbers
// it), a bad file's content at its own line. Each file read is appended to `files_read`.
void read_visual_meshes(std::vector<model::BodySpec>& bodies, const std::string& scenario_file,
                        std::vector<Diagnostic>& out, std::vector<std::string>& files_read);

}  // namespace uwsim::scenario
