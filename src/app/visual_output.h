// The bodies' visuals (model/spec.h, VisualSpec) in a result file, so that `sim replay` draws
// them from that file alone (it never opens a file the stored scenario names):
//   /visuals/<body>/shapes               (K×15)  one row per solid: kind (1 box, 2 cylinder,
//                                                 3 sphere, 4 mesh), size (3, m), position of
//                                                 its frame V in the body frame (3, m), the
//                                                 quaternion [w x y z] of V → body, colour
//                                                 [red green blue opacity] (red −1: the body's)
//   /visuals/<body>/mesh<k>/vertices     (V×3)   m, in V (scaled), for row k if it is a mesh
//   /visuals/<body>/mesh<k>/triangles    (M×3)   vertex indices from 0, counter-clockwise
//                                                 seen from outside
// Written by `sim run` before its first sample, committed with the file's structure.
#pragma once

#include <string_view>
#include <vector>

#include "model/spec.h"
#include "output/hdf5_file.h"

namespace uwsim::app {

inline constexpr int kVisualColumns = 15;
// Not time series: written once, of their own lengths (so `sim compare` and `sim identify` do
// not take them for series, app/series_files.h).
inline constexpr std::string_view kVisualsGroup = "/visuals/";

// Declares and fills the datasets above for every body with visuals.
void write_visuals(output::Hdf5File& file, const std::vector<model::BodySpec>& bodies);

}  // namespace uwsim::app
