#include "output/recorder.h"

#include "spatial/rotation.h"

namespace uwsim::output {

using spatial::Vec6;

Recorder::Recorder(const model::Model& model, Hdf5File& file) : model_(model), file_(file) {
  time_ = file.add_series("/time", 1, "s", "simulated time of each sample");
  for (const model::Body& body : model.bodies) {
    const std::string group = "/bodies/" + body.name + "/";
    BodySeries s;
    s.position = file.add_series(group + "position", 3, "m",
                                 "body origin position in the NED world frame",
                                 {"north", "east", "down"});
    s.quaternion = file.add_series(group + "quaternion", 4, "1",
                                   "attitude quaternion, rotates body to NED", {"w", "x", "y", "z"});
    s.euler = file.add_series(group + "euler", 3, "rad",
                              "roll, pitch, yaw (ZYX convention) of body relative to NED",
                              {"roll", "pitch", "yaw"});
    s.velocity = file.add_series(group + "velocity", 6, "m/s, rad/s",
                                 "body-frame velocity of the body origin relative to NED",
                                 {"u", "v", "w", "p", "q", "r"});
    s.acceleration = file.add_series(group + "acceleration", 6, "m/s^2, rad/s^2",
                                     "time derivative of the body-frame velocity components",
                                     {"u_dot", "v_dot", "w_dot", "p_dot", "q_dot", "r_dot"});
    bodies_.push_back(s);
  }
}

void Recorder::on_sample(double t, const double* x, const double* xdot) {
  file_.append(time_, &t);
  for (std::size_t b = 0; b < model_.bodies.size(); ++b) {
    const model::Body& body = model_.bodies[b];
    const BodySeries& s = bodies_[b];
    const double* q = x + body.q_offset;
    file_.append(s.position, q);
    file_.append(s.quaternion, q + 3);
    const spatial::Quat q_WB(q[3], q[4], q[5], q[6]);
    const spatial::Vec3 euler = spatial::euler_zyx_from_rotation(spatial::rotation_from_quaternion(q_WB));
    file_.append(s.euler, euler.data());
    const Vec6 nu = spatial::to_fossen_order(Eigen::Map<const Vec6>(x + body.v_offset));
    file_.append(s.velocity, nu.data());
    const Vec6 nu_dot = spatial::to_fossen_order(Eigen::Map<const Vec6>(xdot + body.v_offset));
    file_.append(s.acceleration, nu_dot.data());
  }
}

}  // namespace uwsim::output
