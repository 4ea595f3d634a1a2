// The discrete PID against closed-form responses of a single inertia, its zero-order hold and
// driver contract, anti-windup, and paper 004's torque filter. Expected values are derived here.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "control/pid.h"

using namespace uwsim::control;

namespace {

// Step response of J q̈ + K_D q̇ + K_P q = K_P r (underdamped): ωn = √(K_P/J), ζ = K_D/(2√(K_P J)).
double second_order_step(double t, double wn, double zeta, double r) {
  const double wd = wn * std::sqrt(1.0 - zeta * zeta);
  return r * (1.0 - std::exp(-zeta * wn * t) *
                        (std::cos(wd * t) + zeta / std::sqrt(1.0 - zeta * zeta) * std::sin(wd * t)));
}

struct Inertia {  // J q̈ = τ + load
  double J, q = 0.0, qd = 0.0;
};

// Advances a double integrator by h under a constant torque: exact (the torque is held).
void step_exact(Inertia& x, double tau, double h) {
  const double a = tau / x.J;
  x.q += h * x.qd + 0.5 * h * h * a;
  x.qd += h * a;
}

// Runs PID + inertia for `duration`, stepping the plant every `h` (several steps per sample,
// as an integrator driver would) and updating the controller at step ends only.
// Returns the worst |q − reference(t)| at the plant step points.
template <class Reference>
double worst_deviation(Pid& pid, Inertia x, double setpoint, double h, double duration,
                       Reference reference, bool velocity_mode = false) {
  double worst = 0.0;
  const long n = std::lround(duration / h);
  for (long i = 0; i <= n; ++i) {
    const double t = static_cast<double>(i) * h;
    worst = std::max(worst, std::abs((velocity_mode ? x.qd : x.q) - reference(t)));
    pid.update(t, {.setpoint = setpoint, .position = x.q, .velocity = x.qd});
    step_exact(x, pid.output(), h);
  }
  return worst;
}

}  // namespace

TEST_CASE("pid: PD on a single inertia matches the analytic second-order step response") {
  const double J = 0.05, kp = 0.8, kd = 0.24, r = 1.0;
  const double wn = std::sqrt(kp / J), zeta = kd / (2.0 * std::sqrt(kp * J));
  CHECK(wn == doctest::Approx(4.0));
  CHECK(zeta == doctest::Approx(0.6));
  auto reference = [&](double t) { return second_order_step(t, wn, zeta, r); };

  // The sampled controller lags the continuous one by about T/2: the deviation is O(T).
  double deviation[2];
  const double periods[2] = {1e-3, 5e-4};
  for (int i = 0; i < 2; ++i) {
    Pid pid({.kp = kp, .kd = kd, .sample_period = periods[i]});
    deviation[i] = worst_deviation(pid, {.J = J}, r, periods[i] / 5, 5.0, reference);
  }
  CHECK(deviation[0] < 3e-3 * r);
  CHECK(deviation[0] / deviation[1] == doctest::Approx(2.0).epsilon(0.1));
}

TEST_CASE("pid: velocity-mode PI on an inertia matches its analytic step response") {
  // J v̇ = K_P e + K_I ∫e, e = v_d − v: E(s)/V_d(s) = s / (s² + a s + b), a = K_P/J, b = K_I/J,
  // so e(t) = e^{−σt}(cos ω_d t − σ/ω_d sin ω_d t), σ = a/2, ω_d = √(b − σ²).
  const double J = 0.05, kp = 0.24, ki = 0.8, vd = 0.5;
  const double sigma = kp / J / 2.0, wd = std::sqrt(ki / J - sigma * sigma);
  auto reference = [&](double t) {
    return vd * (1.0 - std::exp(-sigma * t) * (std::cos(wd * t) - sigma / wd * std::sin(wd * t)));
  };
  double deviation[2];
  const double periods[2] = {1e-3, 5e-4};
  for (int i = 0; i < 2; ++i) {
    Pid pid({.kp = kp, .ki = ki, .sample_period = periods[i], .mode = PidMode::velocity});
    deviation[i] = worst_deviation(pid, {.J = J}, vd, periods[i] / 5, 5.0, reference, true);
  }
  CHECK(deviation[0] < 3e-3 * vd);
  CHECK(deviation[0] / deviation[1] == doctest::Approx(2.0).epsilon(0.1));
}

TEST_CASE("pid: zero-order hold at 100 Hz holds between samples and stage evaluations do not advance it") {
  const double T = 0.01, h = 1e-3;
  Pid pid({.kp = 2.0, .ki = 1.0, .kd = 0.3, .sample_period = T});
  Inertia x{.J = 0.05};

  // RK4 of the plant with the driver contract: stages read output(); update at step ends.
  struct StageRead { double step_start, output; };
  std::vector<StageRead> reads;
  std::vector<double> sample_times, sample_outputs;
  double t = 0.0;  // accumulated the way a driver would: t_k differs from k·T by rounding
  auto derivative = [&](double /*stage time*/, double q, double qd, double& dq, double& dqd) {
    reads.push_back({t, pid.output()});
    dq = qd;
    dqd = pid.output() / x.J;
    (void)q;
  };
  for (int n = 0; n < 1000; ++n) {
    if (pid.update(t, {.setpoint = 1.0, .position = x.q, .velocity = x.qd})) {
      sample_times.push_back(t);
      sample_outputs.push_back(pid.output());
    }
    // One RK4 step; its stages must leave the controller untouched.
    const double out = pid.output(), integral = pid.integral(), next = pid.next_sample_time();
    double k1q, k1v, k2q, k2v, k3q, k3v, k4q, k4v;
    derivative(t, x.q, x.qd, k1q, k1v);
    derivative(t + h / 2, x.q + h / 2 * k1q, x.qd + h / 2 * k1v, k2q, k2v);
    derivative(t + h / 2, x.q + h / 2 * k2q, x.qd + h / 2 * k2v, k3q, k3v);
    derivative(t + h, x.q + h * k3q, x.qd + h * k3v, k4q, k4v);
    CHECK(pid.output() == out);
    CHECK(pid.integral() == integral);
    CHECK(pid.next_sample_time() == next);
    // Between samples, an update is refused and changes nothing.
    if (!pid.due(t + h / 2)) CHECK_FALSE(pid.update(t + h / 2, {.setpoint = 5.0}));
    CHECK(pid.output() == out);
    x.q += h / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
    x.qd += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    t += h;
  }

  // Exactly one sample per 10 ms, at the 100 Hz instants, despite t's rounding.
  REQUIRE(sample_times.size() == 100);
  for (size_t k = 0; k < sample_times.size(); ++k)
    CHECK(sample_times[k] == doctest::Approx(static_cast<double>(k) * T).epsilon(1e-12));
  // All four stages of every step starting in [t_k, t_{k+1}) saw the output of sample k,
  // including the last stage, which sits at the next sample instant.
  REQUIRE(reads.size() == 4000);
  for (const StageRead& read : reads) {
    const auto k = static_cast<size_t>(std::floor(read.step_start / T + 1e-6));
    CHECK(read.output == sample_outputs[k]);
  }
}

TEST_CASE("pid: clamping anti-windup bounds the integral under saturation") {
  const double J = 0.05, limit = 0.2, r = 1.0, T = 1e-3;
  PidSettings settings{.kp = 0.8, .ki = 1.0, .kd = 0.24, .sample_period = T, .output_limit = limit};
  auto run = [&](AntiWindup mode, double& max_integral, double& overshoot) {
    settings.anti_windup = mode;
    Pid pid(settings);
    Inertia x{.J = J};
    max_integral = 0.0;
    overshoot = 0.0;
    double previous_integral = 0.0;
    for (int k = 0; k < 20000; ++k) {
      pid.update(k * T, {.setpoint = r, .position = x.q, .velocity = x.qd});
      CHECK(std::abs(pid.output()) <= limit);
      // While pushed into the limit by a positive error, the clamped integral does not move.
      if (mode == AntiWindup::clamping && pid.output() == limit && pid.error() > 0)
        CHECK(pid.integral() == previous_integral);
      previous_integral = pid.integral();
      max_integral = std::max(max_integral, std::abs(pid.integral()));
      overshoot = std::max(overshoot, x.q - r);
      step_exact(x, pid.output(), T);
    }
    CHECK(x.q == doctest::Approx(r).epsilon(1e-3));  // both settle eventually
  };
  double clamped_integral, clamped_overshoot, plain_integral, plain_overshoot;
  run(AntiWindup::clamping, clamped_integral, clamped_overshoot);
  run(AntiWindup::none, plain_integral, plain_overshoot);
  // The plain integrator winds up beyond what the actuator can deliver while it is saturated
  // and must unwind through a large overshoot; the clamped one cannot.
  CHECK(clamped_integral < limit);
  CHECK(plain_integral > 2.0 * limit);
  CHECK(clamped_overshoot < 0.4 * plain_overshoot);
}

TEST_CASE("pid: integral action removes a constant load's steady-state error") {
  // PD alone settles at q = r − d/K_P under a load d; the integral takes the load over.
  const double J = 0.05, kp = 0.8, kd = 0.24, load = -0.1, T = 1e-3;
  for (const double ki : {0.0, 0.5}) {
    Pid pid({.kp = kp, .ki = ki, .kd = kd, .sample_period = T});
    Inertia x{.J = J};
    for (int k = 0; k < 60000; ++k) {
      pid.update(k * T, {.setpoint = 1.0, .position = x.q, .velocity = x.qd});
      step_exact(x, pid.output() + load, T);
    }
    const double expected = ki == 0.0 ? 1.0 + load / kp : 1.0;
    CHECK(x.q == doctest::Approx(expected).epsilon(1e-6));
  }
}

TEST_CASE("pid: paper 004's torque filter τ_{n+1} = a τ_n + (1−a) τ_ff + τ_PID") {
  // With the measurement frozen, τ_PID = K_P e is constant and the recursion's closed form is
  // τ_n = τ_∞ (1 − a^{n+1}) from τ_{−1} = 0, τ_∞ = τ_ff + τ_PID / (1 − a).
  const double a = 0.75, kp = 0.2, e = 0.5, ff = 0.3;
  Pid pid({.kp = kp, .sample_period = 0.01, .torque_filter = a});
  const double tau_inf = ff + kp * e / (1.0 - a);
  for (int n = 0; n < 40; ++n) {
    REQUIRE(pid.update(n * 0.01, {.setpoint = e, .feed_forward = ff}));
    CHECK(pid.output() == doctest::Approx(tau_inf * (1.0 - std::pow(a, n + 1))).epsilon(1e-12));
  }
  // a = 0: plain PID plus feed-forward.
  Pid plain({.kp = kp, .sample_period = 0.01});
  plain.update(0.0, {.setpoint = e, .feed_forward = ff});
  CHECK(plain.output() == doctest::Approx(ff + kp * e));
}

TEST_CASE("pid: rejects negative gains, a bad period and a filter coefficient a outside 0 ≤ a < 1") {
  CHECK_THROWS(Pid({.kp = -1.0}));
  CHECK_THROWS(Pid({.sample_period = 0.0}));
  CHECK_THROWS(Pid({.torque_filter = 1.0}));
  CHECK_THROWS(Pid({.output_limit = -1.0}));
}
