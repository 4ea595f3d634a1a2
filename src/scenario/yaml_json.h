// A yaml-cpp tree as the JSON document a JSON Schema validator sees, with YAML 1.2 core-schema
// typing: plain scalars become null, booleans, integers or numbers by their text, quoted
// scalars (and `!!str`) stay strings.
#pragma once

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

namespace uwsim::scenario {

// One exception to YAML 1.2: a number is a finite decimal ("12", "-2.5e3", "+.5"), as the
// loader reads numbers. The other YAML 1.2 numerals (.inf, .nan, 0x1F, 0o17) and decimals
// beyond the range of double (1e400) have no JSON form; they become strings, so that the
// schema rejects them wherever it expects a number.
//
// Keys that are not scalars have no JSON form either and are left out (the loader reports
// them); of a key given twice the first is kept, as the loader's lookups do. The tree must
// be bounded (check_structure): aliases are expanded.
nlohmann::json to_json(const YAML::Node& node);

}  // namespace uwsim::scenario
