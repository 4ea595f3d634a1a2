// References: [Leborne2018] Sec. IV-B; Swevers et al., IEEE T-RA 13(5), 1997 (finite Fourier
// series excitation trajectories); [Nielsen2018]/[LeonGonzalez2024] sine manoeuvres.
#include <cmath>

#include "inputs/channel.h"

namespace uwsim::inputs {

namespace {
bool active(const Channel& c, double schedule_time) {
  return c.start <= schedule_time && schedule_time < c.stop;
}
}  // namespace

double sine(const Channel& c, double t, double schedule_time) {
  if (!active(c, schedule_time)) return c.offset;
  return c.offset + c.amplitude * std::sin(2.0 * M_PI * c.frequency * (t - c.start) + c.phase);
}

double fourier(const Channel& c, double t, double schedule_time) {
  if (!active(c, schedule_time)) return c.offset;
  const double omega_t = 2.0 * M_PI * c.frequency * (t - c.start);
  double sum = c.offset;
  for (std::size_t k = 0; k < c.sine_coefficients.size(); ++k) {
    const double angle = static_cast<double>(k + 1) * omega_t;
    sum += c.sine_coefficients[k] * std::sin(angle) + c.cosine_coefficients[k] * std::cos(angle);
  }
  return sum;
}

}  // namespace uwsim::inputs
