// `include:` in scenario files: parts (files holding bodies, joints and manipulators) placed
// under a name, at a pose and with overrides. Resolution works on the YAML tree before it is
// read, so the resolved tree is an ordinary scenario with no `include` left.
#pragma once

#include <yaml-cpp/yaml.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scenario/load_scenario.h"

namespace uwsim::scenario {

// The files of one load and where their lines went. Every file is parsed with its text
// shifted down by `first_line` blank lines, so that the marks of nodes from different files
// never coincide once parts are spliced into one tree; diagnostics are recorded against the
// root file at those shifted lines and moved back to their own file by relocate(). A text
// generated from another file (a URDF, see urdf_part.h) records, for each of its lines, the
// line and column in that file it came from; relocate() reports there.
class SourceMap {
 public:
  explicit SourceMap(std::string root_file) : root_file_(std::move(root_file)) {}

  const std::string& root_file() const { return root_file_; }
  // Reserves the lines of a file with this text; returns its first (0-based) shifted line.
  int add(const std::string& file, const std::string& text);
  // As add, for `text` generated from `file`: line k of the text came from `origins[k]`
  // (1-based line and column in `file`).
  int add(const std::string& file, const std::string& text,
          std::vector<std::pair<int, int>> origins);
  // A diagnostic of the root file at a shifted line → its own file and line.
  void relocate(Diagnostic& d) const;
  // Every file added, each once, as it was opened.
  std::vector<std::string> files() const;

 private:
  struct Segment {
    std::string file;
    int first_line = 0;
    int lines = 0;
    std::vector<std::pair<int, int>> origins;  // empty: the text is the file's own
  };
  std::string root_file_;
  std::vector<Segment> segments_;
  int next_line_ = 0;
};

// Parses `text` (the file `file`) with its lines shifted down by `first_line`; reports
// problems (at shifted lines, against the root file) and returns nothing if it cannot.
using ShiftedParser = std::function<std::optional<YAML::Node>(
    const std::string& file, const std::string& text, int first_line)>;

// Limits that keep a file including itself through many names, or a tree of parts
// including parts, bounded.
inline constexpr int kMaxIncludeDepth = 16;
inline constexpr int kMaxIncludes = 256;

// Replaces the top-level `include` of `root` (read from the root file of `sources`) by the
// bodies, joints and manipulators of the parts it names, recursively. Problems are appended
// to `diagnostics` at shifted lines (see SourceMap).
void resolve_includes(YAML::Node& root, SourceMap& sources, const ShiftedParser& parse,
                      std::vector<Diagnostic>& diagnostics);

}  // namespace uwsim::scenario
