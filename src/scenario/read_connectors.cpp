// The `connectors` section: rigid and ball connectors between bodies (dynamics/connector.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "dynamics/kinematics.h"
#include "model/build_model.h"
#include "scenario/sections.h"

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

ConnectorSpec read_connector(Reader& r, const Field& f, const std::vector<std::string>& known,
                             std::map<std::string, std::string>& names, ConnectorSource& source) {
  ConnectorSpec c;
  source.item = f;
  Mapping m(r, f, {"name", "type", "bodies", "point", "relative_pose"});
  if (!m.ok()) return c;
  const Field name = m.require("name");
  if (auto s = r.string(name); s && check_name_text(r, name, *s)) {
    if (auto [it, fresh] = names.emplace(*s, f.path); !fresh) r.error(name, "duplicate connector name '" + *s + "' (also " + it->second + ")");
    else c.name = *s;
  }
  if (auto type = r.choice(m.require("type"), {"rigid", "ball"})) c.type = *type == 0 ? ConnectorType::rigid : ConnectorType::ball;
  read_pair(r, m.require("bodies"), known, c);
  m.read("point", c.point_B, Sign::any, "m");
  source.relative_pose = m.get("relative_pose");
  if (!absent(source.relative_pose)) {
    Mapping pose(r, source.relative_pose, {"xyz", "rpy"});
    if (pose.ok()) {
      c.has_relative_pose = true;
      pose.read("xyz", c.relative_xyz, Sign::any, "m");
      pose.read("rpy", c.relative_rpy, Sign::any, "rad");
    }
  }
  return c;
}

// A relative_pose the initial poses do not satisfy would make the connector yank the bodies
// together at t = 0.
void check_relative_poses(Reader& r, const Scenario& scenario, const std::vector<ConnectorSpec>& connectors,
                          const std::vector<ConnectorSource>& sources) {
  constexpr double kTolerance = 1e-6;  // m and rad
  Scenario without_connectors = scenario;
  without_connectors.connectors.clear();
  const dynamics::Model model = model::build_model(without_connectors);
  const std::vector<spatial::Pose> X_WB = dynamics::world_poses(model, model.x0);
  for (std::size_t i = 0; i < connectors.size(); ++i) {
    const ConnectorSpec& c = connectors[i];
    if (!c.has_relative_pose) continue;
    const spatial::Pose& X_WA = X_WB[static_cast<std::size_t>(model.body_index(c.first))];
    const spatial::Pose X_WBody = c.second == kWorld ? spatial::Pose{} : X_WB[static_cast<std::size_t>(model.body_index(c.second))];
    const spatial::Pose X_AB_start = X_WA.inverse() * X_WBody;
    const spatial::Pose X_AB_asked{spatial::rotation_rpy(c.relative_rpy), c.relative_xyz};
    const double distance = (X_AB_start.p - X_AB_asked.p).norm();
    const double angle = Eigen::AngleAxisd(X_AB_start.R.transpose() * X_AB_asked.R).angle();
    if (distance <= kTolerance && angle <= kTolerance) continue;
    char off[96];
    std::snprintf(off, sizeof off, "%.3g m and %.3g rad", distance, angle);
    std::string message = "the initial poses put '" + c.second + "' " + off + " away from this relative pose in '" + c.first +
                          "'; expected them to agree within 1e-6 (place the bodies so, or leave relative_pose out to hold the initial relative pose)";
    r.error(sources[i].relative_pose, message);
  }
}

}  // namespace

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
  if (reader.diagnostics().empty()) check_relative_poses(reader, scenario, connectors, sources);
  return connectors;
}

}  // namespace uwsim::scenario
