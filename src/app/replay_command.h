// `sim replay RESULT.h5 [-o FILE.html]`: the run in 3D, one self-contained page.
#pragma once

#include <string>

namespace uwsim::app {

struct ReplayOptions {
  std::string input;    // result file (HDF5)
  std::string output;   // page to write; default (empty): the input with .html
  int frames = 3000;    // frame budget: longer runs are decimated to at most this many samples
  std::string command_line;  // for the page's lock (output/output_file.h)
};

// Writes one HTML file with three.js, the page's script and the run's data inlined, so it opens
// offline in any browser. Everything it needs comes from the result file: body poses and
// thrust from the datasets, solids, joints, thrusters and connectors from the resolved
// scenario in the root attribute `scenario`; where that does not load (an older file), the
// bodies are drawn as marker boxes and a warning says why. The stored scenario is read as data
// (scenario::load_stored_scenario): no file it names is opened. Returns 0, 2 (message on stderr)
// for an unreadable file, an output that cannot be used (output/output_file.h: the result file
// itself, a link, a FIFO, locked by a run…) or a sim built without three.js, or 5 when the page
// could not be written (a full disk); the page is written whole or not at all.
int replay_result(const ReplayOptions& options);

}  // namespace uwsim::app
