// All command channels of a model and the order that evaluates operands before the sums and
// scales that use them (see channel.h for the schedules).
#pragma once

#include <string>
#include <vector>

#include "inputs/channel.h"

namespace uwsim::inputs {

struct InputSet {
  std::vector<Channel> channels;  // in scenario order; operands refer to these indices
  std::vector<int> order;         // evaluation order: every operand before its users

  int index_of(const std::string& name) const;  // −1 if none
  // Computes `order`. Returns false (order left empty) if the operands form a cycle.
  bool sort();
  // Writes c_i(t) into values[i] for every channel. Does not allocate.
  void sample(double t, double schedule_time, double* values) const;
  // Sorted, unique jump times of all channels.
  std::vector<double> discontinuities() const;
};

// Where a command comes from: a channel, or a constant where no channel is named.
struct CommandSource {
  int channel = -1;       // index into InputSet::channels, or −1
  double constant = 0.0;  // the command when channel is −1

  double value(const double* channel_values) const {
    return channel >= 0 ? channel_values[channel] : constant;
  }
};

}  // namespace uwsim::inputs
