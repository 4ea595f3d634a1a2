// Writes the samples of a run into the result file's layout (README "Output file"):
//   /time                        (N)    s
//   /bodies/<body>/position      (N×3)  m, NED
//   /bodies/<body>/quaternion    (N×4)  [w, x, y, z] body → NED
//   /bodies/<body>/euler         (N×3)  roll, pitch, yaw (ZYX), rad
//   /bodies/<body>/velocity      (N×6)  [u v w p q r] body frame
//   /bodies/<body>/acceleration  (N×6)  d/dt of velocity (body-frame components)
//   /joints/<joint>/position, velocity, acceleration, effort   (N)  rad or m, …, N m or N
//   /joints/<joint>/current, motor_speed  (N)  A, rad/s: a motor actuator's own state
//   /inputs/<channel>            (N)    the channel's value, in its declared units
//   /thrusters/<thruster>/command, thrust (N)  command (after limits), N along the axis;
//                                shaft_speed (N) rad/s, propeller models only
//   /connectors/<connector>/wrench     (N×6)  [Fx Fy Fz Mx My Mz], N and N m: what the connector
//                                             applies to its first body, at the connection
//                                             point, in that body's frame
//   /connectors/<connector>/violation  (N×2)  position error (m) and attitude error (rad)
//   /controllers/<name>/setpoint, error, output  what each controller holds since its last
//                                sample (dynamics/controller.h: ControllerSignals)
//   /sensors/<name>/<quantity>   what each sensor's output holds at the sample (Workspace::sensors,
//                                written by the driver's sensor stage, dynamics/sensor_set.h: its
//                                rate, latency and noise; NaN before its first reading is out); quantities, units and columns as
//                                sensors/quantities.h lists them, and the sensor's parameters
//                                as attributes of each (sensors/parameter_attributes.h)
// Every body is written, links of arms included. Velocities and accelerations leave the spatial
// [ω; v] order of the dynamics here, for the output (controllers convert at their own boundary,
// README "Frames").
#pragma once

#include <vector>

#include "integrate/driver.h"
#include "dynamics/model.h"
#include "dynamics/sensor_set.h"
#include "output/hdf5_file.h"
#include "spatial/rotation.h"

namespace uwsim::output {

class Recorder : public integrate::SampleSink {
 public:
  Recorder(const dynamics::Model& model, Hdf5File& file);
  // How many values each sample writes (every dataset's columns), e.g. to project a run's size.
  static std::size_t values_per_sample(const dynamics::Model& model);
  void on_sample(double t, const double* x, const double* xdot, const dynamics::Workspace& ws) override;

  long samples() const { return samples_; }    // whole samples handed to the file
  double last_time() const { return last_time_; }  // the time of the last of them

 private:
  void append_sample(double t, const double* x, const double* xdot, const dynamics::Workspace& ws);
  Recorder(const dynamics::Model& model, Hdf5File* file);  // null: only counts the values
  Hdf5File::SeriesId declare(const std::string& path, int columns, const std::string& units,
                             const std::string& description, const std::vector<std::string>& names = {},
                             const std::vector<std::pair<std::string, std::string>>& attributes = {});
  void add_sensor_series(std::size_t sensor);
  void add_controller_series(const dynamics::Controller& controller);
  struct BodySeries {
    Hdf5File::SeriesId position, quaternion, euler, velocity, acceleration;
  };
  struct JointSeries {
    std::size_t body;
    Hdf5File::SeriesId position, velocity, acceleration, effort;
    bool has_motor = false;  // gear_motor or linear_actuator: also its current and motor speed
    Hdf5File::SeriesId current, motor_speed;
  };
  struct ThrusterSeries {
    Hdf5File::SeriesId command, shaft_speed, thrust;
    bool has_shaft_speed;
  };
  const dynamics::Model& model_;
  Hdf5File* file_;
  std::size_t values_per_sample_ = 0;
  long samples_ = 0;
  double last_time_ = 0.0;
  std::vector<Hdf5File::SeriesId> inputs_;
  std::vector<ThrusterSeries> thrusters_;
  Hdf5File::SeriesId time_;
  std::vector<BodySeries> bodies_;
  std::vector<JointSeries> joints_;
  struct ConnectorSeries {
    Hdf5File::SeriesId wrench, violation;
  };
  std::vector<ConnectorSeries> connectors_;
  struct ControllerSeries {
    Hdf5File::SeriesId setpoint, error, output;
  };
  std::vector<ControllerSeries> controllers_;
  struct SensorSeries {
    std::size_t sensor;
    int offset;  // first column of the quantity within the sensor's reading
    Hdf5File::SeriesId id;
  };
  std::vector<SensorSeries> sensor_series_;
  std::vector<spatial::Quat> last_quaternion_;  // per body, for sign continuity
};

}  // namespace uwsim::output
