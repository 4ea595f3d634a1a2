// What the reports of `sim compare` and `sim identify` share: number and string formats.
#pragma once

#include <string>

namespace uwsim::app {

// "%.6g", and "nan" for NaN.
std::string format_value(double v, int digits = 6);
// A JSON number (17 significant digits), null when not finite.
std::string json_number(double v);
// A JSON string literal.
std::string json_string(const std::string& s);
// A CSV cell (RFC 4180): as it is, or in double quotes (inner ones doubled) when it holds a ',',
// a '"', a line end, or begins or ends with a space (which readers trim).
std::string csv_cell(const std::string& s);

}  // namespace uwsim::app
