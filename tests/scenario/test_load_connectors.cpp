// The `connectors` section as read from a scenario file (malformed ones: tests/data/malformed).
#include <doctest/doctest.h>

#include "model/build_model.h"
#include "scenario/load_scenario.h"

using namespace uwsim;

TEST_CASE("connectors: two_bluerov_rigid.yaml reads into two rigid connectors holding the initial relative poses") {
  const scenario::Scenario s = scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/scenarios/two_bluerov_rigid.yaml");
  REQUIRE(s.connectors.size() == 2);
  const model::ConnectorSpec& port = s.connectors[0];
  CHECK(port.name == "port_bolt");
  CHECK(port.type == model::ConnectorType::rigid);
  CHECK(port.first == "port/rov");
  CHECK(port.second == "piece");
  CHECK(port.point_B.isApprox(Eigen::Vector3d(0.0, 0.2, 0.0)));
  CHECK(!port.has_relative_pose);
  // Built: the piece's frame is 0.35 m to starboard of the port vehicle's, so the connection
  // point 0.2 m to starboard of the port vehicle sits 0.15 m to port of the piece.
  const dynamics::Model m = model::build_model(s);
  const dynamics::Connector& c = m.connectors[0];
  CHECK(m.bodies[static_cast<std::size_t>(c.body_a)].name == "port/rov");
  CHECK(m.bodies[static_cast<std::size_t>(c.body_b)].name == "piece");
  CHECK((c.X_BK.p - Eigen::Vector3d(0.0, -0.15, 0.0)).norm() < 1e-12);
  CHECK(c.X_BK.R.isIdentity(1e-12));
  CHECK(c.rows() == 6);
}

TEST_CASE("connectors: a ball connector to the world, and --set on a connector by name") {
  const scenario::Scenario s = scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/scenarios/two_bluerov_rigid.yaml",
                                                       {"connectors.port_bolt.type=ball", "connectors.starboard_bolt.bodies=[starboard/rov, world]"});
  CHECK(s.connectors[0].type == model::ConnectorType::ball);
  CHECK(s.connectors[1].second == "world");
  const dynamics::Model m = model::build_model(s);
  CHECK(m.connectors[0].rows() == 3);
  CHECK(m.connectors[1].body_b == -1);
}
