#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "scenario/printable.h"
#include "scenario/sections.h"

namespace uwsim::scenario {
namespace {

ForceSpec read_force(Reader& r, const Field& f, const std::vector<std::string>& bodies,
                     std::map<std::string, std::string>& names) {
  ForceSpec force;
  Mapping m(r, f, {"name", "body", "frame", "point", "force", "moment", "start", "stop", "input"});
  if (!m.ok()) return force;
  const Field name = m.require("name");
  if (auto s = r.string(name)) {
    if (s->empty()) {
      r.error(name, "expected a non-empty name");
    } else if (auto [it, fresh] = names.emplace(*s, f.path); !fresh) {
      r.error(name, "duplicate force name '" + *s + "' (also " + it->second + ")");
    } else {
      force.name = *s;
    }
  }
  const Field body = m.require("body");
  if (auto s = r.string(body)) {
    if (std::find(bodies.begin(), bodies.end(), *s) != bodies.end()) {
      force.body = *s;
    } else {
      std::string message = "no body named '" + *s + "'";
      if (auto guess = closest_match(*s, bodies)) {
        message += "; did you mean '" + *guess + "'?";
      } else {
        std::string known;
        for (const auto& b : bodies) known += (known.empty() ? "'" : ", '") + b + "'";
        message += known.empty() ? "" : " (bodies: " + known + ")";
      }
      r.error(body, message);
    }
  }
  if (auto frame = r.choice(m.get("frame"), {"body", "world"}))
    force.frame = *frame == 0 ? ForceFrame::body : ForceFrame::world;
  m.read("point", force.point_B, Sign::any, "m");
  m.read("force", force.force, Sign::any, "N");
  m.read("moment", force.moment, Sign::any, "N m");
  m.read("start", force.start, Sign::non_negative, "s");
  const Field stop = m.get("stop");
  if (auto t = r.number(stop, Sign::positive, "s")) {
    if (*t <= force.start)
      r.error(stop, "expected a time after start (" + to_text(force.start) + " s), got " +
                        to_text(*t));
    else
      force.stop = *t;
  }
  if (const Field input = m.get("input"); input.present() && input.value.IsScalar())
    force.input = input.value.Scalar();  // checked against the channels by check_force_inputs
  return force;
}

}  // namespace

std::string name_problem(const std::string& name, NameUse use) {
  // Messages are built by appending: GCC 12 warns falsely (-Wrestrict) about some
  // literal + std::string expressions once inlined.
  const auto got = [&name](std::string message) {
    message += ", got '";
    message += shown(name);
    message += '\'';
    return message;
  };
  if (use == NameUse::file_name) {
    const bool valid = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
             c == '-';
    });
    return valid ? "" : got("expected a name made of letters, digits, '_', '.' and '-' (it names the output file)");
  }
  if (name.empty()) return "expected a non-empty name";
  if (const auto bad = name_character_problem(name)) {
    std::string message("expected a name without control characters (it names a group in the output file); ");
    message += *bad;
    return message;
  }
  const char* slash_problem = nullptr;
  if (name.front() == '/')
    slash_problem = "expected a name that does not start with '/'";
  else if (name.back() == '/')
    slash_problem = "expected a name that does not end with '/'";
  else if (name.find("//") != std::string::npos)
    slash_problem = "expected a name without '//'";
  if (slash_problem) return got(std::string(slash_problem) + " ('/' separates nested groups in the output file)");
  for (std::size_t begin = 0; begin <= name.size();) {
    std::size_t end = name.find('/', begin);
    if (end == std::string::npos) end = name.size();
    const std::string_view part(name.data() + begin, end - begin);
    if (part == "." || part == "..")
      return got("expected no part of the name to be '.' or '..' (the output file and shells read them as the "
                 "current or the parent group)");
    begin = end + 1;
  }
  return "";
}

bool check_name_text(Reader& r, const Field& f, const std::string& name, NameUse use) {
  const std::string problem = name_problem(name, use);
  if (!problem.empty()) r.error(f, problem);
  return problem.empty();
}

namespace {

// One name kind ("body" under /bodies/, "joint" under /joints/): reports each name that
// continues a shorter one with '/', once per place and shorter name.
void check_nesting(Reader& r, const std::vector<std::string>& names,
                   const std::vector<const NameSource*>& sources,
                   const std::vector<std::string>& item_paths, const std::string& kind,
                   const std::string& group) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!names[i].empty()) index.emplace(names[i], i);
  std::set<std::pair<std::string, std::string>> reported;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    for (std::size_t slash = name.find('/'); slash != std::string::npos;
         slash = name.find('/', slash + 1)) {
      const std::string outer = name.substr(0, slash);
      const auto it = index.find(outer);
      if (it == index.end()) continue;
      const NameSource& s = *sources[i];
      const bool expanded = s.owner.present();
      // The manipulator's own name is at fault when the outer name ends inside it.
      const Field& at = expanded && slash <= s.owner_length ? s.owner : s.at;
      if (reported.emplace(at.path, outer).second) {
        std::string message("the ");
        message += kind;
        message += " '";
        message += name;
        message += '\'';
        if (expanded) {
          message += " of ";
          message += item_paths[i];
        }
        message += " would be written inside the output group ";
        message += group;
        message += outer;
        message += "/ of ";
        message += kind;
        message += " '";
        message += outer;
        message += "' (";
        message += item_paths[it->second];
        message += "); no ";
        message += kind;
        message += " name may begin with another ";
        message += kind;
        message += "'s name and '/'";
        r.error(at, message);
      }
      break;
    }
  }
}

}  // namespace

void check_nested_names(Reader& r, const Assembly& a) {
  std::vector<std::string> names, paths;
  std::vector<const NameSource*> sources;
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    names.push_back(a.bodies[i].name);
    sources.push_back(&a.body_sources[i].name);
    paths.push_back(a.body_sources[i].item.path);
  }
  check_nesting(r, names, sources, paths, "body", "/bodies/");
  names.clear();
  paths.clear();
  sources.clear();
  for (std::size_t i = 0; i < a.joints.size(); ++i) {
    names.push_back(a.joints[i].name);
    sources.push_back(&a.joint_sources[i].name);
    paths.push_back(a.joint_sources[i].item.path);
  }
  check_nesting(r, names, sources, paths, "joint", "/joints/");
}

bool after(const YAML::Mark& a, const YAML::Mark& b) {
  return a.line != b.line ? a.line > b.line : a.column > b.column;
}

std::string quoted_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

YAML::Node yaml_number(double x) {
  // Shortest text that reads back as the same double, with a '.' before any exponent
  // ("6.0e-05", not "6e-05") so that YAML 1.1 readers such as PyYAML see a float too; the tag
  // of a plain scalar, so that it reads as a number (and is written without quotes).
  std::string text = to_text(x);
  if (const auto e = text.find('e'); e != std::string::npos && text.find('.') == std::string::npos)
    text.insert(e, ".0");
  YAML::Node n(text);
  n.SetTag("?");
  return n;
}

YAML::Node yaml_list(const Eigen::VectorXd& v) {
  YAML::Node n(YAML::NodeType::Sequence);
  for (Eigen::Index i = 0; i < v.size(); ++i) n.push_back(yaml_number(v[i]));
  return n;
}

YAML::Node yaml_rows(const Eigen::MatrixXd& m) {
  YAML::Node n(YAML::NodeType::Sequence);
  for (Eigen::Index i = 0; i < m.rows(); ++i) n.push_back(yaml_list(m.row(i).transpose()));
  return n;
}

EnvironmentSpec read_environment(Reader& reader, const Field& field) {
  EnvironmentSpec env;
  if (absent(field)) return env;
  Mapping m(reader, field, {"gravity", "water_density", "current"});
  if (!m.ok()) return env;
  m.read("gravity", env.gravity, Sign::non_negative, "m/s²");
  m.read("water_density", env.water_density, Sign::non_negative, "kg/m³");
  m.read("current", env.current_W, Sign::any, "m/s");
  return env;
}

ComplianceSpec read_compliance(Reader& reader, const Field& field) {
  ComplianceSpec c;
  if (absent(field)) return c;
  Mapping m(reader, field, {"limit_frequency", "constraint_frequency"});
  if (!m.ok()) return c;
  m.read("limit_frequency", c.limit_frequency, Sign::positive, "Hz");
  m.read("constraint_frequency", c.constraint_frequency, Sign::positive, "Hz");
  return c;
}

constexpr double kSmallestRelativeTolerance = 1e-13;

SimulationSpec read_simulation(Reader& reader, const Field& field) {
  SimulationSpec sim;
  Mapping m(reader, field,
            {"duration", "integrator", "step", "max_step", "abs_tol", "rel_tol", "output_rate"});
  if (!m.ok()) return sim;
  m.read("duration", sim.duration, Sign::positive, "s", true);
  if (auto kind = reader.choice(m.get("integrator"), {"rk4", "dopri5"}))
    sim.integrator = *kind == 0 ? IntegratorKind::rk4 : IntegratorKind::dopri5;
  m.read("step", sim.step, Sign::positive, "s");
  m.read("max_step", sim.max_step, Sign::non_negative, "s");
  m.read("abs_tol", sim.abs_tol, Sign::positive, "");
  m.read("rel_tol", sim.rel_tol, Sign::positive, "");
  // Below ~1e-13 relative, rounding noise exceeds the tolerance and the stepper stalls.
  if (sim.rel_tol < kSmallestRelativeTolerance)
    reader.error(m.get("rel_tol"), "expected at least " + to_text(kSmallestRelativeTolerance) +
                                       " (double precision cannot meet less), got " + to_text(sim.rel_tol));
  m.read("output_rate", sim.output_rate, Sign::positive, "Hz");
  return sim;
}

std::vector<ForceSpec> read_forces(Reader& reader, const Field& field,
                                   const std::vector<BodySpec>& bodies) {
  std::vector<ForceSpec> forces;
  if (absent(field)) return forces;
  auto items = reader.sequence(field);
  if (!items) return forces;
  std::vector<std::string> body_names;
  for (const auto& b : bodies)
    if (!b.name.empty()) body_names.push_back(b.name);
  std::map<std::string, std::string> names;  // name → path of the force that has it
  for (const Field& item : *items) forces.push_back(read_force(reader, item, body_names, names));
  return forces;
}

}  // namespace uwsim::scenario
