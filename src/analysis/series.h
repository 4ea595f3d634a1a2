// A named, sampled time series: what `sim compare` reads from a result file or a CSV of
// measurements, and what `sim identify` takes its joint positions and currents from.
#pragma once

#include <string>
#include <vector>

namespace uwsim::analysis {

struct Series {
  std::string name;            // e.g. joints/arm/joint1/position, bodies/rov/position/north
  std::string units;           // as stated by the file ("" when unknown)
  std::vector<double> time;    // s, strictly increasing
  std::vector<double> values;  // one per time
};

// Linear interpolation of `s` at time t, which must lie within [time.front(), time.back()].
// `hint` is the index to start the search from (the last call's answer for increasing t).
double value_at(const Series& s, double t, std::size_t& hint);

}  // namespace uwsim::analysis
