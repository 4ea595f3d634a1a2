// Reports and figures of `sim compare` and `sim identify`: written whole or not at all.
#pragma once

#include <string>

namespace uwsim::app {

// Writes `text` to a temporary file beside `path` and renames it over `path`, so a reader never
// sees half a file and a failure leaves what was there. Creates missing folders. Returns an
// empty string, or what went wrong.
std::string write_text_file(const std::string& path, const std::string& text);

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
