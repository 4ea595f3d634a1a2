#include "scenario/schema_documents.h"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <string_view>

#include "embedded_schemas.h"

namespace uwsim::scenario {
namespace {

bool names_scenario_schema(std::string_view uri) {
  constexpr std::string_view kName = "scenario.schema.json";
  return uri.size() >= kName.size() && uri.substr(uri.size() - kName.size()) == kName;
}

constexpr int kMaxExpansion = 32;

const json* resolve_ref(const json& ref, const json& root) {
  if (!ref.is_string()) return nullptr;
  const std::string& text = ref.get_ref<const std::string&>();
  const std::size_t hash = text.find('#');
  const std::string file = text.substr(0, hash);
  const std::string pointer = hash == std::string::npos ? "" : text.substr(hash + 1);
  const json& base = file.empty() ? root : schema_document(SchemaKind::scenario);
  if (!file.empty() && !names_scenario_schema(file)) return nullptr;
  try {
    return &base.at(json::json_pointer(pointer));
  } catch (const json::exception&) {
    return nullptr;
  }
}

void expand(const json* schema, const json& root, std::vector<const json*>& out, int depth) {
  if (schema == nullptr || !schema->is_object() || depth > kMaxExpansion) return;
  out.push_back(schema);
  if (auto ref = schema->find("$ref"); ref != schema->end())
    expand(resolve_ref(*ref, root), root, out, depth + 1);
  for (const char* key : {"allOf", "anyOf", "oneOf"})
    if (auto list = schema->find(key); list != schema->end() && list->is_array())
      for (const json& branch : *list) expand(&branch, root, out, depth + 1);
  for (const char* key : {"then", "else"})
    if (auto branch = schema->find(key); branch != schema->end())
      expand(&*branch, root, out, depth + 1);
}

}  // namespace

// The parsed and compiled schemas live until the process ends and are never destroyed:
// freeing their tens of thousands of nodes at exit took a tenth of a short run's start-up.
const json& schema_document(SchemaKind kind) {
  static const json& scenario = *new json(json::parse(embedded::kScenarioSchema));
  static const json& part = *new json(json::parse(embedded::kPartSchema));
  return kind == SchemaKind::scenario ? scenario : part;
}

namespace {

// Compiles `document` as the root schema of `kind` (its $refs into scenario.schema.json are
// served from the parsed document, which lives as long as the process).
std::unique_ptr<valijson::Schema> compile(const json& document) {
  auto schema = std::make_unique<valijson::Schema>();
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::NlohmannJsonAdapter adapter(document);
  parser.populateSchema(
      adapter, *schema,
      [](const std::string& uri) -> const json* {
        return names_scenario_schema(uri) ? &schema_document(SchemaKind::scenario) : nullptr;
      },
      [](const json*) {});
  return schema;
}

// The root schema with `properties` cut to the keys `instance` has. valijson compiles every
// subschema it meets, and a scenario uses a few of the root's sections (the default one 6 of
// 15, a sixth of the schema): compiling the rest was a quarter of a short run's start-up.
// Validating against the cut schema is validating against the whole one: a `properties`
// entry constrains only a key that is present, and a key the schema does not know still
// meets `additionalProperties: false` (the cut leaves it, and every other keyword, as it was).
json root_cut_to(const json& root, const json& instance) {
  json cut = json::object();
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it.key() != "properties") cut[it.key()] = it.value();
  const auto properties = root.find("properties");
  if (properties == root.end()) return cut;
  json& kept = cut["properties"] = json::object();
  if (instance.is_object())
    for (auto it = instance.begin(); it != instance.end(); ++it)
      if (auto p = properties->find(it.key()); p != properties->end()) kept[it.key()] = *p;
  return cut;
}

std::vector<std::string> known_root_keys(SchemaKind kind, const json& instance) {
  std::vector<std::string> keys;
  const json& root = schema_document(kind);
  const auto properties = root.find("properties");
  if (instance.is_object() && properties != root.end())
    for (auto it = instance.begin(); it != instance.end(); ++it)
      if (properties->contains(it.key())) keys.push_back(it.key());
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace

const valijson::Schema& compiled_schema(SchemaKind kind, const json& instance) {
  // One compilation per schema and set of root keys, kept for the process (see above); a
  // run loads one scenario and a few parts, so this holds a handful.
  using Key = std::pair<SchemaKind, std::vector<std::string>>;
  static std::mutex mutex;
  static auto& compiled = *new std::map<Key, std::unique_ptr<valijson::Schema>>;
  Key key{kind, known_root_keys(kind, instance)};
  const std::lock_guard<std::mutex> lock(mutex);
  auto found = compiled.find(key);
  if (found == compiled.end())
    found = compiled.emplace(std::move(key), compile(root_cut_to(schema_document(kind), instance))).first;
  return *found->second;
}

std::unique_ptr<valijson::Schema> compile_whole_schema(SchemaKind kind) {
  return compile(schema_document(kind));
}

std::vector<const json*> root_subschemas(SchemaKind kind) {
  const json& root = schema_document(kind);
  std::vector<const json*> level;
  expand(&root, root, level, 0);
  return level;
}

std::vector<const json*> step_property(SchemaKind kind, const std::vector<const json*>& level,
                                       const std::string& key) {
  const json& root = schema_document(kind);
  std::vector<const json*> next;
  for (const json* s : level) {
    auto properties = s->find("properties");
    if (properties != s->end() && properties->contains(key))
      expand(&(*properties)[key], root, next, 0);
    else if (auto extra = s->find("additionalProperties"); extra != s->end() && extra->is_object())
      expand(&*extra, root, next, 0);
  }
  return next;
}

std::vector<const json*> step_item(SchemaKind kind, const std::vector<const json*>& level,
                                   std::size_t index) {
  const json& root = schema_document(kind);
  std::vector<const json*> next;
  for (const json* s : level) {
    auto items = s->find("items");
    if (items == s->end()) continue;
    if (items->is_object()) expand(&*items, root, next, 0);
    if (items->is_array() && index < items->size()) expand(&(*items)[index], root, next, 0);
  }
  return next;
}

std::vector<const json*> step(SchemaKind kind, const std::vector<const json*>& level,
                              const json& node, const std::string& segment) {
  if (node.is_object()) return step_property(kind, level, segment);
  if (node.is_array()) return step_item(kind, level, std::stoul(segment));
  return {};
}

std::vector<const json*> subschemas_at(SchemaKind kind, const json& instance,
                                       const std::vector<std::string>& segments) {
  std::vector<const json*> level = root_subschemas(kind);
  const json* node = &instance;
  for (const std::string& segment : segments) {
    const json* child = nullptr;
    if (node->is_object()) {
      if (auto it = node->find(segment); it != node->end()) child = &*it;
    } else if (node->is_array()) {
      if (const std::size_t index = std::stoul(segment); index < node->size()) child = &(*node)[index];
    }
    if (child == nullptr) return {};
    level = step(kind, level, *node, segment);
    node = child;
  }
  return level;
}

const json* with_key(const std::vector<const json*>& schemas, const char* key) {
  for (const json* s : schemas)
    if (s->contains(key)) return s;
  return nullptr;
}

std::vector<std::string> schema_keys_at(SchemaKind kind, const std::string& path) {
  std::vector<const json*> level = root_subschemas(kind);
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
    } else if (path[i] == '[') {
      const std::size_t close = path.find(']', i);
      if (close == std::string::npos) return {};
      level = step_item(kind, level, std::stoul(path.substr(i + 1, close - i - 1)));
      i = close + 1;
    } else {
      const std::size_t end = path.find_first_of(".[", i);
      level = step_property(kind, level, path.substr(i, end - i));
      i = end == std::string::npos ? path.size() : end;
    }
  }
  std::vector<std::string> keys;
  for (const json* s : level)
    if (auto p = s->find("properties"); p != s->end() && p->is_object())
      for (auto it = p->begin(); it != p->end(); ++it)
        if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) keys.push_back(it.key());
  return keys;
}

const std::string& schema_text(SchemaKind kind) {
  static const std::string scenario(embedded::kScenarioSchema);
  static const std::string part(embedded::kPartSchema);
  return kind == SchemaKind::scenario ? scenario : part;
}

}  // namespace uwsim::scenario
