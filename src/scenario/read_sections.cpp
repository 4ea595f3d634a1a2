#include <algorithm>
#include <map>

#include "scenario/sections.h"

namespace uwsim::scenario {
namespace {

// Optional sections may be written as an empty key ("forces:") to mean "none".
bool absent(const Field& f) { return !f.present() || f.value.IsNull(); }

ForceSpec read_force(Reader& r, const Field& f, const std::vector<std::string>& bodies,
                     std::map<std::string, std::string>& names) {
  ForceSpec force;
  Mapping m(r, f, {"name", "body", "frame", "point", "force", "moment", "start", "stop"});
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
  return force;
}

}  // namespace

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
