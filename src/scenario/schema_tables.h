// The parts of the JSON schemas in schemas/ that the tables of the format (tables.h) describe,
// generated from them: editors see the keys, kinds, signs, units, defaults and documentation
// the reader uses. uwsim_schema (cmake/write_schemas.cpp) writes them into the schema files;
// a ctest checks that the committed files are what it writes.
#pragma once

#include <string>
#include <vector>

#include "scenario/field_table.h"

namespace uwsim::scenario {

struct SchemaSection {
  std::string file;     // "scenario.schema.json"
  std::string pointer;  // where in it, as a JSON pointer: "/properties/environment"
  std::string json;     // the schema of the value there
};

// The schema of a mapping of `table`'s keys, as JSON text.
std::string table_schema(const TableInfo& table);

std::vector<SchemaSection> generated_schema_sections();

}  // namespace uwsim::scenario
