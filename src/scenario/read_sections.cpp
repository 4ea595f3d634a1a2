#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "scenario/printable.h"
#include "scenario/sections.h"
#include "scenario/tables.h"

namespace uwsim::scenario {
namespace {

ForceSpec read_force(Reader& r, const Field& f, const std::vector<std::string>& bodies,
                     std::map<std::string, std::string>& names) {
  ForceSpec force;
  Mapping m = read_table(r, f, force_table(), force);
  if (!m.ok()) return force;
  const Field name = m.get("name");
  if (auto s = r.string(name)) {
    if (s->empty()) {
      r.error(name, "expected a non-empty name");
    } else if (auto [it, fresh] = names.emplace(*s, f.path); !fresh) {
      r.error(name, "duplicate force name '" + *s + "' (also " + it->second + ")");
    } else {
      force.name = *s;
    }
  }
  const Field body = m.get("body");
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
  // Names become HDF5 groups and file names, which need no more; longer is a pasted blob.
  constexpr std::size_t kMaxNameLength = 255;
  if (const std::size_t length = code_points(name); length > kMaxNameLength)
    return "expected at most " + std::to_string(kMaxNameLength) + " characters, got " +
           std::to_string(length);
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

const Table<EnvironmentSpec>& environment_table() {
  static const auto table = make_table<EnvironmentSpec>(
      "The surrounding water and gravity",
      {number("gravity", &EnvironmentSpec::gravity, Sign::non_negative, "m/s²",
              "Gravitational acceleration along +z of NED"),
       number("water_density", &EnvironmentSpec::water_density, Sign::non_negative, "kg/m³", "Water density"),
       vector("current", &EnvironmentSpec::current_W, Sign::any, "m/s", "Constant water current velocity in NED")},
      {}, true);
  return table;
}

const Table<ComplianceSpec>& compliance_table() {
  static const auto table = make_table<ComplianceSpec>(
      "How stiff the model holds what it holds softly: joint stops, connectors and (through the limit "
      "frequency) the stick region of Coulomb friction. Model parameters, independent of simulation.step",
      {number("limit_frequency", &ComplianceSpec::limit_frequency, Sign::positive, "Hz",
              "Natural frequency of a joint stop, critically damped on the joint's articulated inertia (Hz); "
              "also bounds the friction slope through zero"),
       number("constraint_frequency", &ComplianceSpec::constraint_frequency, Sign::positive, "Hz",
              "Natural frequency of the critically damped Baumgarte terms that pull connector drift back")},
      {}, true);
  return table;
}

// Below ~1e-13 relative, rounding noise exceeds the tolerance and the stepper stalls.
constexpr double kSmallestRelativeTolerance = 1e-13;

const Table<SimulationSpec>& simulation_table() {
  static const auto table = make_table<SimulationSpec>(
      "Time span, integrator and output sampling",
      {number("duration", &SimulationSpec::duration, Sign::positive, "s", "Simulated time span (s)").needed().no_default(),
       choice("integrator", &SimulationSpec::integrator,
              {{"rk4", IntegratorKind::rk4}, {"dopri5", IntegratorKind::dopri5}},
              "rk4: fixed-step classical Runge–Kutta; dopri5: adaptive Dormand–Prince 5(4)"),
       number("step", &SimulationSpec::step, Sign::positive, "s", "Fixed step for rk4, first trial step for dopri5 (s)"),
       number("max_step", &SimulationSpec::max_step, Sign::non_negative, "s",
              "Largest dopri5 step (s); 0 means no bound"),
       number("abs_tol", &SimulationSpec::abs_tol, Sign::positive, "",
              "dopri5 absolute error tolerance (state units)"),
       custom<SimulationSpec>(
           "rel_tol", "dopri5 relative error tolerance (dimensionless); at least 1e-13, below which double precision cannot meet it",
           R"({"type": "number", "minimum": 1e-13, "default": 1e-08})",
           [](Reader& r, const Field& f, SimulationSpec& sim) {
             const auto x = r.number(f, Sign::positive, "");
             if (!x) return;
             if (*x < kSmallestRelativeTolerance)
               r.error(f, "expected at least " + to_text(kSmallestRelativeTolerance) +
                              " (double precision cannot meet less), got " + to_text(*x));
             else
               sim.rel_tol = *x;
           }),
       number("output_rate", &SimulationSpec::output_rate, Sign::positive, "Hz",
              "Output sampling rate (Hz); samples at exactly k / output_rate")});
  return table;
}

const Table<ForceSpec>& force_table() {
  static const auto table = make_table<ForceSpec>(
      "A constant wrench on a body, active for start ≤ t < stop",
      {by_hand<ForceSpec>("name", "Unique force name", R"({"type": "string", "minLength": 1})").needed(),
       by_hand<ForceSpec>("body", "Name of the body the force acts on", R"({"type": "string"})").needed(),
       choice("frame", &ForceSpec::frame, {{"body", ForceFrame::body}, {"world", ForceFrame::world}},
              "Frame in which force and moment are expressed: body (B) or world (NED)"),
       vector("point", &ForceSpec::point_B, Sign::any, "m", "Point of application from the body origin, body frame (m)"),
       vector("force", &ForceSpec::force, Sign::any, "N", "Force vector (N), in `frame`"),
       vector("moment", &ForceSpec::moment, Sign::any, "N m", "Pure moment (N m), in `frame`"),
       number("start", &ForceSpec::start, Sign::non_negative, "s", "Time the force switches on (s)"),
       by_hand<ForceSpec>("stop", "Time the force switches off (s); must be greater than start. Absent: never",
                          R"({"type": "number", "exclusiveMinimum": 0})"),
       by_hand<ForceSpec>("input",
                          "An input channel that scales force and moment (its value times the wrench); absent: "
                          "the wrench as given",
                          kChannelNameSchema)});
  return table;
}

EnvironmentSpec read_environment(Reader& reader, const Field& field) {
  EnvironmentSpec env;
  if (!absent(field)) read_table(reader, field, environment_table(), env);
  return env;
}

ComplianceSpec read_compliance(Reader& reader, const Field& field) {
  ComplianceSpec c;
  if (!absent(field)) read_table(reader, field, compliance_table(), c);
  return c;
}

SimulationSpec read_simulation(Reader& reader, const Field& field) {
  SimulationSpec sim;
  read_table(reader, field, simulation_table(), sim);
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
