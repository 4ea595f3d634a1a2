// Validation of scenario and part trees against the JSON Schemas in schemas/, which are
// compiled into the program (cmake/embed_schemas.cpp) and parsed as documents need them. Each
// violation is mapped back to the YAML node it concerns and phrased like the loader's own
// messages: what is wrong, what was expected.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace uwsim::scenario {

enum class SchemaKind {
  scenario,  // schemas/scenario.schema.json
  part,      // schemas/part.schema.json: a file that scenarios `include`
};

struct SchemaViolation {
  std::string path;              // in the loader's form: "bodies[0].added_mass[4]"; "" = root
  std::vector<std::string> segments;  // the same path as keys and indices
  YAML::Mark at;                 // where to report it (a key for unknown keys and empty values)
  std::vector<YAML::Node> chain; // the nodes along the path, below the root
  std::string message;           // without the path: "expected a number, got 'x'"
  std::string subject;           // the path the message names: `path`, or for an unknown
                                 // key (and keys that exclude each other) its mapping's
};

// Every violation of the schema by `root`, in document order of the validator. `root` must
// be bounded (check_structure). Throws nothing for any input.
std::vector<SchemaViolation> check_schema(const YAML::Node& root, SchemaKind kind);

// The keys the schema allows in the mapping at `path` (loader form, "bodies[0].initial"),
// in any of the subschemas that apply there; empty if none names any.
std::vector<std::string> schema_keys_at(SchemaKind kind, const std::string& path);

// The schema text compiled into the program.
const std::string& schema_text(SchemaKind kind);

}  // namespace uwsim::scenario
