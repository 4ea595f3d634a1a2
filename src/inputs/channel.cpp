#include "inputs/channel.h"

#include <cmath>
#include <stdexcept>

namespace uwsim::inputs {

double evaluate(const Channel& c, double t, double schedule_time, const double* values) {
  if (c.kind == ChannelKind::constant) return c.value;
  // A delayed channel holds c(0) on the segments before its delay ends (a breakpoint).
  if (c.delay > 0.0 && schedule_time < c.delay) return c.initial;
  switch (c.kind) {
    case ChannelKind::constant: return c.value;
    case ChannelKind::step: {
      const long k = c.table.index_at_or_before(schedule_time);
      return k < 0 ? c.value : c.table.y[static_cast<std::size_t>(k)];
    }
    case ChannelKind::ramp: return ramp(t, c.start, c.stop, c.from, c.to);
    case ChannelKind::piecewise_linear:
    case ChannelKind::csv:
      return c.interpolation == Interpolation::linear ? c.table.linear(t) : c.table.hold(schedule_time);
    case ChannelKind::sine: return sine(c, t, schedule_time);
    case ChannelKind::fourier: return fourier(c, t, schedule_time);
    case ChannelKind::quintic: return quintic(t, c.start, c.stop, c.from, c.to);
    case ChannelKind::sum: {
      double sum = 0.0;
      for (int i : c.operands) sum += values[i];
      return sum;
    }
    case ChannelKind::scale: return c.gain * values[c.operands.front()] + c.offset;
  }
  return 0.0;
}

void apply_delay(Channel& c) {
  if (c.delay <= 0.0) return;
  if (c.kind == ChannelKind::sum || c.kind == ChannelKind::scale)
    throw std::invalid_argument("apply_delay: a sum or scale takes its operands' delays");
  Channel undelayed = c;
  undelayed.delay = 0.0;
  c.initial = evaluate(undelayed, 0.0, 0.0, nullptr);
  const double d = c.delay;
  for (double& x : c.table.x) x += d;
  c.start += d;
  if (std::isfinite(c.stop)) c.stop += d;
}

void append_discontinuities(const Channel& c, std::vector<double>& times) {
  if (c.delay > 0.0 && c.kind != ChannelKind::constant) times.push_back(c.delay);
  switch (c.kind) {
    case ChannelKind::step:
      times.insert(times.end(), c.table.x.begin(), c.table.x.end());
      break;
    case ChannelKind::piecewise_linear:
    case ChannelKind::csv:
      // Held samples jump at every sample after the first (before it the first value holds).
      if (c.interpolation == Interpolation::hold) times.insert(times.end(), c.table.x.begin() + 1, c.table.x.end());
      break;
    case ChannelKind::sine:
    case ChannelKind::fourier:
      if (c.start > 0.0) times.push_back(c.start);
      if (std::isfinite(c.stop)) times.push_back(c.stop);
      break;
    default:
      break;
  }
}

}  // namespace uwsim::inputs
