// The one rule for every numeric option of every subcommand: a finite number within the
// option's range, checked on the text before CLI11 converts it. CLI11's own NonNegativeNumber
// and Range let NaN through (every comparison with NaN is false), and a double option takes
// "inf" and 1e300; `--dtw-window nan` once corrupted the heap. A refused value is exit 2 at
// parse time, with the message "--option: expected …, got TEXT".
#pragma once

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace uwsim::app {

struct NumberRange {
  double low = -std::numeric_limits<double>::infinity();  // ±inf: no bound but finiteness
  double high = std::numeric_limits<double>::infinity();
  bool low_open = false;  // low itself refused (a positive number: low 0, low_open)
  bool integer = false;
  const char* unit = nullptr;  // "seconds": "a positive number of seconds"
};

inline std::string range_text(const NumberRange& r) {
  const auto number = [](double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", x);
    return std::string(text);
  };
  const std::string kind = r.integer ? "an integer" : "a number";
  const std::string unit = r.unit ? std::string(" of ") + r.unit : "";
  const bool has_low = std::isfinite(r.low), has_high = std::isfinite(r.high);
  if (has_low && has_high) return kind + unit + " in " + (r.low_open ? "(" : "[") + number(r.low) + ", " + number(r.high) + "]";
  if (has_low && r.low == 0.0) return (r.low_open ? "a positive " + kind.substr(kind.find(' ') + 1) : kind + " ≥ 0") + unit;
  if (has_low) return kind + unit + (r.low_open ? " > " : " ≥ ") + number(r.low);
  if (has_high) return kind + unit + " ≤ " + number(r.high);
  return (r.integer ? "a finite integer" : "a finite number") + unit;
}

inline CLI::Validator number_in(NumberRange range) {
  return CLI::Validator(
      [range](const std::string& text) {
        double x = 0.0;
        const bool parsed = CLI::detail::lexical_cast(text, x);
        const bool ok = parsed && std::isfinite(x) && (range.low_open ? x > range.low : x >= range.low) && x <= range.high &&
                        (!range.integer || x == std::floor(x));
        return ok ? std::string() : "expected " + range_text(range) + ", got " + text;
      },
      range_text(range));
}

// The ranges the options use.
inline CLI::Validator any_finite(const char* unit = nullptr) { return number_in({.unit = unit}); }
inline CLI::Validator non_negative(const char* unit = nullptr) { return number_in({.low = 0.0, .unit = unit}); }
inline CLI::Validator positive(const char* unit = nullptr) { return number_in({.low = 0.0, .low_open = true, .unit = unit}); }

}  // namespace uwsim::app
