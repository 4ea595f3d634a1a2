// `sim replay RESULT.h5 [-o FILE.html]`: the run in 3D, one self-contained page.
#pragma once

#include <cstdint>
#include <string>

namespace uwsim::app {

// The numbers a page holds (times, positions, quaternions, thrusts; about 10 bytes each, so a
// page of some 25 MB): --frames is capped to what fits, with a warning, and a file whose
// bodies do not fit in two frames is refused.
inline constexpr std::uint64_t kMaxPageNumbers = 2'500'000;

struct ReplayOptions {
  std::string input;    // result file (HDF5)
  std::string output;   // page to write; default: the input with .html
  int frames = 3000;    // frame budget: longer runs are decimated to at most this many samples
};

// Writes one HTML file with three.js, the page's script and the run's data inlined, so it opens
// offline in any browser. Everything it needs comes from the result file: body poses and
// thrust from the datasets, solids, joints, thrusters and connectors from the resolved
// scenario in the root attribute `scenario`; where that does not load (an older file), the
// bodies are drawn as marker boxes and a warning says why. Returns 0, or 2 (message on
// stderr) for an unreadable file, an unwritable output or a sim built without three.js;
// the page is written whole or not at all. The result file is read through app/result_file.h
// (a file it refuses is exit 2); only the frames' rows of each dataset are kept.
int replay_result(const ReplayOptions& options);

}  // namespace uwsim::app
