// Reader of the `controllers` section (read_controllers.cpp), and the helpers its type readers
// share (read_motion_control.cpp reads the types of paper 002's motion-control framework).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenario/sections.h"

namespace uwsim::scenario {

// Reads the controllers of a scenario whose bodies, joints and thrusters are read; `channels`
// are the names its inputs define.
std::vector<ControllerSpec> read_controllers(Reader& reader, const Field& field, const Scenario& scenario,
                                             const std::vector<std::string>& channels);

// What the type readers look names up in.
struct ControllerContext {
  const Scenario& scenario;
  const std::vector<std::string>& channels;
  std::vector<std::string> joint_names, free_bodies, body_names, thruster_names;
  // inverse_kinematics, task_priority and line_of_sight controllers (pid setpoints may name them)
  std::vector<std::string> ik_names;
  std::vector<std::string> pid_names;  // pid controllers (a velocity pid's setpoint may name one: a cascade)
};

// "no joint named 'x'; did you mean 'y'?"
std::string did_you_mean(const std::string& what, const std::string& name, const std::vector<std::string>& known);
// A boolean key, if present and valid.
std::optional<bool> read_flag(Reader& r, const Field& f);
// n commands (numbers or channel names) into out[0..n−1].
void read_commands(Reader& r, const Field& f, const std::vector<std::string>& channels, CommandSpec* out,
                   std::size_t n = 3);

// read_motion_control.cpp ([SverdrupThygeson2018] Sec. IV–V).
void read_task_priority(Reader& r, Mapping& m, const ControllerContext& cx, ControllerSpec& c);
void read_line_of_sight(Reader& r, Mapping& m, const ControllerContext& cx, ControllerSpec& c);
void read_base_control(Reader& r, Mapping& m, ControllerSpec& c);
// read_mixer.cpp (control/ardusub_mixer.h).
void read_ardusub_mixer(Reader& r, Mapping& m, const ControllerContext& cx, ControllerSpec& c);

}  // namespace uwsim::scenario
