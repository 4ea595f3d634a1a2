#include "scenario/urdf_tree.h"

#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

#include "scenario/printable.h"

namespace uwsim::scenario::urdf {
namespace {

Position position_of(const TiXmlBase* node) {
  if (node == nullptr || node->Row() <= 0) return {};
  return Position{node->Row(), node->Column()};
}

const TiXmlAttribute* attribute(const TiXmlElement* e, const char* name) {
  if (e == nullptr) return nullptr;
  for (const TiXmlAttribute* a = e->FirstAttribute(); a != nullptr; a = a->Next())
    if (std::string(a->Name()) == name) return a;
  return nullptr;
}

// The attribute's position, else the element's.
Position at(const TiXmlElement* e, const char* name) {
  if (const TiXmlAttribute* a = attribute(e, name)) return position_of(a);
  return position_of(e);
}

const TiXmlElement* child(const TiXmlElement* e, const char* name) {
  return e == nullptr ? nullptr : e->FirstChildElement(name);
}

// What a numeric attribute holds, as a reason it cannot be used, or its numbers.
struct Numbers {
  std::vector<double> values;
  std::string problem;  // empty: `values` are the numbers
};

// `count` finite numbers separated by white space, as urdfdom reads scalars and vectors; '+'
// signs allowed. Stricter than urdfdom: it reads a mass of "nan", "0,35" or "1e400" as no
// mass at all (a link fixed to another then vanishes without a word), so every number is
// checked here first and its real problem named.
Numbers numbers(const char* text, int count) {
  Numbers out;
  std::istringstream words{std::string(text ? text : "")};
  std::string word;
  while (words >> word) {
    std::string_view w = word;
    if (!w.empty() && w.front() == '+') w.remove_prefix(1);
    double x = 0.0;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), x);
    // Appended: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
    const std::string quoted = std::string(1, '"').append(shown(word)).append(1, '"');
    if (ec == std::errc::result_out_of_range) {
      out.problem = quoted + " is beyond the range of a double";
    } else if (ec != std::errc() || end != w.data() + w.size()) {
      out.problem = word.find(',') != std::string::npos ? quoted + " is not a number (the decimal point is '.', not ',')"
                                                         : quoted + " is not a number";
    } else if (!std::isfinite(x)) {
      out.problem = quoted + " is not a finite number";
    }
    if (!out.problem.empty()) return out;
    out.values.push_back(x);
  }
  if (static_cast<int>(out.values.size()) != count)
    out.problem = count == 1 ? (out.values.empty() ? "it holds no number" : "it holds " +
                                    std::to_string(out.values.size()) + " numbers, one expected")
                             : "it holds " + std::to_string(out.values.size()) + " numbers, " +
                                   std::to_string(count) + " expected, separated by spaces";
  return out;
}

std::optional<Eigen::Vector3d> three_numbers(const char* text) {
  if (text == nullptr) return std::nullopt;
  const Numbers n = numbers(text, 3);
  if (!n.problem.empty()) return std::nullopt;
  return Eigen::Vector3d(n.values[0], n.values[1], n.values[2]);
}

// urdfdom keeps colours as floats: the double the file's text means (0.961, not 0.96100002…),
// by the float's shortest text.
double as_written(float x) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, x).ptr;
  double value = x;
  std::from_chars(text, end, value);
  return value;
}

// urdfdom's pose, with the roll-pitch-yaw numbers as written (see Origin).
Origin origin_of(const ::urdf::Pose& pose, const TiXmlElement* element, const TiXmlElement* owner) {
  Origin o;
  o.xyz = Eigen::Vector3d(pose.position.x, pose.position.y, pose.position.z);
  const auto written = three_numbers(element ? element->Attribute("rpy") : nullptr);
  if (written) {
    o.rpy = *written;
  } else {
    pose.rotation.getRPY(o.rpy[0], o.rpy[1], o.rpy[2]);
  }
  o.at = position_of(element ? element : owner);
  return o;
}

// Collects what urdfdom reports through console_bridge instead of printing it.
class Messages : public console_bridge::OutputHandler {
 public:
  Messages() { console_bridge::useOutputHandler(this); }
  ~Messages() override { console_bridge::restorePreviousOutputHandler(); }
  Messages(const Messages&) = delete;
  Messages& operator=(const Messages&) = delete;

  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) errors.push_back(text);
  }
  std::vector<std::string> errors;
};

// The names urdfdom puts in brackets: "joint [elbow]", "link [a] of joint [b]".
std::vector<std::string> bracketed(const std::string& text) {
  std::vector<std::string> names;
  std::size_t begin = 0;
  while ((begin = text.find('[', begin)) != std::string::npos) {
    const std::size_t end = text.find(']', begin + 1);
    if (end == std::string::npos) break;
    names.push_back(text.substr(begin + 1, end - begin - 1));
    begin = end + 1;
  }
  return names;
}

std::string trimmed(std::string s) {
  const auto first = s.find_first_not_of(" \t\n");
  const auto last = s.find_last_not_of(" \t\n.");
  return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

// A xacro macro file is not a URDF: name it and say what to do.
const TiXmlElement* first_xacro_element(const TiXmlElement* e) {
  for (; e != nullptr; e = e->NextSiblingElement()) {
    if (std::string(e->Value()).rfind("xacro:", 0) == 0) return e;
    if (const TiXmlElement* inner = first_xacro_element(e->FirstChildElement())) return inner;
  }
  return nullptr;
}

// Bounds that keep hostile files from the XML parsers, which recurse once per nesting level
// and hold the whole document: a URDF is a few levels deep (robot, link, inertial, origin) and
// at most a few hundred kB. 16 MiB took 4 s and 800 MB, and a chain of 10 000 massless links
// (1 MiB) 7 s: a file is held to 1 MiB, as a YAML file is, and 1000 links and 1000 joints (a
// vehicle with two arms has some 30). TinyXML looks each new attribute up among the element's
// earlier ones (a duplicate is an error), so one element's attributes take quadratic time:
// 60 000 on one link took over 30 s. An element takes at most kMaxAttributes (<inertia> has
// six, the most of any URDF element).
constexpr int kMaxElementDepth = 64;
constexpr int kMaxAttributes = 100;
constexpr std::size_t kMaxUrdfBytes = std::size_t{1} << 20;
constexpr std::size_t kMaxUrdfLinks = 1000;

// The numeric attributes a scenario reads from a <link> or <joint>, by the path of elements
// below it: each must be there when `required`, hold `count` finite numbers, none negative when
// `non_negative`.
struct ValueRule {
  const char* inner;  // the element inside <inertial> (links) or the joint, or nullptr
  const char* element;
  const char* attribute;
  int count;
  bool non_negative;
  bool required;
  const char* meaning;  // what the numbers are, with their unit
};

constexpr ValueRule kLinkValues[] = {
    {"inertial", "origin", "xyz", 3, false, false, "the centre of mass (x y z, m)"},
    {"inertial", "origin", "rpy", 3, false, false, "the inertia's axes (roll pitch yaw, rad)"},
    {"inertial", "mass", "value", 1, true, true, "a mass (kg; 0 for a frame without mass)"},
    {"inertial", "inertia", "ixx", 1, true, true, "a moment of inertia (kg m²)"},
    {"inertial", "inertia", "iyy", 1, true, true, "a moment of inertia (kg m²)"},
    {"inertial", "inertia", "izz", 1, true, true, "a moment of inertia (kg m²)"},
    {"inertial", "inertia", "ixy", 1, false, true, "a product of inertia (kg m²)"},
    {"inertial", "inertia", "ixz", 1, false, true, "a product of inertia (kg m²)"},
    {"inertial", "inertia", "iyz", 1, false, true, "a product of inertia (kg m²)"},
};
constexpr ValueRule kJointValues[] = {
    {nullptr, "origin", "xyz", 3, false, false, "the joint's position (x y z, m)"},
    {nullptr, "origin", "rpy", 3, false, false, "the joint's axes (roll pitch yaw, rad)"},
    {nullptr, "axis", "xyz", 3, false, false, "the joint's axis (x y z)"},
    {nullptr, "limit", "lower", 1, false, false, "a limit (rad or m)"},
    {nullptr, "limit", "upper", 1, false, false, "a limit (rad or m)"},
    {nullptr, "limit", "effort", 1, true, false, "the largest effort (N m or N; 0 for none)"},
    {nullptr, "limit", "velocity", 1, true, false, "the largest speed (rad/s or m/s; 0 for none)"},
    {nullptr, "dynamics", "damping", 1, true, false, "a damping (N m s/rad or N s/m)"},
    {nullptr, "dynamics", "friction", 1, true, false, "a friction (N m or N)"},
};

class Reader {
 public:
  Reader(const std::string& file, std::vector<Diagnostic>& out) : file_(file), out_(out) {}

  std::optional<Tree> read(const std::string& text) {
    if (text.size() > kMaxUrdfBytes) {
      report(Position{}, "the URDF file is larger than " + std::to_string(kMaxUrdfBytes >> 20) +
                             " MiB; a robot takes a few hundred kB");
      return std::nullopt;
    }
    if (const auto shape = xml_shape_problem(text, kMaxElementDepth, kMaxAttributes)) {
      report(shape->at, shape->too_deep ? "elements nested more than " + std::to_string(kMaxElementDepth) +
                                              " deep; a URDF robot needs about five levels"
                                        : "an element with " + std::to_string(shape->attributes) +
                                              " attributes; a URDF element takes at most " + std::to_string(kMaxAttributes) +
                                              " (<inertia> has six, the most of any)");
      return std::nullopt;
    }
    TiXmlDocument document;
    document.SetTabSize(1);  // a tab is one column, as everywhere else in messages
    document.Parse(text.c_str(), nullptr, TIXML_ENCODING_UTF8);
    if (document.Error()) {
      report(Position{document.ErrorRow(), document.ErrorCol()},
             std::string("XML syntax error: ") + document.ErrorDesc());
      return std::nullopt;
    }
    const TiXmlElement* robot = document.RootElement();
    if (robot == nullptr || std::string(robot->Value()) != "robot") {
      report(position_of(robot), "expected a URDF file: an XML document whose root element is "
                                 "<robot>");
      return std::nullopt;
    }
    if (const TiXmlElement* x = first_xacro_element(robot->FirstChildElement())) {
      report(position_of(x), std::string("<") + x->Value() +
                                 ">: this is a xacro file; expand it first (xacro FILE.urdf.xacro "
                                 "> FILE.urdf) and include the URDF it writes");
      return std::nullopt;
    }
    index(robot);
    if (link_elements_.size() > kMaxUrdfLinks || joint_elements_.size() > kMaxUrdfLinks) {
      report(position_of(robot), "the robot has " + std::to_string(link_elements_.size()) + " links and " +
                                     std::to_string(joint_elements_.size()) + " joints; a URDF part has at most " +
                                     std::to_string(kMaxUrdfLinks) + " of each");
      return std::nullopt;
    }
    for (const auto& [name, element] : link_elements_) check_values("link", name, element, kLinkValues);
    for (const auto& [name, element] : joint_elements_) check_values("joint", name, element, kJointValues);
    if (failed_) return std::nullopt;

    ::urdf::ModelInterfaceSharedPtr model;
    std::vector<std::string> errors;
    {
      Messages messages;
      try {
        model = ::urdf::parseURDF(text);
      } catch (const std::exception& e) {
        messages.errors.push_back(e.what());
      }
      errors = std::move(messages.errors);
    }
    if (!model) {
      report_urdfdom(errors, position_of(robot));
      return std::nullopt;
    }

    Tree tree;
    tree.robot = model->getName();
    tree.robot_at = position_of(robot);
    if (model->getRoot()) tree.root = model->getRoot()->name;
    for (const auto& [name, element] : link_elements_) read_link(*model, name, element, tree);
    for (const auto& [name, element] : joint_elements_) read_joint(*model, name, element, tree);
    if (failed_) return std::nullopt;
    return tree;
  }

 private:
  void report(Position p, std::string message) {
    out_.push_back(Diagnostic{file_, p.line, p.column, std::move(message)});
    failed_ = true;
  }

  // The top-level <link> and <joint> elements by name, in file order.
  void index(const TiXmlElement* robot) {
    for (const TiXmlElement* e = robot->FirstChildElement(); e != nullptr; e = e->NextSiblingElement()) {
      const std::string kind = e->Value();
      const char* name = e->Attribute("name");
      if (name == nullptr) continue;
      if (kind == "link") link_elements_.emplace_back(name, e);
      if (kind == "joint") joint_elements_.emplace_back(name, e);
    }
  }

  // Each rule's attribute in the first element of its name (the one urdfdom reads).
  template <std::size_t N>
  void check_values(const char* kind, const std::string& name, const TiXmlElement* owner,
                    const ValueRule (&rules)[N]) {
    const std::string who = std::string(kind) + " '" + shown(name) + "'";
    const char* missing = nullptr;  // an element said to be missing once, not once per attribute
    for (const ValueRule& rule : rules) {
      const TiXmlElement* outer = rule.inner ? child(owner, rule.inner) : owner;
      if (outer == nullptr) continue;
      const TiXmlElement* e = child(outer, rule.element);
      if (e == nullptr) {
        if (rule.required && missing != rule.element)
          report(position_of(outer), who + ": <" + (rule.inner ? rule.inner : kind) + "> has no <" + rule.element + " " + rule.attribute +
                                         "=...>; expected " + rule.meaning);
        if (rule.required) missing = rule.element;
        continue;
      }
      const TiXmlAttribute* a = attribute(e, rule.attribute);
      if (a == nullptr) {
        if (rule.required)
          report(position_of(e), who + ": <" + rule.element + "> has no " + rule.attribute + "; expected " + rule.meaning);
        continue;
      }
      const Numbers n = numbers(a->Value(), rule.count);
      std::string problem = n.problem;
      if (problem.empty() && rule.non_negative && n.values[0] < 0.0) problem = "it is negative";
      if (!problem.empty())
        report(position_of(a), who + ": <" + rule.element + " " + rule.attribute + "=\"" + shown(a->Value()) +
                                   "\">: " + problem + "; expected " + rule.meaning);
    }
  }

  const TiXmlElement* element_named(const std::vector<std::pair<std::string, const TiXmlElement*>>& list,
                                    const std::string& name) const {
    for (const auto& [n, e] : list)
      if (n == name) return e;
    return nullptr;
  }

  // urdfdom's own words, at the joint or link its message names (in brackets), else at
  // <robot>.
  void report_urdfdom(const std::vector<std::string>& errors, Position fallback) {
    std::string message;
    Position where = fallback;
    bool located = false;
    for (const std::string& e : errors) {
      const std::string t = trimmed(e);
      if (t.empty()) continue;
      if (!message.empty()) message += "; ";
      message += t;
      for (const std::string& name : bracketed(t)) {
        if (located) break;
        const TiXmlElement* el = element_named(joint_elements_, name);
        if (el == nullptr) el = element_named(link_elements_, name);
        if (el != nullptr) {
          where = at(el, "name");
          located = true;
        }
      }
    }
    if (message.empty()) message = "not a valid URDF robot";
    report(where, "URDF (urdfdom): " + message);
  }

  void read_link(const ::urdf::ModelInterface& model, const std::string& name,
                 const TiXmlElement* element, Tree& tree) {
    const auto link = model.getLink(name);
    if (!link) return;
    Link l;
    l.name = name;
    l.at = at(element, "name");
    if (const auto& in = link->inertial) {
      const TiXmlElement* xml = child(element, "inertial");
      Inertial i;
      i.mass = in->mass;
      i.origin = origin_of(in->origin, child(xml, "origin"), xml);
      i.inertia << in->ixx, in->ixy, in->ixz,  //
          in->ixy, in->iyy, in->iyz,           //
          in->ixz, in->iyz, in->izz;
      i.mass_at = at(child(xml, "mass"), "value");
      i.inertia_at = position_of(child(xml, "inertia"));
      if (i.inertia_at.line == 0) i.inertia_at = position_of(xml);
      if (i.mass_at.line == 0) i.mass_at = position_of(xml);
      // A zero mass is a frame, as a link without <inertial>.
      if (i.mass != 0.0) l.inertial = i;
      l.zero_mass = i.mass == 0.0;
    }
    read_visuals(*link, element, l);
    tree.links.push_back(std::move(l));
  }

  // The link's <visual> elements, in file order, as urdfdom read them (named materials
  // resolved); a geometry urdfdom does not know is left out.
  void read_visuals(const ::urdf::Link& link, const TiXmlElement* element, Link& l) {
    const TiXmlElement* xml = child(element, "visual");
    for (const auto& visual : link.visual_array) {
      const TiXmlElement* here = xml;
      if (xml != nullptr) xml = xml->NextSiblingElement("visual");
      if (!visual || !visual->geometry) continue;
      Visual v;
      v.at = position_of(here ? here : element);
      v.origin = origin_of(visual->origin, child(here, "origin"), here ? here : element);
      const ::urdf::Geometry& g = *visual->geometry;
      if (g.type == ::urdf::Geometry::BOX) {
        const auto& box = static_cast<const ::urdf::Box&>(g);
        v.size = Eigen::Vector3d(box.dim.x, box.dim.y, box.dim.z);
      } else if (g.type == ::urdf::Geometry::CYLINDER) {
        const auto& cylinder = static_cast<const ::urdf::Cylinder&>(g);
        v.kind = Visual::Kind::cylinder;
        v.size = Eigen::Vector3d(cylinder.radius, cylinder.length, 0.0);
      } else if (g.type == ::urdf::Geometry::SPHERE) {
        v.kind = Visual::Kind::sphere;
        v.size = Eigen::Vector3d(static_cast<const ::urdf::Sphere&>(g).radius, 0.0, 0.0);
      } else if (g.type == ::urdf::Geometry::MESH) {
        const auto& mesh = static_cast<const ::urdf::Mesh&>(g);
        v.kind = Visual::Kind::mesh;
        v.mesh = mesh.filename;
        v.scale = Eigen::Vector3d(mesh.scale.x, mesh.scale.y, mesh.scale.z);
        v.mesh_at = at(child(child(here, "geometry"), "mesh"), "filename");
      } else {
        continue;
      }
      if (visual->material) {
        // A material with a texture and no <color> keeps urdfdom's default black: no colour.
        const ::urdf::Color& c = visual->material->color;
        const bool default_black = c.r == 0.0f && c.g == 0.0f && c.b == 0.0f && c.a == 1.0f;
        if (!(default_black && !visual->material->texture_filename.empty()))
          v.rgba = Eigen::Vector4d(as_written(c.r), as_written(c.g), as_written(c.b), as_written(c.a));
      }
      l.visuals.push_back(std::move(v));
    }
  }

  void read_joint(const ::urdf::ModelInterface& model, const std::string& name,
                  const TiXmlElement* element, Tree& tree) {
    const auto joint = model.getJoint(name);
    if (!joint) return;
    Joint j;
    j.name = name;
    j.at = at(element, "name");
    j.kind_at = at(element, "type");
    switch (joint->type) {
      case ::urdf::Joint::REVOLUTE: j.kind = JointKind::revolute; break;
      case ::urdf::Joint::CONTINUOUS: j.kind = JointKind::continuous; break;
      case ::urdf::Joint::PRISMATIC: j.kind = JointKind::prismatic; break;
      case ::urdf::Joint::FIXED: j.kind = JointKind::fixed; break;
      default:
        report(j.kind_at, "joint '" + name + "' is of type '" +
                              std::string(element->Attribute("type") ? element->Attribute("type") : "?") +
                              "': a scenario takes revolute, continuous, prismatic and fixed joints "
                              "(a floating root is a free body: leave the joint out)");
        return;
    }
    if (joint->mimic) {
      report(position_of(child(element, "mimic")),
             "joint '" + name + "' mimics joint '" + joint->mimic->joint_name +
                 "': mimic joints are not modelled; make it fixed, or drop <mimic> to give it "
                 "its own degree of freedom");
      return;
    }
    j.parent = joint->parent_link_name;
    j.child = joint->child_link_name;
    j.parent_at = at(child(element, "parent"), "link");
    j.child_at = at(child(element, "child"), "link");
    j.origin = origin_of(joint->parent_to_joint_origin_transform, child(element, "origin"), element);
    j.axis = Eigen::Vector3d(joint->axis.x, joint->axis.y, joint->axis.z);
    j.axis_at = at(child(element, "axis"), "xyz");
    if (child(element, "axis") == nullptr) j.axis_at = position_of(element);
    if (const auto& lim = joint->limits; lim && j.kind != JointKind::fixed) {
      const TiXmlElement* xml = child(element, "limit");
      Limits l;
      l.lower = lim->lower;
      l.upper = lim->upper;
      l.effort = lim->effort;
      l.velocity = lim->velocity;
      l.at = position_of(xml ? xml : element);
      l.lower_at = at(xml, "lower");
      l.upper_at = at(xml, "upper");
      l.effort_at = at(xml, "effort");
      l.velocity_at = at(xml, "velocity");
      if (xml == nullptr) l.lower_at = l.upper_at = l.effort_at = l.velocity_at = l.at;
      j.limits = l;
    }
    if (const auto& dyn = joint->dynamics) {
      j.damping = dyn->damping;
      j.friction = dyn->friction;
      j.dynamics_at = position_of(child(element, "dynamics"));
    }
    tree.joints.push_back(std::move(j));
  }

  const std::string& file_;
  std::vector<Diagnostic>& out_;
  std::vector<std::pair<std::string, const TiXmlElement*>> link_elements_, joint_elements_;
  bool failed_ = false;
};

}  // namespace

std::optional<XmlShapeProblem> xml_shape_problem(const std::string& text, int max_depth, int max_attributes) {
  int depth = 0;
  // The line and column of a byte, counted only once a problem is found (the scan stays linear).
  auto place = [&](std::size_t here) {
    Position p{1, 1};
    for (std::size_t i = 0; i < here && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++p.line;
        p.column = 1;
      } else {
        ++p.column;
      }
    }
    return p;
  };
  std::size_t i = 0;
  while ((i = text.find('<', i)) != std::string::npos) {
    auto skip_to = [&](const char* end) {
      const std::size_t e = text.find(end, i);
      return e == std::string::npos ? text.size() : e + std::string(end).size();
    };
    std::size_t next;
    if (text.compare(i, 4, "<!--") == 0) {
      next = skip_to("-->");
    } else if (text.compare(i, 9, "<![CDATA[") == 0) {
      next = skip_to("]]>");
    } else if (text.compare(i, 2, "<?") == 0) {
      next = skip_to("?>");
    } else if (text.compare(i, 2, "<!") == 0) {
      next = skip_to(">");
    } else {
      // A tag: its end is the first '>' outside quotes; each '=' outside quotes an attribute.
      char quote = 0;
      int attributes = 0;
      next = i + 1;
      while (next < text.size() && (quote || text[next] != '>')) {
        if (quote && text[next] == quote) quote = 0;
        else if (!quote && (text[next] == '"' || text[next] == '\'')) quote = text[next];
        else if (!quote && text[next] == '=') ++attributes;
        ++next;
      }
      if (attributes > max_attributes) return XmlShapeProblem{place(i), false, attributes};
      const bool closing = i + 1 < text.size() && text[i + 1] == '/';
      const bool empty = next < text.size() && next > i && text[next - 1] == '/';
      if (closing) {
        --depth;
      } else if (!empty && ++depth > max_depth) {
        return XmlShapeProblem{place(i), true, attributes};
      }
      next = std::min(next + 1, text.size());
    }
    i = next;
  }
  return std::nullopt;
}

std::optional<Tree> read_tree(const std::string& file, const std::string& text,
                              std::vector<Diagnostic>& out) {
  Reader reader(file, out);
  return reader.read(text);
}

}  // namespace uwsim::scenario::urdf
