// A scan of a YAML text's characters for flow collections ([...] and {...}) nested deeper than
// a limit, run before yaml-cpp sees the text: yaml-cpp 0.7's scanner reads a whole nest of
// flow collections, holding every token, before its parser hands out the first event, so the
// event count that bounds everything else comes too late there (10^6 levels took 1.2 s and
// 289 MB, 16 MiB of '[' 28 s and 3.75 GB). Linear in the text, no allocation.
//
// Quoted scalars, comments and block scalars (| and >) are skipped; in block context a bracket
// opens a collection only where a node starts (after indentation, "- ", "? " or ": "), as in
// YAML; inside a flow collection every bracket counts, as no plain scalar there may hold one.
#pragma once

#include <optional>
#include <string_view>

namespace uwsim::scenario {

struct TextPosition {
  int line = 0;    // 1-based
  int column = 0;  // 1-based, in bytes
};

// Where the first bracket that opens a flow collection `limit` + 1 deep is, if any.
std::optional<TextPosition> flow_nested_deeper_than(std::string_view text, int limit);

}  // namespace uwsim::scenario
