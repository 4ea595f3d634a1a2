// The depth-holding BlueROV2 that the trim tests share (tests/analysis/test_trim_controllers.cpp
// in the library, tests/app/test_trim_controllers_cli.cpp through `sim trim`): its scenario and
// the net buoyancy its pose PID's integral must hold at rest.
#pragma once

#include <string>

namespace uwsim::test {

// vehicles/bluerov2.yaml (Wu 2018: m = 11.5 kg, ∇ = 11.702e-3 m³ in fresh water, 2 N buoyant).
inline constexpr double kBlueRov2Mass = 11.5, kBlueRov2Volume = 0.011702, kFreshWater = 1000.0, kGravity = 9.81;
// B − W, 1.9826 N: buoyant, so the held Z is > 0 (down).
inline constexpr double kBlueRov2NetBuoyancy = kFreshWater * kGravity * kBlueRov2Volume - kBlueRov2Mass * kGravity;

// The vehicle 0.3 m above a 5 m depth setpoint, under a pose PID with integral action on depth
// only, its wrench applied to the body directly or, with `allocation`, allocated to the four
// vertical thrusters; `rest` is appended (a `trim` block, say).
inline std::string depth_hold(bool allocation, const std::string& rest = "") {
  std::string yaml = R"(name: depth_hold
simulation: {duration: 1.0}
include:
  - {file: )" + std::string(UWSIM_SOURCE_DIR) +
                     R"(/scenarios/vehicles/bluerov2.yaml, name: v, position: [0.0, 0.0, 4.7]}
controllers:
  - name: depth
    type: pose_pd
    body: v/rov
    rate: 100.0
    position: [0.0, 0.0, 5.0]
    kp: [0.0, 0.0, 60.0, 20.0, 20.0, 0.0]
    kd: [0.0, 0.0, 40.0, 4.0, 4.0, 0.0]
    ki: [0.0, 0.0, 10.0, 0.0, 0.0, 0.0]
    hold: [depth, roll, pitch]
)";
  if (allocation)
    yaml += R"(  - {name: thrust, type: thrust_allocation, rate: 100.0, input: depth,
     thrusters: [v/vertical_front_right, v/vertical_front_left, v/vertical_rear_right, v/vertical_rear_left]}
)";
  return yaml + rest;
}

}  // namespace uwsim::test
