// The JSON Schemas compiled into the program (cmake/embed_schemas.cpp), parsed section by
// section as documents need them, and what they say at a place of a document: the subschemas
// that apply there, through properties / items, with allOf, anyOf, oneOf, then, else and $ref
// expanded (`not` and `if` are not followed: they say what must not or may hold). For the
// schema check's messages; the validator itself is valijson.
#pragma once

#include <nlohmann/json.hpp>
#include <memory>
#include <string>
#include <vector>

#include "scenario/schema_check.h"

namespace valijson {
class Schema;
}

namespace uwsim::scenario {

using json = nlohmann::json;

// The whole schema, every section parsed.
const json& schema_document(SchemaKind kind);
// The compiled schema to validate `instance` against: the whole schema, with the root's
// `properties` cut to the keys `instance` has (the same verdicts; schema_documents.cpp says
// why). Compiled on first use and kept for the process.
const valijson::Schema& compiled_schema(SchemaKind kind, const json& instance);
// The whole schema compiled, uncut: what the cut one is tested against.
std::unique_ptr<valijson::Schema> compile_whole_schema(SchemaKind kind);

// The subschemas that apply at the document's root.
std::vector<const json*> root_subschemas(SchemaKind kind);
// Given those of a mapping (a list), the subschemas of its value at `key` (its item `index`).
std::vector<const json*> step_property(SchemaKind kind, const std::vector<const json*>& level,
                                       const std::string& key);
std::vector<const json*> step_item(SchemaKind kind, const std::vector<const json*>& level,
                                   std::size_t index);
// Either of those, by the kind of `node` (`segment` an index for a list).
std::vector<const json*> step(SchemaKind kind, const std::vector<const json*>& level,
                              const json& node, const std::string& segment);
// The subschemas at `segments` below the root of `instance`; empty if the place is absent.
std::vector<const json*> subschemas_at(SchemaKind kind, const json& instance,
                                       const std::vector<std::string>& segments);
// The first of `schemas` that has `key`, or nullptr.
const json* with_key(const std::vector<const json*>& schemas, const char* key);

}  // namespace uwsim::scenario
