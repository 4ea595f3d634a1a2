// `sim describe FILE.h5`: print what a result file holds.
#pragma once

#include <cstdio>
#include <string>

namespace uwsim::app {

// `sim describe FILE.h5`: what a result file holds, so nobody needs h5dump to look.
// Returns 0, or 2 if the file cannot be read as a result file (message on stderr).
int describe_result(const std::string& path, std::FILE* out);

}  // namespace uwsim::app
