// `--set key.path=value` overrides, applied to the YAML tree before it is read.
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scenario/load_scenario.h"

namespace uwsim::scenario {

// Canonical path of each overridden node ("bodies[0].mass") → the --set argument that set
// it, so that problems in an overridden value are reported against the argument rather
// than against a position inside the value string.
using OverrideMap = std::map<std::string, std::string>;

// What a document is: a scenario, or a part that scenarios `include` (bodies, joints,
// manipulators and thrusters only).
enum class DocumentKind { scenario, part };

// True if the value at `path` (the loader's form, "bodies[0].initial") is a mapping the format
// describes (environment, a body's initial state, a joint's limits, ...) in a document of `kind`.
bool is_mapping_place(DocumentKind kind, const std::string& path);

// Applies the arguments in order. Path segments are separated by '.'; in a sequence a
// segment selects the item whose `name` equals it, else an integer index. The whole path
// must exist, except that the last key may be new in an existing mapping, and that a mapping
// the format describes (environment, bodies.rov.initial, ...) is created where the file has
// none. Problems are appended to `diagnostics` with file "--set <argument>".
OverrideMap apply_overrides(YAML::Node& root, const std::vector<std::string>& arguments,
                            std::vector<Diagnostic>& diagnostics);

// Sets one key path ("bodies.rov.mass", segments as for apply_overrides; names may contain
// '/') in `root`, a document of `kind`, to `value` (the node itself, so its marks stay).
// Returns the canonical path of the node set, or nothing with the reason in `failure`.
std::optional<std::string> set_path(const YAML::Node& root, const std::string& key,
                                    const YAML::Node& value, std::string& failure,
                                    DocumentKind kind = DocumentKind::part);

// The --set path of a value the reader found at `path`: "manipulators[0].links[1].joint" →
// "manipulators.0.links.1.joint" (items by index, which --set accepts like names).
std::string set_path_of(const std::string& path);

}  // namespace uwsim::scenario
