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
// A CSV field (RFC 4180): as it is, or in double quotes (each '"' doubled) if it holds a
// comma, a double quote, CR or LF.
std::string csv_field(const std::string& s);

}  // namespace uwsim::app
