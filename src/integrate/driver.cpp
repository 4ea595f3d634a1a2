// References: [Hairer1993] Dormand–Prince 5(4) with dense output; Boost.Odeint 1.74 steppers.
#include "integrate/driver.h"

#include <algorithm>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <cstdio>

#include "actuation/thrust_inverse.h"
#include "dynamics/controller_set.h"
#include "dynamics/pipeline.h"
#include "dynamics/sensor_set.h"
#include "integrate/state_check.h"

namespace uwsim::integrate {

namespace odeint = boost::numeric::odeint;
using StateVector = std::vector<double>;

namespace {

// dopri5 restarts (losing its FSAL stage) to re-project quaternions only past this drift; the
// dynamics use q/‖q‖ in every evaluation, so a drift this small changes nothing.
constexpr double kQuaternionDriftLimit = 1e-10;

// The right-hand side as Odeint sees it, with the force schedule and the branches of jumping
// input channels frozen for one segment.
struct RightHandSide {
  const dynamics::Model* model;
  dynamics::Workspace* workspace;
  double schedule_time;
  void operator()(const StateVector& x, StateVector& xdot, double t) const {
    dynamics::evaluate(*model, t, schedule_time, x.data(), xdot.data(), *workspace);
  }
};

class Run {
 public:
  Run(const dynamics::Model& model, const Settings& settings, SampleSink& sink,
      const std::atomic<bool>* stop)
      : model_(model), settings_(settings), sink_(sink), stop_(stop), workspace_(model),
        controllers_(model), sensors_(model), surface_(model), divergence_(model), rhs_{&model, &workspace_, 0.0},
        x_(model.x0), x_sample_(model.x0.size()), xdot_sample_(model.x0.size()),

        last_sample_index_(std::max(1L, static_cast<long>(std::ceil(settings.duration * settings.output_rate - 1e-9)))),
        k1_(model.x0.size()), k2_(model.x0.size()), k3_(model.x0.size()), k4_(model.x0.size()),
        x_tmp_(model.x0.size()), xdot_feedback_(model.x0.size()) {
    for (double t : model.discontinuities()) {
      if (t > 0.0 && t < settings.duration) segment_ends_.push_back(t);
    }
    segment_ends_.push_back(settings.duration);
  }

  RunResult execute() {
    // Bodies joined while moving differently start with a common motion: an internal impulse.
    if (!model_.connectors.empty()) {
      dynamics::evaluate(model_, 0.0, x_.data(), xdot_sample_.data(), workspace_);
      workspace_.connectors.project_velocities(model_, workspace_, x_.data());
    }
    // Controllers take their first sample at t = 0, before the first step (sample_clock.h),
    // after the sensors they fly on (dynamics/sensor_set.h). Those measure under the commands
    // held from before t = 0: none yet, so the thrusters a controller drives are at rest then
    // (the command of zero thrust; the controllers' first sample overwrites it).
    for (const actuation::Thruster& th : model_.thrusters)
      if (th.command.channel >= static_cast<int>(model_.inputs.channels.size()))
        workspace_.inputs[static_cast<std::size_t>(th.command.channel)] = actuation::command_for_thrust(th, 0.0, 0.0);
    sample_feedback(0.0, x_.data());
    controllers_.update(0.0, x_.data(), workspace_);
    emit_sample(0.0, x_, 0.0, Projection::needed);
    if (result_.outcome == Outcome::diverged) return result_;
    double t = 0.0;
    std::size_t next_end = 0;
    while (t < settings_.duration) {
      // The segment ends at the next force or channel jump, controller sample or the end.
      while (segment_ends_[next_end] <= t) ++next_end;
      double t_end = segment_ends_[next_end];
      const double t_control = std::min(controllers_.next_sample_time(), sensors_.next_feedback_tick());
      if (t_control < t_end) {
        // k·T and an output sample time k'/rate that differ by rounding are one instant: end
        // on the output sample (the controller accepts it, sample_clock.h), no sliver step.
        t_end = t_control;
        const long k = std::lround(t_end * settings_.output_rate);
        const double t_sample = sample_time(std::min(k, last_sample_index_));
        if (std::abs(t_sample - t_end) <= 1e-12 * std::max(1.0, t_end) && t_sample > t) t_end = t_sample;
      }
      rhs_.schedule_time = t;
      const bool finished = settings_.method == Method::rk4 ? rk4_segment(t, t_end)
                                                             : dopri5_segment(t, t_end);
      if (!finished) return result_;
      t = t_end;
      // At the accepted segment end: the sensors controllers fly on, then the controllers, so
      // a sample there shows their new outputs, as it shows the new branch of a jumping channel.
      sample_feedback(t, x_.data());
      controllers_.update(t, x_.data(), workspace_);
      sample_derivative_ready_ = false;  // the controllers' new outputs: f(t, x) is not what it was
      if (samples_left() && sample_time(next_sample_) == t) {
        emit_sample(t, x_, t, Projection::done);  // x_ was projected after its last step
        if (result_.outcome == Outcome::diverged) return result_;
      }
      if (interrupted(t, x_, t, Projection::done)) return result_;
    }
    result_.outcome = Outcome::completed;
    return result_;
  }

 private:
  // k / output_rate, with the last sample exactly at the end time.
  double sample_time(long k) const {
    return k >= last_sample_index_ ? settings_.duration
                                   : static_cast<double>(k) / settings_.output_rate;
  }
  bool samples_left() const { return next_sample_ <= last_sample_index_; }
  bool stop_requested() const { return stop_ && stop_->load(std::memory_order_relaxed); }

  // Whether a sample's state still needs its quaternions projected to unit norm: done for
  // x_ after every rk4 step and at a segment's end; needed for the initial state and for
  // dopri5's dense output.
  enum class Projection { done, needed };

  // Hands the sink the state x at t and f(t, x), evaluated with the schedule at
  // `schedule_time`: the running segment's start inside a segment, t at its end (where the
  // next segment starts), so that rk4's next step can take this evaluation of f(t, x_) as its
  // first stage (sample_derivative_ready_).
  void emit_sample(double t, const StateVector& x, double schedule_time, Projection projection) {
    const double* x_at = x.data();
    if (projection == Projection::needed) {
      std::copy(x.begin(), x.end(), x_sample_.begin());
      dynamics::normalize_quaternions(model_, x_sample_.data());
      x_at = x_sample_.data();
    }
    dynamics::evaluate(model_, t, schedule_time, x_at, xdot_sample_.data(), workspace_);
    sample_derivative_ready_ = x_at == x_.data();
    sample_derivative_time_ = t;
    sample_derivative_schedule_ = schedule_time;
    sensors_.sample_outputs(t, x_at, workspace_);
    sink_.on_sample(t, x_at, xdot_sample_.data(), workspace_);
    surface_.check(model_, workspace_, t, result_.warnings);
    result_.end_time = t;
    ++next_sample_;
    if (const auto problem = find_violated_connector(model_, workspace_)) fail(t, *problem);
  }

  // The fed sensors due at t measure (dynamics/sensor_set.h) from f(t, x) under the commands
  // held from before t, evaluated here: the workspace holds the last stage's poses otherwise.
  void sample_feedback(double t, const double* x) {
    const double next = sensors_.next_feedback_tick();
    if (!std::isfinite(next)) return;
    if (next <= t + 1e-12 * std::max(1.0, std::abs(t))) dynamics::evaluate(model_, t, t, x, xdot_feedback_.data(), workspace_);
    sensors_.sample_feedback(t, x, workspace_);
  }

  bool diverged(double t, const StateVector& x) {
    if (!divergence_.any(x.data())) return false;
    const auto problem = divergence_.find(x.data());
    if (!problem) return false;
    fail(t, *problem);
    return true;
  }

  void fail(double t, const std::string& what) {
    char when[64];
    std::snprintf(when, sizeof when, " at t = %.9g s", t);
    result_.outcome = Outcome::diverged;
    result_.message = what + when;
  }

  // An adaptive step that shrinks to nothing means the tolerances cannot be met (stiffness,
  // a singularity, or tolerances below rounding): stop instead of crawling forever.
  bool stalled(double t, double dt) {
    if (dt > 1e-12 * std::max(1.0, std::abs(t))) return false;
    char what[96];
    std::snprintf(what, sizeof what, "dopri5 step size fell to %.3g s (tolerances not attainable)", dt);
    fail(t, what);
    return true;
  }

  bool interrupted(double t, const StateVector& x, double schedule_time, Projection projection) {
    if (!stop_requested()) return false;
    if (result_.end_time < t) emit_sample(t, x, schedule_time, projection);
    result_.outcome = Outcome::interrupted;
    return true;
  }

  // Classic RK4 from t to t_end, landing exactly on sample times. False if the run stopped.
  bool rk4_segment(double& t, double t_end) {
    const double h = settings_.step;
    while (t < t_end) {
      const double next_stop = samples_left() ? std::min(t_end, sample_time(next_sample_)) : t_end;
      const bool lands = next_stop - t <= h * (1.0 + 1e-6);
      rk4_step(t, lands ? next_stop - t : h);
      t = lands ? next_stop : t + h;
      ++result_.steps;
      dynamics::normalize_quaternions(model_, x_.data());
      if (diverged(t, x_)) return false;
      if (t < t_end && samples_left() && t == sample_time(next_sample_))
        emit_sample(t, x_, rhs_.schedule_time, Projection::done);
      if (result_.outcome == Outcome::diverged) return false;
      if (t < t_end && interrupted(t, x_, rhs_.schedule_time, Projection::done)) return false;
    }
    return true;
  }

  // One classic RK4 step of x_ from t. The same operations in the same order as Odeint's
  // runge_kutta4 (Hairer I, Table 1.2), on buffers sized once: Odeint's range algebra and
  // resizer checks cost about a tenth of a one-body step.
  void rk4_step(double t, double dt) {
    const std::size_t n = x_.size();
    double* x = x_.data();
    double *k1 = k1_.data(), *k2 = k2_.data(), *k3 = k3_.data(), *k4 = k4_.data(), *x_tmp = x_tmp_.data();
    const double dh = 0.5 * dt, th = t + dh;
    if (sample_derivative_ready_ && sample_derivative_time_ == t && sample_derivative_schedule_ == rhs_.schedule_time) {
      std::swap(k1_, xdot_sample_);  // the sample just taken evaluated f(t, x_) with this segment's schedule
      k1 = k1_.data();
    } else {
      rhs_(x_, k1_, t);
    }
    sample_derivative_ready_ = false;  // x_ changes below
    for (std::size_t i = 0; i < n; ++i) x_tmp[i] = x[i] + dh * k1[i];
    rhs_(x_tmp_, k2_, th);
    for (std::size_t i = 0; i < n; ++i) x_tmp[i] = x[i] + dh * k2[i];
    rhs_(x_tmp_, k3_, th);
    for (std::size_t i = 0; i < n; ++i) x_tmp[i] = x[i] + dt * k3[i];
    rhs_(x_tmp_, k4_, t + dt);
    const double dt6 = (1.0 / 6.0) * dt, dt3 = (1.0 / 3.0) * dt;  // Odeint's b·dt, rounded as it does
    for (std::size_t i = 0; i < n; ++i) x[i] = x[i] + dt6 * k1[i] + dt3 * k2[i] + dt3 * k3[i] + dt6 * k4[i];
  }

  // Adaptive Dormand–Prince from t to t_end with dense output. False if the run stopped.
  bool dopri5_segment(double& t, double t_end) {
    if (!dopri5_) {
      dopri5_.emplace(odeint::make_dense_output(settings_.abs_tol, settings_.rel_tol,
                                                settings_.max_step,
                                                odeint::runge_kutta_dopri5<StateVector>()));
    }
    auto& stepper = *dopri5_;
    stepper.initialize(x_, t, std::min(dt_trial_, t_end - t));
    while (stepper.current_time() < t_end) {
      stepper.do_step(rhs_);
      ++result_.steps;
      const double t_now = std::min(stepper.current_time(), t_end);
      if (diverged(stepper.current_time(), stepper.current_state())) return false;
      if (stalled(stepper.current_time(), stepper.current_time_step())) return false;
      while (samples_left() && sample_time(next_sample_) <= t_now && sample_time(next_sample_) < t_end) {
        stepper.calc_state(sample_time(next_sample_), x_);
        emit_sample(sample_time(next_sample_), x_, rhs_.schedule_time, Projection::needed);
        if (result_.outcome == Outcome::diverged) return false;
      }
      dt_trial_ = stepper.current_time_step();
      if (stop_requested()) {
        stepper.calc_state(t_now, x_);
        return !interrupted(t_now, x_, t_now, Projection::needed);
      }
      if (stepper.current_time() < t_end && quaternions_drifted(stepper.current_state())) {
        x_ = stepper.current_state();
        dynamics::normalize_quaternions(model_, x_.data());
        stepper.initialize(x_, stepper.current_time(), dt_trial_);
      }
    }
    stepper.calc_state(t_end, x_);
    dynamics::normalize_quaternions(model_, x_.data());
    t = t_end;
    return true;
  }

  bool quaternions_drifted(const StateVector& x) const {
    for (const dynamics::Body& body : model_.bodies) {
      if (body.joint.type != dynamics::JointType::free) continue;  // only free roots have quaternions
      const double norm = Eigen::Map<const Eigen::Vector4d>(x.data() + body.q_offset + 3).norm();
      if (std::abs(norm - 1.0) > kQuaternionDriftLimit) return true;
    }
    return false;
  }

  using Dopri5 = decltype(odeint::make_dense_output(
      1.0, 1.0, 1.0, odeint::runge_kutta_dopri5<StateVector>()));

  const dynamics::Model& model_;
  const Settings& settings_;
  SampleSink& sink_;
  const std::atomic<bool>* stop_;
  dynamics::Workspace workspace_;
  dynamics::ControllerSet controllers_;
  dynamics::SensorSet sensors_;  // every sensor's output, into workspace_ (dynamics/sensor_set.h)
  SurfaceWatch surface_;
  const DivergenceWatch divergence_;
  RightHandSide rhs_;
  StateVector x_, x_sample_, xdot_sample_;
  std::vector<double> segment_ends_;
  long next_sample_ = 0;
  const long last_sample_index_;
  StateVector k1_, k2_, k3_, k4_, x_tmp_;  // rk4_step's stages
  StateVector xdot_feedback_;              // f(t, x) for the fed sensors' accelerations
  // xdot_sample_ holds f(sample_derivative_time_, x_) with the schedule at
  // sample_derivative_schedule_: set by a sample taken at x_ itself, cleared when x_ or the
  // controllers' outputs change. rk4_step takes it as its first stage when t and schedule agree.
  bool sample_derivative_ready_ = false;
  double sample_derivative_time_ = 0.0, sample_derivative_schedule_ = 0.0;
  std::optional<Dopri5> dopri5_;
  double dt_trial_ = settings_.step;
  RunResult result_;
};

}  // namespace

RunResult run(const dynamics::Model& model, const Settings& settings, SampleSink& sink,
              const std::atomic<bool>* stop_requested) {
  Run run(model, settings, sink, stop_requested);
  return run.execute();
}

}  // namespace uwsim::integrate
