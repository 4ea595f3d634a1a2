// The `connectors` section: rigid and ball connectors between bodies (dynamics/connector.h).
#include <algorithm>
#include <map>

#include "model/build_model.h"
#include "scenario/sections.h"
#include "scenario/tables.h"

namespace uwsim::scenario {
namespace {

struct ConnectorSource {
  Field item;
  Field relative_pose;
};

// `bodies: [first, second]`: two different bodies, the second may be the world.
void read_pair(Reader& r, const Field& f, const std::vector<std::string>& known, ConnectorSpec& c) {
  auto items = r.sequence(f);
  if (!items) return;
  if (items->size() != 2) {
    r.error(f, "expected two body names [first, second] (the second may be 'world'), got " +
                   std::to_string(items->size()));
    return;
  }
  std::string names[2];
  for (int k = 0; k < 2; ++k) {
    const Field& item = (*items)[static_cast<std::size_t>(k)];
    auto s = r.string(item);
    if (!s) return;
    if (*s == kWorld && k == 0) {
      r.error(item, std::string("expected a body as the first name: the connection point is given in its frame; put 'world' second"));
      return;
    }
    if (*s != kWorld && std::find(known.begin(), known.end(), *s) == known.end()) {
      r.error(item, unknown_body(*s, known, k == 1));
      return;
    }
    names[k] = *s;
  }
  if (names[0] == names[1]) {
    r.error((*items)[1], "expected two different bodies, got '" + names[0] + "' twice");
    return;
  }
  c.first = names[0];
  c.second = names[1];
}

// The keys of a connector. `name` (checked against the others), `bodies` (against the bodies)
// and `relative_pose` (checked against the initial poses, later) are read by read_connector.
const Table<ConnectorSpec>& connector_table() {
  static const auto table = make_table<ConnectorSpec>(
      "A connector between `bodies[0]` (first) and `bodies[1]` (second). Output: /connectors/NAME/wrench (force and "
      "moment on the first body at `point`, first body's frame) and /connectors/NAME/violation",
      {by_hand<ConnectorSpec>("name", "Unique connector name (names the output group)",
                              R"({"type": "string", "minLength": 1})")
           .needed(),
       choice("type", &ConnectorSpec::type, {{"rigid", ConnectorType::rigid}, {"ball", ConnectorType::ball}},
              "rigid: all six relative degrees of freedom locked (Nielsen et al. 2018 Def. 2.1); ball: the "
              "connection point of both bodies held together, relative rotation free")
           .needed()
           .no_default(),
       by_hand<ConnectorSpec>("bodies", "[first, second]: two different body names; the second may be 'world'",
                              R"({"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 2, "maxItems": 2})")
           .needed(),
       vector("point", &ConnectorSpec::point_B, Sign::any, "m",
              "Connection point from the first body's origin, in its frame (m)"),
       sub_table<ConnectorSpec, ConnectorSpec>("relative_pose", "", &relative_pose_table, {})});
  return table;
}

ConnectorSpec read_connector(Reader& r, const Field& f, const std::vector<std::string>& known,
                             std::map<std::string, std::string>& names, ConnectorSource& source) {
  ConnectorSpec c;
  source.item = f;
  Mapping m = read_table(r, f, connector_table(), c);
  if (!m.ok()) return c;
  const Field name = m.get("name");
  if (auto s = r.string(name); s && check_name_text(r, name, *s)) {
    if (auto [it, fresh] = names.emplace(*s, f.path); !fresh) r.error(name, "duplicate connector name '" + *s + "' (also " + it->second + ")");
    else c.name = *s;
  }
  if (const Field bodies = m.get("bodies"); bodies.present()) read_pair(r, bodies, known, c);
  source.relative_pose = m.get("relative_pose");
  if (!absent(source.relative_pose) && read_table(r, source.relative_pose, relative_pose_table(), c).ok())
    c.has_relative_pose = true;
  return c;
}

}  // namespace

TableInfo connector_info() { return connector_table().describe; }

const Table<ConnectorSpec>& relative_pose_table() {
  static const auto table = make_table<ConnectorSpec>(
      "The relative pose to hold: the second body's frame in the first's. Must agree with the bodies' initial poses (within 1e-6 m and rad). Absent: the relative pose at the start is held",
      {vector("xyz", &ConnectorSpec::relative_xyz, Sign::any, "m", "Position of the second body's origin in the first body's frame (m)"),
       vector("rpy", &ConnectorSpec::relative_rpy, Sign::any, "rad",
              "Roll, pitch, yaw (ZYX) of the second body's frame relative to the first's (rad)")},
      {}, true);
  return table;
}

std::vector<ConnectorSpec> read_connectors(Reader& reader, const Field& field, const Scenario& scenario) {
  std::vector<ConnectorSpec> connectors;
  if (absent(field)) return connectors;
  auto items = reader.sequence(field);
  if (!items) return connectors;
  std::vector<std::string> known;
  for (const BodySpec& b : scenario.bodies) known.push_back(b.name);
  std::map<std::string, std::string> names;
  std::vector<ConnectorSource> sources(items->size());
  for (std::size_t i = 0; i < items->size(); ++i) connectors.push_back(read_connector(reader, (*items)[i], known, names, sources[i]));
  // A relative_pose the initial poses do not satisfy would make the connector yank the bodies
  // together at t = 0: the model layer checks it (with the dynamics' forward kinematics), this
  // reader reports it where the file wrote the relative_pose.
  if (reader.diagnostics().empty())
    for (const model::ConnectorProblem& p : model::connector_pose_problems(scenario, connectors))
      reader.error(sources[p.connector].relative_pose, p.message);
  return connectors;
}

}  // namespace uwsim::scenario
