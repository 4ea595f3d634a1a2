// The JSON Schemas editors use (schemas/*.schema.json) and the loader agree on every key: each
// mapping the loader opens allows exactly the keys the schema allows there, and every mapping
// the schema describes is opened by the loader on some test input. Together with
// tests/tools/test_schema.sh (every shipped scenario validates against the schema), schema
// and loader cannot drift apart.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "scenario/load_scenario.h"
#include "scenario/yaml_reader.h"
#include "support/scenario_errors.h"

namespace fs = std::filesystem;
using namespace uwsim::scenario;
using json = nlohmann::json;

namespace {

// The schema files as committed.
enum class SchemaKind { scenario, part };

const json& schema_document(SchemaKind kind) {
  static const auto read = [](const char* name) {
    std::ifstream in(std::string(UWSIM_SOURCE_DIR) + "/schemas/" + name);
    return json::parse(in);
  };
  static const json scenario = read("scenario.schema.json");
  static const json part = read("part.schema.json");
  return kind == SchemaKind::scenario ? scenario : part;
}

// `schema` and the subschemas that apply with it: its $ref ("#/…" or
// "scenario.schema.json#/…"), allOf, anyOf, oneOf, then and else, followed on.
void expand(const json* schema, SchemaKind kind, std::vector<const json*>& out, int depth = 0) {
  if (schema == nullptr || !schema->is_object() || depth > 16) return;
  out.push_back(schema);
  if (auto ref = schema->find("$ref"); ref != schema->end() && ref->is_string()) {
    const std::string text = ref->get<std::string>();
    const std::size_t hash = text.find('#');
    const SchemaKind target = hash == 0 ? kind : SchemaKind::scenario;
    const json::json_pointer pointer(text.substr(hash + 1));
    if (schema_document(target).contains(pointer))
      expand(&schema_document(target).at(pointer), target, out, depth + 1);
  }
  for (const char* key : {"allOf", "anyOf", "oneOf"})
    if (auto list = schema->find(key); list != schema->end() && list->is_array())
      for (const json& branch : *list) expand(&branch, kind, out, depth + 1);
  for (const char* key : {"then", "else"})
    if (auto branch = schema->find(key); branch != schema->end()) expand(&*branch, kind, out, depth + 1);
}

// The keys the schema allows in the mapping at `path` (the loader's form, "bodies[0].initial"),
// in any of the subschemas that apply there.
std::vector<std::string> schema_keys_at(SchemaKind kind, const std::string& path) {
  std::vector<const json*> level;
  expand(&schema_document(kind), kind, level);
  std::size_t i = 0;
  while (i < path.size()) {
    std::vector<const json*> next;
    if (path[i] == '.') {
      ++i;
      continue;
    }
    if (path[i] == '[') {
      const std::size_t close = path.find(']', i);
      for (const json* s : level)
        if (auto items = s->find("items"); items != s->end() && items->is_object()) expand(&*items, kind, next);
      i = close + 1;
    } else {
      const std::size_t end = path.find_first_of(".[", i);
      const std::string key = path.substr(i, end - i);
      for (const json* s : level)
        if (auto properties = s->find("properties"); properties != s->end() && properties->contains(key))
          expand(&(*properties)[key], kind, next);
      i = end == std::string::npos ? path.size() : end;
    }
    level = std::move(next);
  }
  std::vector<std::string> keys;
  for (const json* s : level)
    if (auto p = s->find("properties"); p != s->end() && p->is_object())
      for (auto it = p->begin(); it != p->end(); ++it)
        if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) keys.push_back(it.key());
  return keys;
}

// "bodies[3].initial" → "bodies[].initial"
std::string without_indices(const std::string& path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    out += path[i];
    if (path[i] == '[') {
      i = path.find(']', i) - 1;
    }
  }
  return out;
}

std::string join(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

// Every place in the schema that is a mapping with named keys, indices written "[]". The
// combinators (allOf, anyOf, oneOf, then) only restate keys declared under `properties`.
void mappings_of(const json& schema, const std::string& path, std::set<std::string>& out) {
  if (!schema.is_object()) return;
  if (auto p = schema.find("properties"); p != schema.end() && !p->empty()) {
    out.insert(path);
    for (auto it = p->begin(); it != p->end(); ++it) mappings_of(*it, join(path, it.key()), out);
  }
  if (auto items = schema.find("items"); items != schema.end()) mappings_of(*items, path + "[]", out);
  for (const char* key : {"oneOf", "anyOf"})
    if (auto list = schema.find(key); list != schema.end())
      for (const json& branch : *list)
        if (branch.contains("items")) mappings_of(branch["items"], path + "[]", out);
}

std::vector<std::string> loader_inputs() {
  std::vector<std::string> files;
  // Every shipped scenario, paper folders included (parts are read through the scenarios that
  // include them).
  for (const auto& entry : fs::recursive_directory_iterator(std::string(UWSIM_SOURCE_DIR) + "/scenarios"))
    if (entry.path().extension() == ".yaml" && !uwsim::test::is_part_file(entry.path()))
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  for (const char* f : {"/joints/rov_arm.yaml", "/includes/nested.yaml", "/every_mapping.yaml"})
    files.push_back(std::string(UWSIM_TEST_DATA_DIR) + f);
  return files;
}

}  // namespace

TEST_CASE("schema: every mapping the loader reads allows exactly the schema's keys") {
  std::map<std::string, std::vector<std::string>> opened;  // path → the loader's keys
  set_key_observer([&](const std::string& path, const std::vector<std::string>& keys) {
    // A mapping may be opened more than once (a channel: its common keys, then its type's).
    std::vector<std::string>& known = opened[path];
    for (const auto& k : keys)
      if (std::find(known.begin(), known.end(), k) == known.end()) known.push_back(k);
  });
  for (const std::string& file : loader_inputs()) {
    CAPTURE(file);
    try {
      load_scenario(file, uwsim::test::stand_in_overrides(file));
    } catch (const ScenarioError& e) {
      FAIL_CHECK(e.what());
    }
  }
  set_key_observer({});
  REQUIRE(!opened.empty());

  // Each mapping's keys are the schema's keys there; a mapping whose keys depend on its `type`
  // (an input channel, a controller) opens only its type's keys, so the keys of all mappings
  // of a kind together must be the schema's.
  std::set<std::string> kinds;
  std::map<std::string, std::set<std::string>> union_of;        // kind → keys the loader knew
  std::map<std::string, std::vector<std::string>> schema_of;    // kind → keys the schema allows
  for (const auto& [path, keys] : opened) {
    // A part's top level is read at "" too; its keys are those of part.schema.json.
    const bool part = path.empty() && std::find(keys.begin(), keys.end(), "name") == keys.end();
    const std::vector<std::string> schema_keys =
        schema_keys_at(part ? SchemaKind::part : SchemaKind::scenario, path);
    CAPTURE(path);
    // A manipulator's joint knows 'origin' and 'axis' only to reject them with a pointer to
    // its convention's row (tests/data/malformed/manipulator_link_origin.yaml); the schema
    // rejects them as unknown keys.
    const std::string kind = without_indices(path) + (part ? " (part)" : "");
    const bool manipulator_joint = without_indices(path) == "manipulators[].links[].joint";
    for (const auto& k : keys) {
      if (manipulator_joint && (k == "origin" || k == "axis")) continue;
      CAPTURE(k);
      CHECK(std::find(schema_keys.begin(), schema_keys.end(), k) != schema_keys.end());
      union_of[kind].insert(k);
    }
    schema_of[kind] = schema_keys;
    kinds.insert(without_indices(path));
  }
  for (const auto& [kind, schema_keys] : schema_of) {
    CAPTURE(kind);
    for (const auto& k : schema_keys) {
      CAPTURE(k);
      CHECK(union_of[kind].count(k) == 1);
    }
  }

  // Every mapping the schema describes was opened by the loader, except `derived`, which sim
  // writes into result files and no shipped scenario holds (tests/data/malformed/derived_*
  // show the loader checking it).
  std::set<std::string> described;
  mappings_of(schema_document(SchemaKind::scenario), "", described);
  for (const std::string& place : described) {
    if (place.find("derived") != std::string::npos) continue;
    CAPTURE(place);
    CHECK(kinds.count(place) == 1);
  }
}

TEST_CASE("schema: every pattern has a maxLength") {
  // An editor's validator may run std::regex, which recurses per character: on bounded texts.
  int patterns = 0;
  std::function<void(const json&)> walk = [&](const json& node) {
    if (node.is_object()) {
      if (node.contains("pattern") && node["pattern"].is_string()) {
        ++patterns;
        CAPTURE(node["pattern"].get<std::string>());
        CHECK(node.contains("maxLength"));
        CHECK(node.value("maxLength", 100000) <= 1024);
      }
      for (const auto& item : node.items()) walk(item.value());
    } else if (node.is_array()) {
      for (const auto& item : node) walk(item);
    }
  };
  for (SchemaKind kind : {SchemaKind::scenario, SchemaKind::part})
    walk(schema_document(kind));
  CHECK(patterns >= 7);
}
