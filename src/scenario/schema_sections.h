// One root property of an embedded JSON Schema, as text: the generated embedded_schemas.h
// (cmake/embed_schemas.cpp) lists a schema's sections so that each is parsed only when a
// document has that key.
#pragma once

#include <string_view>

namespace uwsim::scenario {

struct SchemaSection {
  std::string_view key;
  std::string_view text;  // the section's schema, minified JSON
};

}  // namespace uwsim::scenario
