#include "inputs/input_set.h"

#include <algorithm>

namespace uwsim::inputs {

int InputSet::index_of(const std::string& name) const {
  for (std::size_t i = 0; i < channels.size(); ++i)
    if (channels[i].name == name) return static_cast<int>(i);
  return -1;
}

bool InputSet::sort() {
  // Depth-first post-order; state 1 = on the current path (a cycle if met again), 2 = done.
  order.clear();
  std::vector<int> state(channels.size(), 0);
  std::vector<std::pair<int, std::size_t>> stack;  // channel, next operand to visit
  for (std::size_t root = 0; root < channels.size(); ++root) {
    if (state[root] != 0) continue;
    stack.emplace_back(static_cast<int>(root), 0);
    state[root] = 1;
    while (!stack.empty()) {
      auto& [c, next] = stack.back();
      const std::vector<int>& ops = channels[static_cast<std::size_t>(c)].operands;
      if (next < ops.size()) {
        const int op = ops[next++];
        if (state[static_cast<std::size_t>(op)] == 1) {
          order.clear();
          return false;
        }
        if (state[static_cast<std::size_t>(op)] == 0) {
          state[static_cast<std::size_t>(op)] = 1;
          stack.emplace_back(op, 0);
        }
      } else {
        state[static_cast<std::size_t>(c)] = 2;
        order.push_back(c);
        stack.pop_back();
      }
    }
  }
  return true;
}

void InputSet::sample(double t, double schedule_time, double* values) const {
  for (int i : order) values[i] = evaluate(channels[static_cast<std::size_t>(i)], t, schedule_time, values);
}

std::vector<double> InputSet::discontinuities() const {
  std::vector<double> times;
  for (const Channel& c : channels) append_discontinuities(c, times);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

}  // namespace uwsim::inputs
