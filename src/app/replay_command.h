// `sim replay RESULT.h5 [-o FILE.html]`: the run in 3D, one self-contained page.
#pragma once

#include <cstdint>
#include <string>

namespace uwsim::app {

// The numbers a page holds (times, positions, quaternions, thrusts; some 10 bytes each, so a
// page of about 10 MB, and a browser that draws it smoothly): --frames is capped to what fits,
// with a warning, and a file whose bodies do not fit in two frames is refused. 3000 frames of
// 47 bodies fit; a 10-minute run of uvms_four_arms_manoeuvres.yaml (13 bodies, 8 thrusters:
// 100 numbers a frame) keeps its 3000.
inline constexpr std::uint64_t kMaxPageNumbers = 1'000'000;
// Of them, the bodies' stored visuals (/visuals, app/visual_output.h: 15 numbers a solid, 3 a
// mesh vertex and a triangle) take at most half, once for the whole page; a body whose visuals
// do not fit in what is left is drawn as its solid, with a warning. sim run stores at most
// 10^5 triangles of meshes (scenario/visual_meshes.h), some 4.5·10^5 numbers for closed meshes.
inline constexpr std::uint64_t kMaxVisualNumbers = kMaxPageNumbers / 2;

struct ReplayOptions {
  std::string input;    // result file (HDF5)
  std::string output;   // page to write; default (empty): the input with .html
  int frames = 3000;    // frame budget: longer runs are decimated to at most this many samples
  std::string command_line;  // for the page's lock (output/output_file.h)
};

// Writes one HTML file with three.js, the page's script and the run's data inlined, so it opens
// offline in any browser. Everything it needs comes from the result file: body poses and
// thrust from the datasets, the bodies' visuals from /visuals (app/visual_output.h), solids,
// joints, thrusters and connectors from the resolved scenario in the root attribute
// `scenario`; where that does not load (an older file), the bodies are drawn as marker boxes
// (or their /visuals) and a warning says why. The stored scenario is read as data
// (scenario::load_stored_scenario): no file it names is opened. Returns 0, 2 (message on stderr)
// for an unreadable file, an output that cannot be used (output/output_file.h: the result file
// itself, a link, a FIFO, locked by a run…) or a sim built without three.js, or 5 when the page
// could not be written (a full disk); the page is written whole or not at all. The result file is
// read through app/result_file.h (a file it refuses is exit 2); only the frames' rows are kept.
int replay_result(const ReplayOptions& options);

}  // namespace uwsim::app
