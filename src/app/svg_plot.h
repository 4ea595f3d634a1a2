// Overlay figures as SVG, written without any plotting library: `sim compare --plot` draws
// each compared pair (A and B against time) above their difference.
#pragma once

#include <string>
#include <vector>

namespace uwsim::app {

struct Curve {
  std::string label;
  std::string colour;  // CSS colour
  std::vector<double> x, y;
  bool dashed = false;
};

struct Panel {
  std::string y_label;
  std::vector<Curve> curves;
};

// Panels stacked vertically sharing the x axis; returns the SVG document.
std::string svg_figure(const std::string& title, const std::string& x_label, const std::vector<Panel>& panels);

}  // namespace uwsim::app
