// A resolved scenario tree as YAML text (Scenario::resolved_yaml): mappings and lists that hold
// collections in block style, lists of scalars inline, quoted scalars double-quoted so that
// the text reads back to the same scenario.
//
// yaml-cpp's Emitter writes it, but spends some 50 000 instructions a scalar testing each
// against its grammar: for a small scenario that was a sixth of a whole `sim validate`. Most
// scenarios hold only scalars whose form needs no test (numbers, names, plain text), so
// emit_yaml writes those itself, in exactly yaml-cpp's layout, and hands any tree with
// something else (an empty mapping, a null, a list of lists of collections, text with quotes,
// colons or non-ASCII characters) to yaml-cpp whole. A test holds the two to the same text.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

namespace uwsim::scenario {

// The text of `root`, with a final newline.
std::string emit_yaml(const YAML::Node& root);

// The two ways emit_yaml has, for its test: the direct writer (nullopt when the tree holds
// something it leaves to yaml-cpp) and yaml-cpp's Emitter.
std::optional<std::string> emit_yaml_directly(const YAML::Node& root);
std::string emit_yaml_with_yaml_cpp(const YAML::Node& root);

}  // namespace uwsim::scenario
