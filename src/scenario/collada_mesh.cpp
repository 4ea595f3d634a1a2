// Collada 1.4/1.5 (.dae) geometry as mesh_files.h says: the document is parsed with TinyXML
// (which keeps each element's line and column), the <scene>'s node tree walked with its
// transforms, and the polygons of each instanced geometry collected in metres.
#include <tinyxml.h>

#include <Eigen/Geometry>
#include <cctype>
#include <charconv>
#include <cstring>
#include <cmath>
#include <map>

#include "scenario/mesh_files.h"
#include "scenario/printable.h"
#include "scenario/urdf_tree.h"

namespace uwsim::scenario {
namespace {

constexpr int kMaxElementDepth = 64;     // a scene graph rarely nests a dozen deep
constexpr int kMaxAttributes = 100;      // <input> has four; TinyXML is quadratic in them (urdf_tree.h)
constexpr int kMaxInstanceDepth = 32;    // instance_node chains

using Matrix4 = Eigen::Matrix4d;

// Numbers separated by white space; nullopt at the first word that is not one.
std::optional<std::vector<double>> numbers_of(const char* text) {
  std::vector<double> out;
  if (text == nullptr) return out;
  const char* p = text;
  const char* end = text + std::strlen(text);
  while (p < end) {
    while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
    if (p == end) break;
    const char* word = p;
    while (p < end && !std::isspace(static_cast<unsigned char>(*p))) ++p;
    double x = 0.0;
    const auto [stop, ec] = std::from_chars(word, p, x);
    if (ec != std::errc() || stop != p || !std::isfinite(x)) return std::nullopt;
    out.push_back(x);
  }
  return out;
}

class ColladaReader {
 public:
  ColladaReader(const std::string& file, std::vector<Diagnostic>& out) : file_(file), out_(out) {}

  std::optional<Mesh> read(const std::string& text) {
    if (const auto shape = urdf::xml_shape_problem(text, kMaxElementDepth, kMaxAttributes)) {
      report_at(shape->at.line, shape->at.column,
                shape->too_deep ? "elements nested more than " + std::to_string(kMaxElementDepth) + " deep"
                                : "an element with " + std::to_string(shape->attributes) + " attributes; at most " +
                                      std::to_string(kMaxAttributes));
      return std::nullopt;
    }
    TiXmlDocument document;
    document.SetTabSize(1);
    document.Parse(text.c_str(), nullptr, TIXML_ENCODING_UTF8);
    if (document.Error()) {
      report_at(document.ErrorRow(), document.ErrorCol(), std::string("XML syntax error: ") + document.ErrorDesc());
      return std::nullopt;
    }
    const TiXmlElement* root = document.RootElement();
    if (root == nullptr || std::string(root->Value()) != "COLLADA") {
      report(root, "expected a Collada document: an XML document whose root element is <COLLADA>");
      return std::nullopt;
    }
    index(root);
    // <up_axis> is not applied: URDF tools read a mesh's coordinates as the link frame's (RViz
    // undoes the turn its importer makes; Gazebo does not read the tag), and so does this.
    Matrix4 document_frame = Matrix4::Identity();
    document_frame.topLeftCorner<3, 3>() *= unit_in_metres(root);
    const TiXmlElement* scene = first(first(root, "scene"), "instance_visual_scene");
    if (scene != nullptr) {
      if (const TiXmlElement* visual_scene = target(scene, "url"))
        for (const TiXmlElement* n = first(visual_scene, "node"); n; n = n->NextSiblingElement("node"))
          node(n, document_frame, 0);
    } else {
      for (const TiXmlElement* g = first(first(root, "library_geometries"), "geometry"); g;
           g = g->NextSiblingElement("geometry"))
        geometry(g, document_frame);
    }
    if (failed_) return std::nullopt;
    Mesh mesh = builder_.take();
    if (mesh.triangles.empty()) {
      report(root, "no triangles: the scene instances no geometry with polygons");
      return std::nullopt;
    }
    return mesh;
  }

 private:
  void report_at(int line, int column, std::string message) {
    out_.push_back(Diagnostic{file_, line, column, std::move(message)});
    failed_ = true;
  }
  void report(const TiXmlElement* e, std::string message) {
    report_at(e ? e->Row() : 0, e ? e->Column() : 0, std::move(message));
  }

  static const TiXmlElement* first(const TiXmlElement* e, const char* name) {
    return e == nullptr ? nullptr : e->FirstChildElement(name);
  }

  void index(const TiXmlElement* e) {
    for (; e != nullptr; e = e->NextSiblingElement()) {
      if (const char* id = e->Attribute("id")) ids_.emplace(id, e);
      index(e->FirstChildElement());
    }
  }

  // The element a "#id" reference names; reported when there is none.
  const TiXmlElement* target(const TiXmlElement* e, const char* attribute) {
    const char* ref = e->Attribute(attribute);
    if (ref == nullptr || ref[0] != '#') {
      report(e, std::string("<") + e->Value() + "> needs " + attribute + "=\"#id\" (references to other files are not read)");
      return nullptr;
    }
    const auto it = ids_.find(ref + 1);
    if (it == ids_.end()) {
      report(e, "no element with id '" + shown(ref + 1) + "'");
      return nullptr;
    }
    return it->second;
  }

  double unit_in_metres(const TiXmlElement* root) {
    const TiXmlElement* unit = first(first(root, "asset"), "unit");
    if (unit == nullptr || unit->Attribute("meter") == nullptr) return 1.0;
    const auto v = numbers_of(unit->Attribute("meter"));
    if (!v || v->size() != 1 || !((*v)[0] > 0.0)) {
      report(unit, "<unit meter> must be one positive number");
      return 1.0;
    }
    return (*v)[0];
  }

  // A node's own transform: its <matrix>, <translate>, <rotate> and <scale> elements in order.
  Matrix4 local_transform(const TiXmlElement* n) {
    Matrix4 T = Matrix4::Identity();
    for (const TiXmlElement* e = n->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string kind = e->Value();
      const std::size_t wanted = kind == "matrix" ? 16 : kind == "rotate" ? 4 : kind == "translate" || kind == "scale" ? 3 : 0;
      if (wanted == 0) {
        if (kind == "lookat" || kind == "skew") report(e, "<" + kind + "> transforms are not read; bake them into <matrix>");
        continue;
      }
      const auto v = numbers_of(e->GetText());
      if (!v || v->size() != wanted) {
        report(e, "<" + kind + "> needs " + std::to_string(wanted) + " numbers");
        continue;
      }
      Matrix4 step = Matrix4::Identity();
      if (kind == "matrix") {
        for (int i = 0; i < 16; ++i) step(i / 4, i % 4) = (*v)[static_cast<std::size_t>(i)];  // row-major
      } else if (kind == "translate") {
        step.topRightCorner<3, 1>() = Eigen::Vector3d((*v)[0], (*v)[1], (*v)[2]);
      } else if (kind == "scale") {
        step.topLeftCorner<3, 3>() = Eigen::Vector3d((*v)[0], (*v)[1], (*v)[2]).asDiagonal();
      } else {
        const Eigen::Vector3d axis((*v)[0], (*v)[1], (*v)[2]);
        if (axis.norm() > 0.0)
          step.topLeftCorner<3, 3>() = Eigen::AngleAxisd((*v)[3] * M_PI / 180.0, axis.normalized()).toRotationMatrix();
      }
      T = T * step;
    }
    return T;
  }

  void node(const TiXmlElement* n, const Matrix4& parent, int depth) {
    if (depth > kMaxInstanceDepth) {
      report(n, "nodes instanced more than " + std::to_string(kMaxInstanceDepth) + " deep (a cycle of <instance_node>?)");
      return;
    }
    const Matrix4 T = parent * local_transform(n);
    for (const TiXmlElement* e = n->FirstChildElement(); e && !failed_; e = e->NextSiblingElement()) {
      const std::string kind = e->Value();
      if (kind == "node") {
        node(e, T, depth + 1);
      } else if (kind == "instance_node") {
        if (const TiXmlElement* other = target(e, "url")) node(other, T, depth + 1);
      } else if (kind == "instance_geometry") {
        if (const TiXmlElement* g = target(e, "url")) geometry(g, T);
      }
    }
  }

  // The positions of a <source>: its float_array read through its accessor.
  std::optional<std::vector<Eigen::Vector3d>> positions(const TiXmlElement* source) {
    const TiXmlElement* array = first(source, "float_array");
    const TiXmlElement* accessor = first(first(source, "technique_common"), "accessor");
    if (array == nullptr) {
      report(source, "<source> has no <float_array>");
      return std::nullopt;
    }
    const auto values = numbers_of(array->GetText());
    if (!values) {
      report(array, "<float_array> holds a word that is not a finite number");
      return std::nullopt;
    }
    long stride = 3, offset = 0, count = static_cast<long>(values->size() / 3);
    if (accessor != nullptr) {
      accessor->QueryValueAttribute("stride", &stride);
      accessor->QueryValueAttribute("offset", &offset);
      accessor->QueryValueAttribute("count", &count);
    }
    if (stride < 3 || offset < 0 || count < 0 ||
        static_cast<std::size_t>(offset + (count > 0 ? (count - 1) * stride + 3 : 0)) > values->size()) {
      report(accessor ? accessor : array, "the accessor reads past its <float_array> (or has a stride below 3)");
      return std::nullopt;
    }
    std::vector<Eigen::Vector3d> out;
    for (long k = 0; k < count; ++k) {
      const std::size_t at = static_cast<std::size_t>(offset + k * stride);
      out.emplace_back((*values)[at], (*values)[at + 1], (*values)[at + 2]);
    }
    return out;
  }

  // The positions behind a primitive's VERTEX input (a <vertices> element, whose POSITION
  // input names a <source>).
  const TiXmlElement* position_source(const TiXmlElement* vertex_input) {
    const TiXmlElement* vertices = target(vertex_input, "source");
    if (vertices == nullptr) return nullptr;
    for (const TiXmlElement* in = first(vertices, "input"); in; in = in->NextSiblingElement("input"))
      if (in->Attribute("semantic") && std::string(in->Attribute("semantic")) == "POSITION") return target(in, "source");
    report(vertices, "<vertices> has no POSITION input");
    return nullptr;
  }

  void geometry(const TiXmlElement* g, const Matrix4& T) {
    const TiXmlElement* mesh = first(g, "mesh");
    if (mesh == nullptr) return;  // splines, convex meshes: nothing to draw
    for (const TiXmlElement* p = mesh->FirstChildElement(); p && !failed_; p = p->NextSiblingElement()) {
      const std::string kind = p->Value();
      if (kind == "triangles" || kind == "polylist" || kind == "polygons") {
        primitive(p, kind, T);
      } else if (kind == "tristrips" || kind == "trifans") {
        report(p, "<" + kind + "> are not read; export the mesh as triangles");
      }
    }
  }

  void primitive(const TiXmlElement* p, const std::string& kind, const Matrix4& T) {
    long stride = 1, vertex_offset = -1;
    const TiXmlElement* vertex_input = nullptr;
    for (const TiXmlElement* in = first(p, "input"); in; in = in->NextSiblingElement("input")) {
      long offset = 0;
      in->QueryValueAttribute("offset", &offset);
      stride = std::max(stride, offset + 1);
      if (in->Attribute("semantic") && std::string(in->Attribute("semantic")) == "VERTEX") {
        vertex_offset = offset;
        vertex_input = in;
      }
    }
    if (vertex_input == nullptr) {
      report(p, "<" + kind + "> has no VERTEX input");
      return;
    }
    const TiXmlElement* source = position_source(vertex_input);
    if (source == nullptr) return;
    auto& cached = positions_.try_emplace(source).first->second;
    if (cached.empty()) {
      auto read = positions(source);
      if (!read) return;
      cached = std::move(*read);
    }
    // Polygons: triangles three corners each; a polylist's sizes in <vcount>; one <p> each
    // in <polygons>.
    std::vector<const TiXmlElement*> lists;
    for (const TiXmlElement* e = first(p, "p"); e; e = e->NextSiblingElement("p")) lists.push_back(e);
    std::vector<double> sizes;
    if (kind == "polylist") {
      const auto v = numbers_of(first(p, "vcount") ? first(p, "vcount")->GetText() : nullptr);
      if (!v) return report(p, "<vcount> holds a word that is not a number");
      sizes = *v;
    }
    for (const TiXmlElement* e : lists) {
      const auto indices = numbers_of(e->GetText());
      if (!indices) return report(e, "<p> holds a word that is not a number");
      const std::size_t corners = indices->size() / static_cast<std::size_t>(stride);
      std::vector<int> polygon;
      std::size_t next = 0;
      std::vector<double> one_polygon = {static_cast<double>(corners)};
      const std::vector<double>& counts = kind == "polylist" ? sizes : kind == "polygons" ? one_polygon : std::vector<double>(corners / 3, 3.0);
      for (const double n : counts) {
        polygon.clear();
        for (long c = 0; c < static_cast<long>(n); ++c, ++next) {
          if (next >= corners) return report(e, "<p> has fewer indices than its polygons need");
          const double index = (*indices)[next * static_cast<std::size_t>(stride) + static_cast<std::size_t>(vertex_offset)];
          if (index < 0 || index >= static_cast<double>(cached.size()) || index != std::floor(index))
            return report(e, "<p> has a vertex index " + std::to_string(static_cast<long long>(index)) + " outside its " +
                                 std::to_string(cached.size()) + " positions");
          const Eigen::Vector4d at = T * cached[static_cast<std::size_t>(index)].homogeneous();
          polygon.push_back(builder_.vertex(at.head<3>()));
        }
        for (std::size_t k = 2; k < polygon.size(); ++k) builder_.triangle(polygon[0], polygon[k - 1], polygon[k]);  // a fan
      }
    }
  }

  const std::string& file_;
  std::vector<Diagnostic>& out_;
  bool failed_ = false;
  std::map<std::string, const TiXmlElement*> ids_;
  std::map<const TiXmlElement*, std::vector<Eigen::Vector3d>> positions_;
  MeshBuilder builder_;
};

}  // namespace

std::optional<Mesh> read_collada(const std::string& file, const std::string& text, std::vector<Diagnostic>& out) {
  ColladaReader reader(file, out);
  return reader.read(text);
}

}  // namespace uwsim::scenario
