// Reads a scenario YAML file, applies `--set` overrides, checks every value and returns the
// validated spec. All problems of a file are collected and thrown together.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "scenario/spec.h"

namespace uwsim::scenario {

// One problem in the user's input. line and column are 1-based; 0 when unknown (for example
// a problem in a --set argument, where `file` names the argument instead).
struct Diagnostic {
  std::string file;
  int line = 0;
  int column = 0;
  std::string message;  // "bodies[0].mass: expected a positive number, got -1"
  bool warning = false;  // a problem that does not stop a run
  bool first = false;    // listed before the others: its consequences are reported too (a part
                         // that could not be read, and every reference to its bodies)
};

// "file:line:column: error: message" (line/column omitted when 0; "warning:" for warnings).
std::string format(const Diagnostic& d);

inline constexpr std::size_t kMaxDiagnostics = 500;

class ScenarioError : public std::runtime_error {
 public:
  explicit ScenarioError(std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

// The bodies of the result (including the links `manipulators` expand to: body
// "<arm>/<link>", joint "<arm>/<joint>") are in depth-first pre-order of the joint forest:
// each root (a body with no joint, or jointed to the world) in the order the file lists
// bodies (the `bodies` section, then the manipulators' links), followed by its subtree with
// children in that same order; so every body comes after its parent. The joints are in the
// order of their child bodies. Coefficients derived from a body's `shape` are written into
// resolved_yaml under that body's `derived` key, which is ignored when read (the values are
// derived again), so resolved_yaml reads back to the same scenario and a --set of the shape
// or the mass re-derives them. `bodies` may be absent when manipulators provide the bodies.
//
// `overrides` are "key.path=value" strings as given to --set; list items are addressed by
// their `name` (bodies.rov.mass) or by index (bodies.0.mass); the value is parsed as YAML.
// They apply to the file's YAML before manipulators are expanded: a link is set through its
// manipulator (manipulators.arm1.links.0.mass), never as bodies.arm1/link1.
// Throws ScenarioError (and nothing else) for any problem of the input: every error, in file
// order (causes first, see Diagnostic::first), each said once, at most kMaxDiagnostics of them
// and then one line saying how many more there were. Warnings are in Scenario::warnings.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {});

// As load_scenario on a file named `name` holding `text`, without reading that file: `name`
// appears in diagnostics and as source_path, and includes resolve relative to its directory
// (the current directory for a bare name).
Scenario load_scenario_text(const std::string& text, const std::string& name,
                            const std::vector<std::string>& overrides = {});

// A result file's stored, resolved scenario, which is data, not a program (issue 37): as
// load_scenario_text, but no file it names is opened, so nothing of another file can reach a
// page or a message. An `include` is an error at its key (a resolved scenario has none); a `csv`
// input channel reads as a constant 0, with a warning at its `file` key.
Scenario load_stored_scenario(const std::string& text, const std::string& name);

}  // namespace uwsim::scenario
