#include "app/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace uwsim::app {

namespace {

constexpr double kWidth = 900.0, kPanelHeight = 260.0, kLeft = 80.0, kRight = 20.0, kTop = 40.0, kGap = 50.0;

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

// Round tick values covering [lo, hi], about five of them.
std::vector<double> ticks(double lo, double hi) {
  const double raw = (hi - lo) / 5.0, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = magnitude * (raw / magnitude < 2.0 ? 2.0 : raw / magnitude < 5.0 ? 5.0 : 10.0);
  std::vector<double> t;
  for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step) t.push_back(std::abs(v) < 1e-12 * step ? 0.0 : v);
  return t;
}

void range_of(const std::vector<Curve>& curves, bool x_axis, double& lo, double& hi) {
  lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Curve& c : curves)
    for (double v : x_axis ? c.x : c.y)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!(lo < hi)) {
    const double mid = std::isfinite(lo) ? lo : 0.0;
    lo = mid - 1.0, hi = mid + 1.0;
  } else {
    const double pad = 0.05 * (hi - lo);
    lo -= pad, hi += pad;
  }
}

}  // namespace

std::string svg_figure(const std::string& title, const std::string& x_label, const std::vector<Panel>& panels) {
  const double height = kTop + static_cast<double>(panels.size()) * (kPanelHeight + kGap);
  std::string svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(kWidth) +
                    "\" height=\"" + number(height) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + number(kWidth / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">" + escape(title) + "</text>\n";
  double x_lo, x_hi;
  std::vector<Curve> all;
  for (const Panel& p : panels) all.insert(all.end(), p.curves.begin(), p.curves.end());
  range_of(all, true, x_lo, x_hi);
  const double plot_w = kWidth - kLeft - kRight;
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const Panel& panel = panels[i];
    const double top = kTop + static_cast<double>(i) * (kPanelHeight + kGap), bottom = top + kPanelHeight;
    double y_lo, y_hi;
    range_of(panel.curves, false, y_lo, y_hi);
    const auto X = [&](double x) { return kLeft + (x - x_lo) / (x_hi - x_lo) * plot_w; };
    const auto Y = [&](double y) { return bottom - (y - y_lo) / (y_hi - y_lo) * kPanelHeight; };
    svg += "<rect x=\"" + number(kLeft) + "\" y=\"" + number(top) + "\" width=\"" + number(plot_w) + "\" height=\"" +
           number(kPanelHeight) + "\" fill=\"none\" stroke=\"#444\"/>\n";
    for (double t : ticks(x_lo, x_hi)) {
      svg += "<line x1=\"" + number(X(t)) + "\" y1=\"" + number(top) + "\" x2=\"" + number(X(t)) + "\" y2=\"" + number(bottom) +
             "\" stroke=\"#ddd\"/>\n";
      svg += "<text x=\"" + number(X(t)) + "\" y=\"" + number(bottom + 15) + "\" text-anchor=\"middle\">" + number(t) + "</text>\n";
    }
    for (double t : ticks(y_lo, y_hi)) {
      svg += "<line x1=\"" + number(kLeft) + "\" y1=\"" + number(Y(t)) + "\" x2=\"" + number(kLeft + plot_w) + "\" y2=\"" + number(Y(t)) +
             "\" stroke=\"#ddd\"/>\n";
      svg += "<text x=\"" + number(kLeft - 6) + "\" y=\"" + number(Y(t) + 4) + "\" text-anchor=\"end\">" + number(t) + "</text>\n";
    }
    svg += "<text transform=\"translate(18," + number(0.5 * (top + bottom)) + ") rotate(-90)\" text-anchor=\"middle\">" +
           escape(panel.y_label) + "</text>\n";
    double legend_y = top + 16;
    for (const Curve& c : panel.curves) {
      std::string points;
      // At most ~4 points per pixel column: thin long series evenly (the figure cannot show more).
      const std::size_t stride = std::max<std::size_t>(1, c.x.size() / static_cast<std::size_t>(4 * plot_w));
      for (std::size_t k = 0; k < c.x.size(); k += stride)
        if (std::isfinite(c.y[k])) points += number(X(c.x[k])) + "," + number(Y(c.y[k])) + " ";
      svg += "<polyline fill=\"none\" stroke=\"" + c.colour + "\" stroke-width=\"1.3\"" +
             (c.dashed ? " stroke-dasharray=\"6,3\"" : "") + " points=\"" + points + "\"/>\n";
      svg += "<line x1=\"" + number(kLeft + plot_w - 150) + "\" y1=\"" + number(legend_y - 4) + "\" x2=\"" + number(kLeft + plot_w - 125) +
             "\" y2=\"" + number(legend_y - 4) + "\" stroke=\"" + c.colour + "\" stroke-width=\"2\"" +
             (c.dashed ? " stroke-dasharray=\"6,3\"" : "") + "/>\n";
      svg += "<text x=\"" + number(kLeft + plot_w - 120) + "\" y=\"" + number(legend_y) + "\">" + escape(c.label) + "</text>\n";
      legend_y += 16;
    }
    if (i + 1 == panels.size())
      svg += "<text x=\"" + number(kLeft + plot_w / 2) + "\" y=\"" + number(bottom + 35) + "\" text-anchor=\"middle\">" +
             escape(x_label) + "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace uwsim::app
