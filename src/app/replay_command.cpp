#include "app/replay_command.h"

#include <hdf5.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "app/hdf5_read.h"
#include "app/replay_scene.h"
#include "app/visual_output.h"
#include "embedded_replay.h"
#include "scenario/load_scenario.h"
#include "spatial/rotation.h"

namespace uwsim::app {
namespace {

int fail(const std::string& path, const std::string& what) {
  std::fprintf(stderr, "error: %s: %s\n", path.c_str(), what.c_str());
  return 2;
}

// A whole dataset of `rows` rows of doubles with `columns` columns (1 for a 1-D dataset);
// nullopt if it is absent or has another shape.
std::optional<std::vector<double>> read_dataset(hid_t file, const std::string& path, hsize_t rows, hsize_t columns) {
  auto values = read_table(file, path, columns, rows);
  if (!values || values->size() != rows * columns) return std::nullopt;
  return values;
}

// Names of the bodies a file holds: groups under /bodies with a `position` dataset.
herr_t collect_body(hid_t, const char* name, const H5L_info_t*, void* data) {
  const std::string path = name;
  const std::string suffix = "/position";
  if (path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0)
    static_cast<std::vector<std::string>*>(data)->push_back(path.substr(0, path.size() - suffix.size()));
  return 0;
}

std::vector<std::string> bodies_in_file(hid_t file) {
  std::vector<std::string> names;
  if (H5Lexists(file, "bodies", H5P_DEFAULT) <= 0) return names;
  const Handle group(H5Gopen2(file, "bodies", H5P_DEFAULT), H5Gclose);
  if (group.ok()) H5Lvisit(group.get(), H5_INDEX_NAME, H5_ITER_INC, collect_body, &names);
  return names;
}

// The samples shown: all of them, or every k-th (and the last) to stay within the budget.
std::vector<std::size_t> frame_indices(std::size_t samples, int budget) {
  std::vector<std::size_t> frames;
  if (samples == 0) return frames;
  const std::size_t limit = static_cast<std::size_t>(std::max(budget, 2));
  const std::size_t stride = samples <= limit ? 1 : (samples - 1 + limit - 2) / (limit - 1);
  for (std::size_t i = 0; i < samples; i += stride) frames.push_back(i);
  if (frames.back() != samples - 1) frames.push_back(samples - 1);
  return frames;
}

// JSON text. `<` is escaped too, so no name can close the page's <script> element.
std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const unsigned char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c < 0x20 || c == '<') {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else out += static_cast<char>(c);
  }
  return out + "\"";
}

// Fixed decimals keep the page small: 0.1 mm, 1e-5 of a quaternion, 1 mN. Non-finite → 0.
std::string number(double value, int decimals) {
  if (!std::isfinite(value)) value = 0.0;
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  std::string text = buffer;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

std::string vector_json(const Eigen::Vector3d& v) {
  std::string out = "[";
  out.append(number(v.x(), 6)).append(",").append(number(v.y(), 6)).append(",").append(number(v.z(), 6));
  return out.append("]");
}

// Rows `frames` of an N×columns array, flattened.
std::string rows_json(const std::vector<double>& values, std::size_t columns, const std::vector<std::size_t>& frames, int decimals) {
  std::string out = "[";
  for (std::size_t f = 0; f < frames.size(); ++f)
    for (std::size_t c = 0; c < columns; ++c)
      out.append(f + c ? "," : "").append(number(values[frames[f] * columns + c], decimals));
  return out + "]";
}

std::string solid_json(const ReplaySolid& s) {
  const spatial::Quat q = spatial::quaternion_from_rotation(s.R_BS);
  return std::string("{\"kind\":\"") + (s.kind == ReplaySolid::Kind::box ? "box" : "cylinder") + "\",\"size\":" +
         vector_json(s.size) + ",\"center\":" + vector_json(s.center_B) + ",\"quaternion\":[" + number(q[0], 8) + "," +
         number(q[1], 8) + "," + number(q[2], 8) + "," + number(q[3], 8) + "],\"source\":" + json_string(s.source) + "}";
}

// The solids stored for a body (app/visual_output.h) as {"shapes": [rows], "meshes": {"k":
// {"vertices", "triangles"}}}, or null when the file has none (an older file, or a body with
// no `visual`). A mesh row without its datasets is left to the page, which skips it.
std::string visuals_json(hid_t file, const std::string& body) {
  constexpr hsize_t kMaxRows = hsize_t{1} << 24;
  const std::string group = "visuals/" + body + "/";
  const auto shapes = read_table(file, group + "shapes", kVisualColumns, kMaxRows);
  if (!shapes || shapes->empty()) return "null";
  const auto every_row = [](std::size_t n) {
    std::vector<std::size_t> rows(n);
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    return rows;
  };
  const std::size_t rows = shapes->size() / kVisualColumns;
  std::string out = "{\"shapes\":" + rows_json(*shapes, kVisualColumns, every_row(rows), 6) + ",\"meshes\":{";
  bool first = true;
  for (std::size_t k = 0; k < rows; ++k) {
    if ((*shapes)[k * kVisualColumns] != static_cast<double>(model::VisualSpec::Kind::mesh)) continue;
    const std::string mesh = group + "mesh" + std::to_string(k) + "/";
    const auto vertices = read_table(file, mesh + "vertices", 3, kMaxRows);
    const auto triangles = read_table(file, mesh + "triangles", 3, kMaxRows);
    if (!vertices || !triangles) continue;
    const std::size_t n = vertices->size() / 3;
    const bool in_range = std::all_of(triangles->begin(), triangles->end(), [&](double i) {
      return i >= 0 && i < static_cast<double>(n) && i == std::floor(i);
    });
    if (!in_range) continue;  // not sim's: drawn as nothing rather than as garbage
    out.append(first ? "" : ",").append("\"" + std::to_string(k) + "\":{\"vertices\":" + rows_json(*vertices, 3, every_row(n), 5) +
                                        ",\"triangles\":" + rows_json(*triangles, 3, every_row(triangles->size() / 3), 0) + "}");
    first = false;
  }
  return out + "}}";
}

std::string replace_once(std::string text, const std::string& marker, const std::string& with) {
  const std::size_t at = text.find(marker);
  if (at == std::string::npos) throw std::logic_error("replay template lacks " + marker);
  return text.replace(at, marker.size(), with);
}

}  // namespace

int replay_result(const ReplayOptions& options) {
  const std::string& path = options.input;
  if (embedded::kThreeJsSource.empty())
    return fail(path, "this sim was built without three.js, which the page needs: install Debian's libjs-three "
                      "(apt-get install libjs-three), then reconfigure and rebuild (cmake -S . -B build && cmake --build build)");
  const SilenceHdf5Errors silence;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return fail(path, "no such file");
  if (H5Fis_hdf5(path.c_str()) <= 0) return fail(path, "not an HDF5 file");
  const Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.ok()) return fail(path, "cannot open the HDF5 file (is sim still writing it?)");

  hsize_t samples = 0;
  {
    const Handle time(H5Dopen2(file.get(), "time", H5P_DEFAULT), H5Dclose);
    const Handle space(time.ok() ? H5Dget_space(time.get()) : -1, H5Sclose);
    if (!space.ok() || H5Sget_simple_extent_ndims(space.get()) != 1 || H5Sget_simple_extent_dims(space.get(), &samples, nullptr) < 0)
      return fail(path, "no one-dimensional /time dataset, so not a sim result file");
  }
  const auto time = read_dataset(file.get(), "time", samples, 1);
  if (!time || samples == 0) return fail(path, "/time is empty or unreadable: nothing to replay");

  // The scene from the stored scenario; an older or damaged file still replays its bodies.
  ReplayScene scene;
  std::string warning;
  const auto scenario_text = string_attribute(file.get(), "scenario");
  try {
    if (!scenario_text || *scenario_text == "?") throw std::runtime_error("no readable root attribute 'scenario'");
    scene = scene_from_scenario(*scenario_text);
  } catch (const std::exception& e) {
    const auto* diagnostics = dynamic_cast<const scenario::ScenarioError*>(&e);
    warning = diagnostics && !diagnostics->diagnostics().empty() ? format(diagnostics->diagnostics().front()) : e.what();
    spdlog::warn("{}: the stored scenario does not load ({}); drawing the bodies as marker boxes", path, warning);
    scene = {};
    for (const std::string& name : bodies_in_file(file.get())) scene.bodies.push_back({name, {.source = "unknown"}});
  }

  const std::vector<std::size_t> frames = frame_indices(samples, options.frames);
  std::string data = "{\"name\":" + json_string(string_attribute(file.get(), "scenario_name").value_or("")) +
                     ",\"file\":" + json_string(std::filesystem::path(path).filename().string()) +
                     ",\"status\":" + json_string(string_attribute(file.get(), "status").value_or("")) +
                     ",\"samples\":" + std::to_string(samples) + ",\"warning\":" + json_string(warning) +
                     ",\"time\":" + rows_json(*time, 1, frames, 6) + ",\"bodies\":[";
  std::vector<bool> drawn(scene.bodies.size(), false);
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const ReplayBody& body = scene.bodies[i];
    const auto position = read_dataset(file.get(), "bodies/" + body.name + "/position", samples, 3);
    const auto quaternion = read_dataset(file.get(), "bodies/" + body.name + "/quaternion", samples, 4);
    if (!position || !quaternion) {
      spdlog::warn("{}: no position or quaternion of body '{}' in the file; it is not drawn", path, body.name);
      continue;
    }
    drawn[i] = true;
    data.append(data.back() == '[' ? "" : ",").append("{\"index\":" + std::to_string(i) + ",\"name\":" + json_string(body.name) +
                ",\"free\":" + (body.free ? "true" : "false") + ",\"solid\":" + solid_json(body.solid) +
                ",\"visuals\":" + visuals_json(file.get(), body.name) + ",\"position\":" + rows_json(*position, 3, frames, 4) +
                ",\"quaternion\":" + rows_json(*quaternion, 4, frames, 5) + "}");
  }
  data += "],\"joints\":[";
  for (const ReplayJoint& j : scene.joints)
    if (drawn[static_cast<std::size_t>(j.body)])
      data.append(data.back() == '[' ? "" : ",").append("{\"name\":" + json_string(j.name) + ",\"body\":" + std::to_string(j.body) +
                  ",\"prismatic\":" + (j.prismatic ? "true" : "false") + ",\"point\":" + vector_json(j.p_B) +
                  ",\"axis\":" + vector_json(j.axis_B) + "}");
  data += "],\"thrusters\":[";
  for (const ReplayThruster& t : scene.thrusters) {
    if (!drawn[static_cast<std::size_t>(t.body)]) continue;
    const auto thrust = read_dataset(file.get(), "thrusters/" + t.name + "/thrust", samples, 1);
    data.append(data.back() == '[' ? "" : ",").append("{\"name\":" + json_string(t.name) + ",\"body\":" + std::to_string(t.body) +
                ",\"point\":" + vector_json(t.p_B) + ",\"axis\":" + vector_json(t.axis_B) +
                ",\"thrust\":" + (thrust ? rows_json(*thrust, 1, frames, 3) : "null") + "}");
  }
  data += "],\"connectors\":[";
  for (const ReplayConnector& c : scene.connectors)
    if (drawn[static_cast<std::size_t>(c.first)] && (c.second < 0 || drawn[static_cast<std::size_t>(c.second)]))
      data.append(data.back() == '[' ? "" : ",").append("{\"name\":" + json_string(c.name) + ",\"first\":" + std::to_string(c.first) +
                  ",\"second\":" + std::to_string(c.second) + ",\"point_first\":" + vector_json(c.p_first) +
                  ",\"point_second\":" + vector_json(c.p_second) + "}");
  data += "]}";

  std::string three;
  for (const std::string_view part : embedded::kThreeJsParts) three += part;
  // three.js holds none of the markers, and the data (user names) goes in last.
  std::string page = replace_once(std::string(embedded::kReplayTemplate), "@THREE_VERSION@", std::string(embedded::kThreeJsVersion));
  page = replace_once(page, "/*@THREE_JS@*/", three);
  page = replace_once(page, "/*@REPLAY_DATA@*/", data);

  // Written beside the target and renamed over it: a page is there whole or not at all.
  std::string output = options.output;
  if (output.empty()) output = std::filesystem::path(path).replace_extension(".html").string();
  const std::string partial = output + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << page;
    out.close();
    if (!out) {
      std::filesystem::remove(partial, error);
      return fail(output, "cannot write the page");
    }
  }
  std::filesystem::rename(partial, output, error);
  if (error) {
    std::filesystem::remove(partial, error);
    return fail(output, "cannot write the page");
  }
  spdlog::info("{}: {} of {} samples, {} bodies; open it in a browser", output, frames.size(), samples,
               std::count(drawn.begin(), drawn.end(), true));
  return 0;
}

}  // namespace uwsim::app
