// The schema a document is validated against is the whole schema with the root's `properties`
// cut to the document's keys (scenario/schema_documents.h), compiled in a fraction of the
// time. These tests hold it to giving the whole schema's verdicts, error for error, on every
// YAML file of the repository and on documents that break each root section in turn. The
// schema's sections are embedded and parsed one by one; the first test checks they add up.
#include <doctest/doctest.h>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "scenario/schema_check.h"
#include "scenario/schema_documents.h"
#include "scenario/yaml_json.h"
#include "support/scenario_errors.h"

namespace fs = std::filesystem;
using namespace uwsim::scenario;

namespace {

// Each error as its place and text, in the validator's order.
std::vector<std::string> errors(const valijson::Schema& schema, const json& instance) {
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  validator.validate(schema, valijson::adapters::NlohmannJsonAdapter(instance), &results);
  std::vector<std::string> out;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    std::string place;
    for (const std::string& c : error.context) place += c;
    out.push_back(place + ": " + error.description);
  }
  return out;
}

const valijson::Schema& whole(SchemaKind kind) {
  static const auto scenario = compile_whole_schema(SchemaKind::scenario);
  static const auto part = compile_whole_schema(SchemaKind::part);
  return kind == SchemaKind::scenario ? *scenario : *part;
}

void check_same_verdict(SchemaKind kind, const json& instance, const std::string& what) {
  const std::vector<std::string> expected = errors(whole(kind), instance);
  const std::vector<std::string> got = errors(compiled_schema(kind, instance), instance);
  INFO(what << (kind == SchemaKind::scenario ? " as a scenario" : " as a part"));
  CHECK(got == expected);
}

}  // namespace

TEST_CASE("embedded schemas: the root and sections parsed one by one are the schema's text") {
  for (SchemaKind kind : {SchemaKind::scenario, SchemaKind::part}) {
    const json whole_text = json::parse(schema_text(kind));
    CHECK(schema_document(kind).dump() == whole_text.dump());  // dump tells 1 from 1.0
    CHECK(schema_document(kind).at("properties").size() == whole_text.at("properties").size());
  }
}

TEST_CASE("schema cut to a document's root keys: the whole schema's errors on every YAML file here") {
  const std::vector<fs::path> files = uwsim::test::repository_yaml_files();
  REQUIRE(files.size() > 100);
  int invalid = 0;
  for (const fs::path& file : files) {
    YAML::Node node;
    try {
      node = YAML::LoadFile(file.string());
    } catch (const YAML::Exception&) {
      continue;  // the malformed YAML cases: no document to validate
    }
    const json instance = to_json(node);
    for (SchemaKind kind : {SchemaKind::scenario, SchemaKind::part}) {
      check_same_verdict(kind, instance, file.string());
      invalid += !errors(whole(kind), instance).empty();
    }
  }
  // Both verdicts occur: every scenario fails as a part and the malformed ones as scenarios.
  CHECK(invalid > static_cast<int>(files.size()) / 2);
}

TEST_CASE("schema cut to a document's root keys: each root section broken in turn is rejected as by the whole schema") {
  for (SchemaKind kind : {SchemaKind::scenario, SchemaKind::part}) {
    const json& properties = schema_document(kind).at("properties");
    REQUIRE(properties.size() >= 5);
    for (auto it = properties.begin(); it != properties.end(); ++it) {
      // No section of either schema is a boolean, and a mapping whose keys are all unknown
      // breaks every section that is a mapping or a list of mappings.
      for (const json& wrong : {json(true), json::object({{"no_such_key", 1}}),
                                json::array({json::object({{"no_such_key", 1}})})}) {
        json instance = {{"name", "cut"}, {it.key(), wrong}};
        check_same_verdict(kind, instance, "'" + it.key() + "': " + wrong.dump());
        CHECK_FALSE(errors(compiled_schema(kind, instance), instance).empty());
      }
    }
    // A key no schema knows, alone and beside known ones.
    check_same_verdict(kind, json{{"no_such_section", 1}}, "an unknown root key");
    check_same_verdict(kind, json{{"bodies", json::array()}, {"no_such_section", 1}}, "an unknown root key beside bodies");
    CHECK_FALSE(errors(compiled_schema(kind, json{{"no_such_section", 1}}), json{{"no_such_section", 1}}).empty());
    // Not a mapping at all.
    check_same_verdict(kind, json::array({1, 2}), "a list");
  }
}
