#include "app/visual_output.h"

#include <string>

#include "spatial/rotation.h"

namespace uwsim::app {

void write_visuals(output::Hdf5File& file, const std::vector<model::BodySpec>& bodies) {
  for (const model::BodySpec& body : bodies) {
    if (body.visuals.empty()) continue;
    const std::string group = "/visuals/" + body.name + "/";
    const auto shapes = file.add_series(
        group + "shapes", kVisualColumns, "1, m, m, m, m, m, m, 1, 1, 1, 1, 1, 1, 1, 1",
        "solids sim replay draws for the body: kind (1 box, 2 cylinder along z, 3 sphere, 4 mesh), size "
        "(box edges; cylinder radius, length; sphere radius), frame in the body frame, colour (red -1: the body's)",
        {"kind", "size_x", "size_y", "size_z", "x", "y", "z", "qw", "qx", "qy", "qz", "red", "green", "blue", "opacity"});
    for (std::size_t k = 0; k < body.visuals.size(); ++k) {
      const model::VisualSpec& v = body.visuals[k];
      spatial::Quat q = spatial::quaternion_from_rotation(v.R_BV);
      if (q[0] < 0) q = -q;
      const double row[kVisualColumns] = {static_cast<double>(v.kind), v.size.x(), v.size.y(), v.size.z(),
                                          v.p_BV_B.x(), v.p_BV_B.y(), v.p_BV_B.z(), q[0], q[1], q[2], q[3],
                                          v.rgba[0], v.rgba[1], v.rgba[2], v.rgba[3]};
      file.append(shapes, row);
      if (v.kind != model::VisualSpec::Kind::mesh || v.triangles.empty()) continue;
      const std::string mesh = group + "mesh" + std::to_string(k) + "/";
      const auto vertices = file.add_series(mesh + "vertices", 3, "m", "mesh vertices in the solid's frame (scaled)",
                                            {"x", "y", "z"});
      for (const Eigen::Vector3d& p : v.vertices) file.append(vertices, p.data());
      const auto triangles = file.add_series(mesh + "triangles", 3, "1",
                                             "triangles: indices of their vertices from 0, counter-clockwise seen from outside",
                                             {"a", "b", "c"});
      for (const Eigen::Vector3i& t : v.triangles) {
        const double corners[3] = {static_cast<double>(t[0]), static_cast<double>(t[1]), static_cast<double>(t[2])};
        file.append(triangles, corners);
      }
    }
  }
}

}  // namespace uwsim::app
