// The tables of the scenario format (field_table.h), one per spec struct, defined next to the
// section reader that uses them; schema_tables.cpp writes them into schemas/.
#pragma once

#include <string>

#include "scenario/field_table.h"
#include "scenario/sections.h"

namespace uwsim::scenario {

// The schema of a reference to an input channel (what read_inputs.cpp accepts as a name).
inline constexpr std::string_view kChannelNameSchema =
    R"({"type": "string", "minLength": 1, "pattern": "^[^0-9+./-][^/]*$", "maxLength": 255})";
// A command (read_command): an input channel's name or a constant.
inline std::string_view command_schema() {
  static const std::string schema =
      R"({"oneOf": [{"type": "number"}, )" + std::string(kChannelNameSchema) + "]}";
  return schema;
}

// read_sections.cpp
const Table<EnvironmentSpec>& environment_table();
const Table<ComplianceSpec>& compliance_table();
const Table<SimulationSpec>& simulation_table();
const Table<ForceSpec>& force_table();

// read_bodies.cpp
const Table<BodyInitialSpec>& body_initial_table();
const Table<ShapeSpec>& shape_table();
const Table<ShapeSpec>& cylinder_table();
const Table<ShapeSpec>& box_table();
// The values `derived` holds (sim writes them; they are checked, never used).
const Table<BodySpec>& derived_table();

// A `visual` item's keys (read_visuals.cpp).
TableInfo visual_item_info();
// A body's keys, and those of them a manipulator's link shares (all but `name`; a link may not
// have `initial`, so its schema leaves that out).
const Table<BodySpec>& body_table();
const Table<BodySpec>& body_property_table();

// A thruster's keys (read_actuation.cpp).
TableInfo thruster_info();

// An `include` item's keys (includes.cpp).
TableInfo include_info();

// The `trim` block's keys (read_trim.cpp).
TableInfo trim_info();

// read_joints.cpp, read_connectors.cpp
const Table<JointPlacementSpec>& dh_table();
const Table<JointPlacementSpec>& mdh_table();
const Table<JointPlacementSpec>& origin_table();
const Table<ConnectorSpec>& relative_pose_table();
TableInfo connector_info();  // a connector's keys

// read_sensors.cpp: the keys every sensor has, then one table per type for its parameters.
const Table<sensors::SensorParameters>& sensor_table();
struct SensorKindTable {
  std::string_view word;  // its `type`
  sensors::SensorKind kind;
  TableInfo table;
  std::string_view target = "";  // the key naming what it reads (then `body` may be left out)
};
const std::vector<SensorKindTable>& sensor_kind_tables();

}  // namespace uwsim::scenario
