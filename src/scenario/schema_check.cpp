#include "scenario/schema_check.h"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>

#include "scenario/printable.h"
#include "scenario/schema_documents.h"
#include "scenario/yaml_json.h"
#include "scenario/yaml_reader.h"

namespace uwsim::scenario {
namespace {

// Texts the validator must not see: longer than the schema's maxLength for them, or not
// UTF-8. libstdc++'s std::regex recurses once per character, so a `pattern` on a text of
// some ten thousand characters overflows the stack (every `pattern` in the schemas comes
// with a maxLength; a test checks that); valijson's UTF-8 decoder reads past its tables on
// a run of continuation bytes. Such texts are found first, and the validator is not run on
// a document that has one.
struct UnsafeText {
  std::vector<std::string> context;
  std::string message;
};

void find_unsafe_texts(SchemaKind kind, const json& node, const std::vector<const json*>& level,
                       std::vector<std::string>& context, std::vector<UnsafeText>& found) {
  if (node.is_string()) {
    const std::string& text = node.get_ref<const std::string&>();
    if (!is_utf8(text)) {
      found.push_back({context, "expected UTF-8 text; this is not"});
      return;
    }
    const std::size_t length = code_points(text);
    for (const json* s : level)
      if (auto limit = s->find("maxLength"); limit != s->end() && limit->is_number_unsigned() &&
                                             length > limit->get<std::size_t>()) {
        found.push_back({context, "expected at most " + std::to_string(limit->get<std::size_t>()) +
                                      " characters, got " + std::to_string(length)});
        return;
      }
    return;
  }
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      context.push_back("[" + it.key() + "]");
      find_unsafe_texts(kind, *it, step(kind, level, node, it.key()), context, found);
      context.pop_back();
    }
  } else if (node.is_array()) {
    // One schema for every item, unless some schema gives items by position: found once.
    const bool by_position = std::any_of(level.begin(), level.end(), [](const json* s) {
      const auto items = s->find("items");
      return items != s->end() && items->is_array();
    });
    const std::vector<const json*> every_item = by_position ? std::vector<const json*>{} : step_item(kind, level, 0);
    for (std::size_t i = 0; i < node.size(); ++i) {
      context.push_back("[" + std::to_string(i) + "]");
      find_unsafe_texts(kind, node[i], by_position ? step_item(kind, level, i) : every_item, context, found);
      context.pop_back();
    }
  }
}

// ---------------------------------------------------------------------------------------
// Phrasing.

std::string number_text(const json& x) {
  if (x.is_number_integer()) return std::to_string(x.get<std::int64_t>());
  if (x.is_number()) return to_text(x.get<double>());
  return x.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string value_text(const json& x) {
  return x.is_string() ? "'" + x.get<std::string>() + "'"
                       : x.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string one_of_texts(const std::vector<std::string>& items, const char* conjunction) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? conjunction : ", ";
    out += items[i];
  }
  return out;
}

std::string type_phrase(const std::string& type) {
  if (type == "number") return "a number";
  if (type == "integer") return "a whole number";
  if (type == "string") return "a string";
  if (type == "array") return "a list";
  if (type == "object") return "a mapping";
  if (type == "boolean") return "true or false";
  if (type == "null") return "nothing";
  return type;
}

std::string expected_types(const std::vector<const json*>& schemas) {
  std::vector<std::string> types;
  auto add = [&](const json& t) {
    if (t.is_string() && std::find(types.begin(), types.end(), t.get<std::string>()) == types.end())
      types.push_back(t.get<std::string>());
  };
  for (const json* s : schemas) {
    auto type = s->find("type");
    if (type == s->end()) continue;
    if (type->is_array())
      for (const json& t : *type) add(t);
    else
      add(*type);
  }
  // "Or nothing" is the empty key ("forces:"); not worth saying.
  if (types.size() > 1) types.erase(std::remove(types.begin(), types.end(), "null"), types.end());
  std::vector<std::string> phrases;
  for (const auto& t : types) phrases.push_back(type_phrase(t));
  return phrases.empty() ? "another kind of value" : one_of_texts(phrases, " or ");
}

std::vector<std::string> required_keys(const json& schema) {
  std::vector<std::string> keys;
  if (auto r = schema.find("required"); r != schema.end() && r->is_array())
    for (const json& k : *r)
      if (k.is_string()) keys.push_back(k.get<std::string>());
  return keys;
}

std::string quoted(const std::vector<std::string>& keys, const char* conjunction) {
  std::vector<std::string> q;
  for (const auto& k : keys) q.push_back("'" + k + "'");
  return one_of_texts(q, conjunction);
}

// The alternatives of an anyOf / oneOf, phrased: the keys each requires, or their
// descriptions.
std::string alternatives(const json& list, bool exactly_one) {
  std::vector<std::string> keys, descriptions;
  bool all_require = true;
  for (const json& branch : list) {
    const auto r = required_keys(branch);
    if (r.size() != 1) all_require = false;
    else keys.push_back(r.front());
    if (auto d = branch.find("description"); d != branch.end() && d->is_string()) {
      std::string text = d->get<std::string>();
      if (!text.empty() && text.back() == '.') text.pop_back();
      if (!text.empty()) text.front() = static_cast<char>(std::tolower(text.front()));
      descriptions.push_back(text);
    }
  }
  if (all_require && !keys.empty())
    return std::string(exactly_one ? "exactly one" : "at least one") + " of the keys " +
           quoted(keys, exactly_one ? " or " : ", ");
  if (descriptions.size() == list.size() && !descriptions.empty())
    return one_of_texts(descriptions, " or ");
  return "one of the forms the schema allows";
}

// Whether `value` satisfies the simple schemas used under `not` (an empty schema, const,
// required, anyOf of those); the keys that make it so go to `present`.
bool matches_simple(const json& schema, const json& value, std::vector<std::string>& present) {
  if (!schema.is_object()) return false;
  if (auto c = schema.find("const"); c != schema.end()) return value == *c;
  if (auto any = schema.find("anyOf"); any != schema.end() && any->is_array()) {
    for (const json& branch : *any)
      if (matches_simple(branch, value, present)) return true;
    return false;
  }
  const auto keys = required_keys(schema);
  if (!keys.empty()) {
    if (!value.is_object()) return false;
    for (const auto& k : keys)
      if (!value.contains(k)) return false;
    present = keys;
    return true;
  }
  return schema.empty() || (schema.size() == 1 && schema.contains("description"));
}

// What a failed `not` forbids: the message, and the keys of the value that make it fail
// (none when the value itself is forbidden).
struct Forbidden {
  std::string message;
  std::vector<std::string> keys;
};

Forbidden not_message(const std::vector<const json*>& schemas, const json& value,
                      const std::string& last_segment) {
  for (const json* s : schemas) {
    auto n = s->find("not");
    if (n == s->end()) continue;
    std::vector<std::string> present;
    if (!matches_simple(*n, value, present)) continue;
    if (n->contains("const")) return {value_text(value) + " is not allowed here", {}};
    if (present.size() == 1) return {"'" + present.front() + "' is not allowed here", present};
    if (!present.empty())
      return {quoted(present, " and ") + " cannot be given together; give one", present};
    if (auto d = s->find("description"); d != s->end() && d->is_string()) {
      std::string text = d->get<std::string>();
      if (!text.empty() && text.back() == '.') text.pop_back();
      if (!text.empty()) text.front() = static_cast<char>(std::tolower(text.front()));
      return {text, {}};
    }
    return {"'" + last_segment + "' is not allowed here", {}};
  }
  return {"is not allowed here", {}};
}

std::string bound_message(const std::vector<const json*>& schemas, bool lower, bool exclusive,
                          const std::string& got) {
  const char* key = lower ? (exclusive ? "exclusiveMinimum" : "minimum")
                          : (exclusive ? "exclusiveMaximum" : "maximum");
  const json* s = with_key(schemas, key);
  if (s == nullptr || !(*s)[key].is_number()) return "is out of range, got " + got;
  const json& bound = (*s)[key];
  const bool zero = bound.get<double>() == 0.0;
  std::string expected;
  if (lower && zero)
    expected = exclusive ? "a positive number" : "a non-negative number";
  else if (lower)
    expected = std::string(exclusive ? "a number greater than " : "a number of at least ") +
               number_text(bound);
  else
    expected = std::string(exclusive ? "a number less than " : "a number of at most ") +
               number_text(bound);
  return "expected " + expected + ", got " + got;
}

std::string items_message(const std::vector<const json*>& schemas, const json& value,
                          const std::string& got) {
  const json* low = with_key(schemas, "minItems");
  const json* high = with_key(schemas, "maxItems");
  const std::size_t n = value.is_array() ? value.size() : 0;
  if (low && high && (*low)["minItems"] == (*high)["maxItems"])
    return "expected a list of " + number_text((*low)["minItems"]) + " items, got " + got;
  if (low && n < (*low)["minItems"].get<std::size_t>())
    return "expected a list of at least " + number_text((*low)["minItems"]) + " items, got " + got;
  if (high)
    return "expected a list of at most " + number_text((*high)["maxItems"]) + " items, got " + got;
  return "has the wrong number of items, got " + got;
}

// ---------------------------------------------------------------------------------------
// From the validator's errors to violations.

struct Located {
  std::vector<std::string> segments;
  std::string path;
  std::vector<YAML::Node> chain;
  YAML::Node key{YAML::NodeType::Undefined};
  YAML::Node value{YAML::NodeType::Undefined};
  const json* instance = nullptr;
};

YAML::Node map_value(const YAML::Node& map, const std::string& key, YAML::Node& key_node) {
  for (auto it = map.begin(); it != map.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == key) {
      key_node.reset(it->first);
      return it->second;
    }
  return YAML::Node(YAML::NodeType::Undefined);
}

// Key lookups in the mappings the validator's errors point into: yaml-cpp finds a key by going
// through the mapping, and a mapping with 10^5 unknown keys gives 10^5 errors. Mappings of more
// than a few keys are indexed once (by their place in the text; `is` tells aliased nodes apart).
class MapLookup {
 public:
  YAML::Node value(const YAML::Node& map, const std::string& key, YAML::Node& key_node) {
    if (map.size() <= 16) return map_value(map, key, key_node);
    const Index& index = index_of(map);
    const auto found = index.entries.find(key);
    if (found == index.entries.end()) return YAML::Node(YAML::NodeType::Undefined);
    key_node.reset(found->second.first);
    return found->second.second;
  }

 private:
  struct Index {
    YAML::Node map;
    std::map<std::string, std::pair<YAML::Node, YAML::Node>> entries;  // the first of equal keys
  };
  const Index& index_of(const YAML::Node& map) {
    const YAML::Mark m = map.Mark();
    auto& candidates = indexes_[std::make_tuple(m.pos, m.line, m.column)];
    for (const Index& index : candidates)
      if (index.map.is(map)) return index;
    Index index{map, {}};
    for (auto it = map.begin(); it != map.end(); ++it)
      if (it->first.IsScalar()) index.entries.emplace(it->first.Scalar(), std::make_pair(it->first, it->second));
    candidates.push_back(std::move(index));
    return candidates.back();
  }
  std::map<std::tuple<int, int, int>, std::vector<Index>> indexes_;
};

// Follows the validator's context ("<root>", "[bodies]", "[0]", ...) through the JSON
// document and the YAML tree together.
std::optional<Located> locate(const std::vector<std::string>& context, const YAML::Node& root,
                              const json& instance, MapLookup& lookup) {
  Located at;
  at.value.reset(root);
  at.instance = &instance;
  for (std::size_t i = 1; i < context.size(); ++i) {
    const std::string& c = context[i];
    if (c.size() < 2 || c.front() != '[' || c.back() != ']') return std::nullopt;
    const std::string segment = c.substr(1, c.size() - 2);
    if (at.instance->is_object()) {
      auto it = at.instance->find(segment);
      if (it == at.instance->end() || !at.value.IsMap()) return std::nullopt;
      YAML::Node key(YAML::NodeType::Undefined);
      const YAML::Node value = lookup.value(at.value, segment, key);
      if (!value.IsDefined()) return std::nullopt;
      at.instance = &*it;
      at.key.reset(key);
      at.value.reset(value);
      at.path = join_path(at.path, segment);
    } else if (at.instance->is_array()) {
      if (segment.empty() || segment.size() > 9 ||
          segment.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
      const std::size_t index = std::stoul(segment);
      if (index >= at.instance->size() || !at.value.IsSequence() || index >= at.value.size())
        return std::nullopt;
      at.instance = &(*at.instance)[index];
      at.key.reset(YAML::Node(YAML::NodeType::Undefined));
      at.value.reset(at.value[index]);
      at.path = index_path(at.path, index);
    } else {
      return std::nullopt;
    }
    at.segments.push_back(segment);
    at.chain.push_back(at.value);
  }
  return at;
}

// Where a problem with a value is shown: the value, or its key when the value is empty.
YAML::Mark value_mark(const Located& at) {
  const bool use_key = at.key.IsDefined() && at.key.IsScalar() &&
                       (at.value.IsNull() || at.value.Mark().is_null());
  return use_key ? at.key.Mark() : at.value.Mark();
}

bool starts_with(const std::string& text, std::string_view prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// Errors that only say that something below failed; the error below says what.
bool is_wrapper(const std::string& d) {
  return starts_with(d, "Failed to validate item #") ||
         starts_with(d, "Failed to validate against schema associated with property name") ||
         starts_with(d, "Failed to validate against additional properties schema") ||
         starts_with(d, "Failed to validate against schema associated with pattern") ||
         starts_with(d, "Failed to validate against a conditional schema") ||
         starts_with(d, "Failed to validate against dependent schema") ||
         starts_with(d, "Failed to validate against child schema #") ||
         starts_with(d, "Cannot validate item #");
}

bool is_below(const std::vector<std::string>& path, const std::vector<std::string>& ancestor) {
  return path.size() >= ancestor.size() &&
         std::equal(ancestor.begin(), ancestor.end(), path.begin());
}

SchemaViolation violation(const Located& at, YAML::Mark mark, std::string message,
                          std::optional<std::string> subject = std::nullopt) {
  return SchemaViolation{at.path, at.segments, mark, at.chain, std::move(message),
                         subject.value_or(at.path)};
}

// Unknown keys of the mapping at `at`: every key no applicable subschema names.
void unknown_keys(const Located& at, const std::vector<const json*>& schemas,
                  std::vector<SchemaViolation>& out) {
  std::vector<std::string> known;
  for (const json* s : schemas)
    if (auto p = s->find("properties"); p != s->end() && p->is_object())
      for (auto it = p->begin(); it != p->end(); ++it)
        if (std::find(known.begin(), known.end(), it.key()) == known.end())
          known.push_back(it.key());
  if (!at.value.IsMap()) return;
  for (auto it = at.value.begin(); it != at.value.end() && out.size() < kStopAfterProblems; ++it) {
    if (!it->first.IsScalar()) continue;
    const std::string& name = it->first.Scalar();
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string message = "unknown key '" + name + "'";
    if (auto guess = closest_match(name, known))
      message += ", did you mean '" + *guess + "'?";
    else
      message += " (expected one of " + quoted(known, ", ") + ")";
    Located key_at = at;
    key_at.path = join_path(at.path, name);
    key_at.segments.push_back(name);
    key_at.chain.push_back(it->second);
    // A key an override added has no place of its own; its value has (an include's set).
    const YAML::Mark mark = it->first.Mark().is_null() ? it->second.Mark() : it->first.Mark();
    out.push_back(violation(key_at, mark, message, at.path));
  }
}

std::optional<std::string> quoted_name(const std::string& d) {
  const std::size_t open = d.find('\'');
  const std::size_t close = d.rfind('\'');
  if (open == std::string::npos || close <= open) return std::nullopt;
  return d.substr(open + 1, close - open - 1);
}

// `at` moved to whichever of `keys` (of the mapping at `at`) is written last; `mark` is then
// that key's mark, else unchanged.
Located last_key(const Located& at, const std::vector<std::string>& keys, YAML::Mark& mark) {
  Located last = at;
  YAML::Mark last_mark;
  for (const std::string& k : keys) {
    YAML::Node key(YAML::NodeType::Undefined);
    const YAML::Node value = at.value.IsMap() ? map_value(at.value, k, key)
                                              : YAML::Node(YAML::NodeType::Undefined);
    if (!key.IsDefined() || (!last_mark.is_null() && key.Mark().pos < last_mark.pos)) continue;
    last_mark = key.Mark();
    last = at;
    last.path = join_path(at.path, k);
    last.segments.push_back(k);
    last.chain.push_back(value);
  }
  if (!last_mark.is_null()) mark = last_mark;
  return last;
}

void phrase(SchemaKind kind, const json& instance, const Located& at, const std::string& d,
            std::vector<SchemaViolation>& out) {
  const std::vector<const json*> schemas = subschemas_at(kind, instance, at.segments);
  const std::string got = describe_value(at.value);
  const YAML::Mark here = value_mark(at);
  auto add = [&](std::string message) { out.push_back(violation(at, here, std::move(message))); };

  if (starts_with(d, "Value type not permitted")) {
    add("expected " + expected_types(schemas) + ", got " + got);
  } else if (starts_with(d, "Missing required property")) {
    add("missing required key '" + quoted_name(d).value_or("?") + "'");
  } else if (starts_with(d, "Object contains a property that could not be validated")) {
    unknown_keys(at, schemas, out);
  } else if (starts_with(d, "Expected number greater than")) {
    add(bound_message(schemas, true, d.find("or equal") == std::string::npos, got));
  } else if (starts_with(d, "Expected number less than")) {
    add(bound_message(schemas, false, d.find("or equal") == std::string::npos, got));
  } else if (starts_with(d, "Array should contain no")) {
    add(items_message(schemas, *at.instance, got));
  } else if (starts_with(d, "String should be no fewer than")) {
    const json* s = with_key(schemas, "minLength");
    add(s && (*s)["minLength"] == 1 ? "expected a non-empty string"
                                    : "expected a longer string, got " + got);
  } else if (starts_with(d, "String should be no more than")) {
    add("expected a shorter string");
  } else if (starts_with(d, "Failed to match regex")) {
    const json* s = with_key(schemas, "pattern");
    add("expected text matching the pattern " + (s ? (*s)["pattern"].dump() : "of the schema") +
        ", got " + got);
  } else if (starts_with(d, "Failed to match against any enum values")) {
    std::vector<std::string> options;
    if (const json* s = with_key(schemas, "enum"))
      for (const json& e : (*s)["enum"])
        if (e.is_string()) options.push_back(e.get<std::string>());
    std::string message = "expected one of " + quoted(options, ", ") + ", got " + got;
    if (at.value.IsScalar())
      if (auto guess = closest_match(at.value.Scalar(), options))
        message += "; did you mean '" + *guess + "'?";
    add(message);
  } else if (starts_with(d, "Failed to match expected value set by 'const'")) {
    const json* s = with_key(schemas, "const");
    add("expected " + (s ? value_text((*s)["const"]) : std::string("another value")) + ", got " +
        got);
  } else if (starts_with(d, "Target should not validate against schema specified in 'not'")) {
    const Forbidden f =
        not_message(schemas, *at.instance, at.segments.empty() ? "" : at.segments.back());
    if (f.keys.empty()) {
      // A key that must not be there: shown at the key, as the loader does.
      out.push_back(violation(at, at.key.IsDefined() ? at.key.Mark() : here, f.message));
    } else {
      // Keys that exclude each other: shown at the one written last.
      YAML::Mark mark = here;
      const Located last = last_key(at, f.keys, mark);
      out.push_back(violation(last, mark, f.message, at.path));
    }
  } else if (starts_with(d, "Failed to validate against any schemas allowed by anyOf")) {
    const json* s = with_key(schemas, "anyOf");
    add("expected " + (s ? alternatives((*s)["anyOf"], false) : std::string("another form")));
  } else if (starts_with(d, "Failed to validate against any child schemas allowed by oneOf")) {
    const json* s = with_key(schemas, "oneOf");
    add("expected " + (s ? alternatives((*s)["oneOf"], true) : std::string("another form")) +
        ", got " + got);
  } else if (starts_with(d, "Failed to validate against exactly one child schema")) {
    const json* s = with_key(schemas, "oneOf");
    std::vector<std::string> present;
    if (s != nullptr)
      for (const json& branch : (*s)["oneOf"])
        for (const auto& k : required_keys(branch))
          if (at.instance->is_object() && at.instance->contains(k)) present.push_back(k);
    if (present.size() > 1) {
      // Alternative keys given together: shown at the one written last.
      YAML::Mark mark = here;
      const Located last = last_key(at, present, mark);
      out.push_back(violation(last, mark,
                              quoted(present, " and ") + " cannot be given together; give one",
                              at.path));
    } else {
      add("matches more than one form; expected " +
          (s ? alternatives((*s)["oneOf"], true) : std::string("exactly one form")));
    }
  } else {
    add("does not satisfy the schema: " + d);
  }
}

bool is_composite(const std::string& d) {
  return starts_with(d, "Failed to validate against any schemas allowed by anyOf") ||
         starts_with(d, "Failed to validate against any child schemas allowed by oneOf");
}

}  // namespace

std::vector<SchemaViolation> check_schema(const YAML::Node& root, SchemaKind kind) {
  const json instance = to_json(root);
  MapLookup lookup;
  {
    std::vector<std::string> context{"<root>"};
    std::vector<UnsafeText> unsafe;
    find_unsafe_texts(kind, instance, root_subschemas(kind), context, unsafe);
    if (!unsafe.empty()) {
      std::vector<SchemaViolation> out;
      for (const UnsafeText& u : unsafe)
        if (auto at = locate(u.context, root, instance, lookup))
          out.push_back(violation(*at, value_mark(*at), u.message));
      return out;
    }
  }
  // One validator per thread: it caches the compiled regular expressions of `pattern`.
  thread_local valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  validator.validate(compiled_schema(kind, instance), valijson::adapters::NlohmannJsonAdapter(instance), &results);

  // The errors of an anyOf / oneOf's branches come right before the error of the anyOf /
  // oneOf itself, at or below its place: it replaces them with one message naming the
  // alternatives.
  struct Pending {
    Located at;
    std::string description;
  };
  std::vector<Pending> kept;
  valijson::ValidationResults::Error error;
  // A document this wrong gets the first of its problems (yaml_reader.h: kStopAfterProblems).
  while (kept.size() < kStopAfterProblems && results.popError(error)) {
    if (is_wrapper(error.description)) continue;
    auto at = locate(error.context, root, instance, lookup);
    if (!at) continue;
    if (is_composite(error.description))
      while (!kept.empty() && is_below(kept.back().at.segments, at->segments)) kept.pop_back();
    kept.push_back(Pending{std::move(*at), error.description});
  }

  std::vector<SchemaViolation> out;
  std::set<std::string> unknown_keys_listed;  // valijson reports each unknown key of a mapping:
                                             // the mapping's are all listed at the first
  for (const Pending& p : kept) {
    if (out.size() >= kStopAfterProblems) break;
    if (starts_with(p.description, "Object contains a property that could not be validated") &&
        !unknown_keys_listed.insert(p.at.path).second)
      continue;
    // Missing keys and failed alternatives concern the mapping itself.
    if (starts_with(p.description, "Missing required property") || is_composite(p.description)) {
      std::vector<SchemaViolation> one;
      phrase(kind, instance, p.at, p.description, one);
      for (auto& v : one) {
        v.at = p.at.value.Mark().is_null() ? value_mark(p.at) : p.at.value.Mark();
        out.push_back(std::move(v));
      }
    } else {
      phrase(kind, instance, p.at, p.description, out);
    }
  }
  // One message per place and text (several subschemas may say the same).
  std::set<std::tuple<int, int, std::string, std::string>> seen;
  std::vector<SchemaViolation> unique;
  for (auto& v : out)
    if (seen.emplace(v.at.line, v.at.column, v.path, v.message).second) unique.push_back(std::move(v));
  return unique;
}

}  // namespace uwsim::scenario
