// Every schedule of inputs/channel.h against its closed form, evaluated as the integrator does.
#include <doctest/doctest.h>

#include <cmath>

#include "inputs/input_set.h"

using namespace uwsim::inputs;

namespace {

Channel make(ChannelKind kind) {
  Channel c;
  c.kind = kind;
  return c;
}

Table table(std::vector<double> x, std::vector<double> y) { return Table{std::move(x), std::move(y)}; }

// Within a smooth segment the schedule time is the segment start; at a sample it is t.
double at(const Channel& c, double t) { return evaluate(c, t, t, nullptr); }

}  // namespace

TEST_CASE("inputs: constant, step and ramp match their closed forms") {
  Channel constant = make(ChannelKind::constant);
  constant.value = -2.5;
  CHECK(at(constant, 0.0) == -2.5);
  CHECK(at(constant, 1e6) == -2.5);

  Channel step = make(ChannelKind::step);
  step.value = 1500.0;
  step.table = table({2.0, 12.0, 22.0}, {1600.0, 1700.0, 1800.0});
  CHECK(at(step, 0.0) == 1500.0);
  CHECK(at(step, 1.999) == 1500.0);
  CHECK(at(step, 2.0) == 1600.0);   // the new value from the step time on
  CHECK(at(step, 11.0) == 1600.0);
  CHECK(at(step, 12.0) == 1700.0);
  CHECK(at(step, 100.0) == 1800.0);

  Channel ramp = make(ChannelKind::ramp);
  ramp.start = 1.0, ramp.stop = 3.0, ramp.from = 10.0, ramp.to = 20.0;
  for (double t : {0.0, 0.5, 1.0, 1.7, 2.9, 3.0, 7.0}) {
    const double expected = t <= 1.0 ? 10.0 : t >= 3.0 ? 20.0 : 10.0 + 10.0 * (t - 1.0) / 2.0;
    CHECK(at(ramp, t) == doctest::Approx(expected).epsilon(1e-15));
  }
}

TEST_CASE("inputs: piecewise_linear interpolates linearly and holds its end values") {
  Channel c = make(ChannelKind::piecewise_linear);
  c.table = table({0.5, 1.0, 3.0}, {2.0, -1.0, 3.0});
  CHECK(at(c, 0.0) == 2.0);
  CHECK(at(c, 0.5) == 2.0);
  CHECK(at(c, 0.75) == doctest::Approx(0.5));
  CHECK(at(c, 1.0) == -1.0);
  CHECK(at(c, 2.5) == doctest::Approx(-1.0 + 4.0 * 0.75));
  CHECK(at(c, 3.0) == 3.0);
  CHECK(at(c, 9.0) == 3.0);
}

TEST_CASE("inputs: zero-order hold holds each sample until the next and jumps there") {
  Channel c = make(ChannelKind::piecewise_linear);
  c.interpolation = Interpolation::hold;
  // 100 Hz samples.
  std::vector<double> t, y;
  for (int k = 0; k < 50; ++k) t.push_back(0.01 * k), y.push_back(std::sin(0.3 * k) + 0.1 * k);
  c.table = table(t, y);
  for (int k = 0; k + 1 < 50; ++k) {
    for (double f : {0.0, 0.25, 0.5, 0.999}) {
      const double tt = t[k] + f * (t[k + 1] - t[k]);
      CHECK(at(c, tt) == y[k]);
    }
  }
  CHECK(at(c, 10.0) == y.back());
  // Each later sample time is a jump the integrator lands on.
  std::vector<double> jumps;
  append_discontinuities(c, jumps);
  CHECK(jumps == std::vector<double>(t.begin() + 1, t.end()));
}

TEST_CASE("inputs: jumping channels choose their branch by the schedule time, not the stage time") {
  Channel step = make(ChannelKind::step);
  step.value = 0.0;
  step.table = table({1.0}, {5.0});
  // An rk4 stage of the segment [0.9, 1.0) evaluated at its end still sees the old value.
  CHECK(evaluate(step, 1.0, 0.9, nullptr) == 0.0);
  CHECK(evaluate(step, 1.05, 1.0, nullptr) == 5.0);
  Channel sine_channel = make(ChannelKind::sine);
  sine_channel.amplitude = 1.0, sine_channel.frequency = 1.0, sine_channel.phase = 0.5;
  sine_channel.start = 2.0, sine_channel.stop = 3.0;
  CHECK(evaluate(sine_channel, 2.0, 1.5, nullptr) == 0.0);                   // window not open yet
  CHECK(evaluate(sine_channel, 3.0, 2.5, nullptr) == doctest::Approx(std::sin(2.0 * M_PI + 0.5)));
}

TEST_CASE("inputs: sine and fourier match their closed forms in the window and give the offset outside") {
  Channel s = make(ChannelKind::sine);
  s.amplitude = 2.0, s.frequency = 0.25, s.phase = 0.3, s.offset = 1.0, s.start = 1.0, s.stop = 9.0;
  for (double t : {0.0, 0.99, 1.0, 2.3, 5.0, 8.99, 9.0, 12.0}) {
    const double expected = t >= 1.0 && t < 9.0 ? 1.0 + 2.0 * std::sin(2.0 * M_PI * 0.25 * (t - 1.0) + 0.3) : 1.0;
    CHECK(at(s, t) == doctest::Approx(expected).epsilon(1e-14));
  }
  Channel f = make(ChannelKind::fourier);
  f.frequency = 0.1, f.offset = 0.2;
  f.sine_coefficients = {0.5, -0.25, 0.125};
  f.cosine_coefficients = {0.0, 0.75, -0.5};
  for (double t : {0.0, 1.3, 4.7, 9.99, 33.0}) {
    const double w = 2.0 * M_PI * 0.1;
    double expected = 0.2;
    expected += 0.5 * std::sin(w * t) + 0.0 * std::cos(w * t);
    expected += -0.25 * std::sin(2 * w * t) + 0.75 * std::cos(2 * w * t);
    expected += 0.125 * std::sin(3 * w * t) - 0.5 * std::cos(3 * w * t);
    CHECK(at(f, t) == doctest::Approx(expected).epsilon(1e-14));
  }
  std::vector<double> jumps;
  append_discontinuities(s, jumps);
  CHECK(jumps == std::vector<double>{1.0, 9.0});
}

TEST_CASE("inputs: quintic goes rest to rest, halfway at mid-time, with zero velocity and acceleration at the ends") {
  const double t0 = 1.0, t1 = 3.0, q0 = -0.4, q1 = 1.1;
  CHECK(quintic(0.0, t0, t1, q0, q1) == q0);
  CHECK(quintic(t0, t0, t1, q0, q1) == q0);
  CHECK(quintic(2.0, t0, t1, q0, q1) == doctest::Approx(0.5 * (q0 + q1)).epsilon(1e-15));
  CHECK(quintic(t1, t0, t1, q0, q1) == doctest::Approx(q1).epsilon(1e-15));
  CHECK(quintic(5.0, t0, t1, q0, q1) == doctest::Approx(q1).epsilon(1e-15));
  // Closed form at a quarter: s = 1/4 → 10/64 − 15/256 + 6/1024 = 0.103515625.
  CHECK(quintic(1.5, t0, t1, q0, q1) == doctest::Approx(q0 + (q1 - q0) * 0.103515625).epsilon(1e-15));
  // Velocity and acceleration by central differences: zero at both ends, peak 15/8·Δq/T mid-way.
  const double h = 1e-4;
  auto velocity = [&](double t) { return (quintic(t + h, t0, t1, q0, q1) - quintic(t - h, t0, t1, q0, q1)) / (2 * h); };
  auto acceleration = [&](double t) {
    return (quintic(t + h, t0, t1, q0, q1) - 2 * quintic(t, t0, t1, q0, q1) + quintic(t - h, t0, t1, q0, q1)) / (h * h);
  };
  CHECK(std::abs(velocity(t0)) < 1e-7);
  CHECK(std::abs(velocity(t1)) < 1e-7);
  CHECK(std::abs(acceleration(t0)) < 1e-3);
  CHECK(std::abs(acceleration(t1)) < 1e-3);
  CHECK(velocity(2.0) == doctest::Approx(15.0 / 8.0 * (q1 - q0) / (t1 - t0)).epsilon(1e-6));
}

TEST_CASE("inputs: sums and scales see their operands' values — a cycle is refused") {
  InputSet set;
  Channel total = make(ChannelKind::sum);
  total.operands = {1, 2};
  Channel a = make(ChannelKind::constant);
  a.value = 3.0;
  Channel b = make(ChannelKind::ramp);
  b.start = 0.0, b.stop = 2.0, b.from = 0.0, b.to = 4.0;
  Channel scaled = make(ChannelKind::scale);
  scaled.operands = {0};
  scaled.gain = -2.0, scaled.offset = 1.0;
  set.channels = {total, a, b, scaled};
  REQUIRE(set.sort());
  double values[4];
  set.sample(1.0, 1.0, values);
  CHECK(values[1] == 3.0);
  CHECK(values[2] == 2.0);
  CHECK(values[0] == 5.0);
  CHECK(values[3] == -9.0);

  set.channels[1] = make(ChannelKind::scale);
  set.channels[1].operands = {3};  // total → a → scaled → total
  CHECK_FALSE(set.sort());
}

TEST_CASE("inputs: the jump times of a set are its steps, held samples and window edges, sorted once") {
  InputSet set;
  Channel step = make(ChannelKind::step);
  step.table = table({3.0, 1.0}, {0.0, 0.0});
  Channel held = make(ChannelKind::csv);
  held.interpolation = Interpolation::hold;
  held.table = table({0.0, 1.0, 2.0}, {1.0, 2.0, 3.0});
  Channel smooth = make(ChannelKind::piecewise_linear);
  smooth.table = table({0.5, 4.0}, {0.0, 1.0});
  set.channels = {step, held, smooth};
  CHECK(set.discontinuities() == std::vector<double>{1.0, 2.0, 3.0});
}
