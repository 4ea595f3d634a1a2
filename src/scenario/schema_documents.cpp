#include "scenario/schema_documents.h"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <utility>

#include "embedded_schemas.h"

namespace uwsim::scenario {
namespace {

bool names_scenario_schema(std::string_view uri) {
  constexpr std::string_view kName = "scenario.schema.json";
  return uri.size() >= kName.size() && uri.substr(uri.size() - kName.size()) == kName;
}

// A schema as parsed so far: its root without the root's properties, then each root section
// as it is first needed. A scenario uses a few of the fifteen sections, and parsing the whole
// text was a quarter of a short run's start-up. Sections join the one document in place, and
// nlohmann's objects are std::maps, so a pointer into the document stays valid as it grows.
// The loader runs on one thread: the store is not guarded for concurrent readers.
// Stores live until the process ends and are never destroyed: freeing their tens of thousands
// of nodes at exit took a tenth of a short run's start-up.
class SchemaStore {
 public:
  SchemaStore(std::string_view skeleton, std::span<const SchemaSection> sections)
      : document_(json::parse(skeleton)), sections_(sections), parsed_(sections.size(), false) {
    document_["properties"] = json::object();
  }
  const json& document() const { return document_; }
  bool has(std::string_view key) const { return index(key) < sections_.size(); }
  // Parses the root section `key` into the document, if the schema has it and it is not there.
  void need(std::string_view key) {
    const std::size_t i = index(key);
    if (i == sections_.size() || parsed_[i]) return;
    document_["properties"][std::string(key)] = json::parse(sections_[i].text);
    parsed_[i] = true;
  }
  void need_all() {
    for (const SchemaSection& section : sections_) need(section.key);
  }

 private:
  std::size_t index(std::string_view key) const {
    for (std::size_t i = 0; i < sections_.size(); ++i)
      if (sections_[i].key == key) return i;
    return sections_.size();
  }
  json document_;
  std::span<const SchemaSection> sections_;
  std::vector<bool> parsed_;
};

SchemaStore& store(SchemaKind kind) {
  static SchemaStore& scenario = *new SchemaStore(embedded::kScenarioSchemaSkeleton, embedded::kScenarioSchemaSections);
  static SchemaStore& part = *new SchemaStore(embedded::kPartSchemaSkeleton, embedded::kPartSchemaSections);
  return kind == SchemaKind::scenario ? scenario : part;
}

// The store a schema node's document belongs to, if it is a root document.
SchemaStore* store_of_root(const json* schema) {
  for (SchemaKind kind : {SchemaKind::scenario, SchemaKind::part})
    if (schema == &store(kind).document()) return &store(kind);
  return nullptr;
}

struct RefTarget {
  SchemaKind kind;        // the document the reference points into
  std::string pointer;    // a JSON pointer in it
};

// "#/a/b" in a document of `kind`, or "scenario.schema.json#/a/b" from either schema.
std::optional<RefTarget> ref_target(const json& ref, SchemaKind kind) {
  if (!ref.is_string()) return std::nullopt;
  const std::string& text = ref.get_ref<const std::string&>();
  const std::size_t hash = text.find('#');
  const std::string file = text.substr(0, hash);
  if (!file.empty() && !names_scenario_schema(file)) return std::nullopt;
  return RefTarget{file.empty() ? kind : SchemaKind::scenario,
                   hash == std::string::npos ? "" : text.substr(hash + 1)};
}

// KEY, when a pointer goes through a root section: "/properties/KEY/...".
std::optional<std::string> root_section_of(const std::string& pointer) {
  try {
    json::json_pointer p(pointer);
    std::vector<std::string> tokens;  // last first
    for (; !p.empty(); p.pop_back()) tokens.push_back(p.back());
    if (tokens.size() < 2 || tokens.back() != "properties") return std::nullopt;
    return tokens[tokens.size() - 2];
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

// The sections a pointer needs, parsed: its root section, or all for the root or `properties`.
void need_section_of(const RefTarget& target) {
  if (const std::optional<std::string> key = root_section_of(target.pointer))
    store(target.kind).need(*key);
  else
    store(target.kind).need_all();
}

// The node a reference points to, its section parsed first; nullptr if there is none.
const json* resolve(const RefTarget& target) {
  need_section_of(target);
  try {
    return &store(target.kind).document().at(json::json_pointer(target.pointer));
  } catch (const json::exception&) {
    return nullptr;
  }
}

constexpr int kMaxExpansion = 32;

void expand(const json* schema, SchemaKind kind, std::vector<const json*>& out, int depth) {
  if (schema == nullptr || !schema->is_object() || depth > kMaxExpansion) return;
  out.push_back(schema);
  if (auto ref = schema->find("$ref"); ref != schema->end())
    if (const std::optional<RefTarget> target = ref_target(*ref, kind))
      expand(resolve(*target), target->kind, out, depth + 1);
  for (const char* key : {"allOf", "anyOf", "oneOf"})
    if (auto list = schema->find(key); list != schema->end() && list->is_array())
      for (const json& branch : *list) expand(&branch, kind, out, depth + 1);
  for (const char* key : {"then", "else"})
    if (auto branch = schema->find(key); branch != schema->end())
      expand(&*branch, kind, out, depth + 1);
}

// Parses every section the references below `schema` (a node of a `kind` document) reach,
// following them on; `same_document` gets the root sections of `kind` they point to.
void need_referenced(const json& schema, SchemaKind kind, std::set<std::string>& same_document,
                     std::set<std::pair<SchemaKind, std::string>>& seen) {
  if (schema.is_array()) {
    for (const json& item : schema) need_referenced(item, kind, same_document, seen);
    return;
  }
  if (!schema.is_object()) return;
  for (auto it = schema.begin(); it != schema.end(); ++it) {
    if (it.key() != "$ref") {
      need_referenced(it.value(), kind, same_document, seen);
      continue;
    }
    const std::optional<RefTarget> target = ref_target(it.value(), kind);
    if (!target || !seen.emplace(target->kind, target->pointer).second) continue;
    if (target->kind == kind)
      if (const std::optional<std::string> key = root_section_of(target->pointer)) same_document.insert(*key);
    if (const json* found = resolve(*target))
      need_referenced(*found, target->kind, same_document, seen);
  }
}

}  // namespace

const json& schema_document(SchemaKind kind) {
  store(kind).need_all();
  return store(kind).document();
}

namespace {

// Compiles `document` as the root schema of `kind` (its $refs into scenario.schema.json are
// served from the scenario's store, with the sections they reach parsed: need_referenced).
std::unique_ptr<valijson::Schema> compile(const json& document) {
  auto schema = std::make_unique<valijson::Schema>();
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::NlohmannJsonAdapter adapter(document);
  parser.populateSchema(
      adapter, *schema,
      [](const std::string& uri) -> const json* {
        return names_scenario_schema(uri) ? &store(SchemaKind::scenario).document() : nullptr;
      },
      [](const json*) {});
  return schema;
}

// The root schema with `properties` cut to `keys`. valijson compiles every subschema it
// meets, and a scenario uses a few of the root's sections (the default one 6 of 15, a sixth
// of the schema): compiling the rest was a quarter of a short run's start-up. Validating a
// document against the schema cut to its keys is validating against the whole one: a
// `properties` entry constrains only a key that is present, and a key the schema does not
// know still meets `additionalProperties: false` (the cut leaves it, and every other keyword,
// as it was).
json root_cut_to(SchemaKind kind, const std::set<std::string>& keys) {
  SchemaStore& s = store(kind);
  for (const std::string& key : keys) s.need(key);
  const json& root = s.document();
  json cut = json::object();
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it.key() != "properties") cut[it.key()] = it.value();
  json& kept = cut["properties"] = json::object();
  const json& properties = root.at("properties");
  for (const std::string& key : keys)
    if (auto p = properties.find(key); p != properties.end()) kept[key] = *p;
  return cut;
}

}  // namespace

const valijson::Schema& compiled_schema(SchemaKind kind, const json& instance) {
  std::set<std::string> keys;
  if (instance.is_object())
    for (auto it = instance.begin(); it != instance.end(); ++it)
      if (store(kind).has(it.key())) keys.insert(it.key());
  // One compilation per schema and set of root keys, kept for the process; a run loads one
  // scenario and a few parts, so this holds a handful.
  using Key = std::pair<SchemaKind, std::set<std::string>>;
  static auto& compiled = *new std::map<Key, std::unique_ptr<valijson::Schema>>;
  Key key{kind, keys};
  auto found = compiled.find(key);
  if (found != compiled.end()) return *found->second;
  // What the kept sections refer to must be there too: parsed, and in the cut if it is a
  // section of the same document (valijson resolves "#/..." in the document it compiles).
  std::size_t before = 0;
  do {
    before = keys.size();
    std::set<std::pair<SchemaKind, std::string>> seen;
    need_referenced(root_cut_to(kind, keys), kind, keys, seen);
  } while (keys.size() != before);
  return *compiled.emplace(std::move(key), compile(root_cut_to(kind, keys))).first->second;
}

std::unique_ptr<valijson::Schema> compile_whole_schema(SchemaKind kind) {
  store(SchemaKind::scenario).need_all();
  return compile(schema_document(kind));
}

std::vector<const json*> root_subschemas(SchemaKind kind) {
  std::vector<const json*> level;
  expand(&store(kind).document(), kind, level, 0);
  return level;
}

std::vector<const json*> step_property(SchemaKind kind, const std::vector<const json*>& level,
                                       const std::string& key) {
  std::vector<const json*> next;
  for (const json* s : level) {
    if (SchemaStore* root = store_of_root(s)) root->need(key);
    auto properties = s->find("properties");
    if (properties != s->end() && properties->contains(key))
      expand(&(*properties)[key], kind, next, 0);
    else if (auto extra = s->find("additionalProperties"); extra != s->end() && extra->is_object())
      expand(&*extra, kind, next, 0);
  }
  return next;
}

std::vector<const json*> step_item(SchemaKind kind, const std::vector<const json*>& level,
                                   std::size_t index) {
  std::vector<const json*> next;
  for (const json* s : level) {
    auto items = s->find("items");
    if (items == s->end()) continue;
    if (items->is_object()) expand(&*items, kind, next, 0);
    if (items->is_array() && index < items->size()) expand(&(*items)[index], kind, next, 0);
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
