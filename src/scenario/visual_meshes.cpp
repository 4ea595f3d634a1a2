#include "scenario/visual_meshes.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

#include "scenario/mesh_files.h"
#include "scenario/read_file.h"

namespace uwsim::scenario {
namespace {

namespace fs = std::filesystem;

std::string lower_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

// One mesh file, read once however many visuals name it; nullopt after reporting.
std::optional<Mesh> read_mesh_file(const fs::path& path, const model::VisualSpec& v, const std::string& scenario_file,
                                   const std::string& body, std::vector<Diagnostic>& out) {
  const auto problem = [&](const std::string& what) {
    out.push_back(Diagnostic{scenario_file, v.line, v.column,
                             "body '" + body + "': visual mesh '" + v.mesh_file + "': " + what});
    return std::nullopt;
  };
  const std::string ext = lower_extension(path);
  if (ext != ".stl" && ext != ".dae") return problem("mesh files are STL (.stl) or Collada (.dae)");
  std::string why;
  std::optional<std::string> bytes = read_input_file(path.string(), why, kMaxMeshBytes);
  if (!bytes) {
    std::error_code ec;
    return problem("cannot read " + path.string() + ": " + why +
                   (why == "no such file" ? " (looked for " + fs::absolute(path, ec).lexically_normal().string() +
                                                "; a mesh file is relative to the file that names it)"
                                          : ""));
  }
  if (ext == ".stl") {
    std::optional<Mesh> mesh = read_stl(*bytes, why);
    if (!mesh) return problem("not a readable STL file: " + why);
    if (mesh->triangles.empty()) return problem("the STL file has no triangles");
    return mesh;
  }
  normalize_line_ends(*bytes);
  return read_collada(path.string(), *bytes, out);
}

}  // namespace

void read_visual_meshes(std::vector<model::BodySpec>& bodies, const std::string& scenario_file,
                        std::vector<Diagnostic>& out, std::vector<std::string>& files_read) {
  std::map<std::string, std::optional<Mesh>> meshes;  // by path as opened
  std::size_t count = 0;
  for (model::BodySpec& body : bodies)
    for (model::VisualSpec& v : body.visuals) {
      if (v.kind != model::VisualSpec::Kind::mesh || v.mesh_file.empty()) continue;
      ++count;
      const fs::path named(v.mesh_file);
      const fs::path path = named.is_absolute() ? named : fs::path(scenario_file).parent_path() / named;
      auto [it, fresh] = meshes.try_emplace(path.string());
      if (fresh) {
        it->second = read_mesh_file(path, v, scenario_file, body.name, out);
        if (it->second) files_read.push_back(path.string());
      }
      if (!it->second) continue;
      v.vertices = it->second->vertices;
      for (Eigen::Vector3d& p : v.vertices) p = p.cwiseProduct(v.scale);
      v.triangles = it->second->triangles;
    }
  const std::size_t budget =
      count == 0 ? kMeshTriangles : std::clamp(kVisualTriangles / count, kFewestMeshTriangles, kMeshTriangles);
  for (model::BodySpec& body : bodies)
    for (model::VisualSpec& v : body.visuals) {
      if (v.triangles.size() <= budget) continue;
      Mesh mesh{std::move(v.vertices), std::move(v.triangles)};
      mesh = decimated(mesh, budget);
      v.vertices = std::move(mesh.vertices);
      v.triangles = std::move(mesh.triangles);
    }
}

}  // namespace uwsim::scenario
