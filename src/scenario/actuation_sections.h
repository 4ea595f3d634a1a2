// Readers of the actuation sections: `inputs` (command channels), `thrusters`, a joint's
// `actuator`, and the channel references of forces, thrusters and joint actuators.
#pragma once

#include <string>
#include <vector>

#include "scenario/sections.h"

namespace uwsim::scenario {

// read_inputs.cpp. CSV files are read relative to the scenario file's directory. Reports
// unknown operands of sum/scale and cycles among channels.
std::vector<InputSpec> read_inputs(Reader& reader, const Field& field);
// The channel names a scenario's inputs define (in file order).
std::vector<std::string> channel_names(const std::vector<InputSpec>& inputs);
// A table written as rows [x, y] with x strictly increasing (at least `min_rows` rows);
// x_name and y_name name the columns in messages ("time (s)", "value").
std::optional<inputs::Table> read_rows(Reader& reader, const Field& field, std::size_t min_rows,
                                       std::string_view x_name, std::string_view y_name);

// read_actuation.cpp
// A command: a number (a constant), or the name of a channel in `channels`.
std::optional<CommandSpec> read_command(Reader& reader, const Field& field,
                                        const std::vector<std::string>& channels);
std::vector<ThrusterSpec> read_thrusters(Reader& reader, const Field& field,
                                         const std::vector<BodySpec>& bodies,
                                         const std::vector<std::string>& channels);
// A joint's `actuator` mapping (channel names are checked later, by check_actuator_inputs).
void read_joint_actuator(Reader& reader, const Field& field, JointSpec& joint);
// Checks the channel named by every joint actuator in `joints` and in the links of
// `manipulators` (the scenario's sections) against `channels`.
void check_actuator_inputs(Reader& reader, const Field& joints, const Field& manipulators,
                           const std::vector<std::string>& channels);
// A force's `input`: a channel in `channels`.
void check_force_inputs(Reader& reader, const Field& forces, const std::vector<std::string>& channels);

}  // namespace uwsim::scenario
