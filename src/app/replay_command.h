// `sim replay RESULT.h5 [-o FILE.html]`: the run in 3D, one self-contained page.
#pragma once

#include <string>

namespace uwsim::app {

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
// the page is written whole or not at all.
int replay_result(const ReplayOptions& options);

}  // namespace uwsim::app
