#include "scenario/schema_tables.h"

#include <nlohmann/json.hpp>

#include "scenario/tables.h"

namespace uwsim::scenario {
namespace {

using json = nlohmann::ordered_json;

std::string description(const KeyInfo& k) {
  std::string text(k.doc);
  if (!k.unit.empty() && text.find("(" + std::string(k.unit)) == std::string::npos)
    text += " (" + std::string(k.unit) + ")";
  if (!text.empty() && text.back() != '.') text += '.';
  return text;
}

void add_sign(json& schema, Sign sign) {
  if (sign == Sign::positive) schema["exclusiveMinimum"] = 0;
  if (sign == Sign::non_negative) schema["minimum"] = 0;
}

json object_schema(const TableInfo& table);

json key_schema(const KeyInfo& k) {
  json s = json::object();
  switch (k.kind) {
    case ValueKind::number:
      s["type"] = "number";
      s["description"] = description(k);
      add_sign(s, k.sign);
      break;
    case ValueKind::vector: {
      s["type"] = "array";
      s["description"] = description(k);
      json item = {{"type", "number"}};
      add_sign(item, k.sign);
      s["items"] = item;
      s["minItems"] = k.size;
      s["maxItems"] = k.size;
      break;
    }
    case ValueKind::choice:
      s["type"] = "string";
      s["enum"] = k.options;
      s["description"] = description(k);
      break;
    case ValueKind::string:
      s["type"] = "string";
      s["description"] = description(k);
      break;
    case ValueKind::table:
      s = object_schema(k.sub());
      break;
    case ValueKind::list:
      s["type"] = json::array({"array", "null"});
      s["description"] = description(k);
      s["items"] = object_schema(k.sub());
      break;
    case ValueKind::custom: {
      const json given = json::parse(k.schema);
      // The description second, after the type, as in the other keys.
      for (auto it = given.begin(); it != given.end(); ++it) {
        if (it.key() == "description") continue;
        s[it.key()] = it.value();
        if (it == given.begin() && !k.doc.empty()) s["description"] = description(k);
      }
      if (!k.doc.empty() && !s.contains("description")) s["description"] = description(k);
      break;
    }
  }
  if (!k.default_json.empty()) s["default"] = json::parse(k.default_json);
  return s;
}

json required_of(const std::vector<std::string_view>& keys) {
  json list = json::array();
  for (std::string_view k : keys) list.push_back(std::string(k));
  return list;
}

json object_schema(const TableInfo& table) {
  json s = json::object();
  if (table.nullable)
    s["type"] = json::array({"object", "null"});
  else
    s["type"] = "object";
  s["additionalProperties"] = false;
  s["description"] = std::string(table.doc) + ".";
  std::vector<std::string_view> required;
  for (const KeyInfo& k : table.keys)
    if (k.required) required.push_back(k.key);
  if (!required.empty()) s["required"] = required_of(required);
  json groups = json::array();
  for (const auto& needed : table.one_needed) {
    json branches = json::array();
    for (std::string_view k : needed) branches.push_back({{"required", required_of({k})}});
    groups.push_back({{"anyOf", branches}});
  }
  for (const Exclusive& group : table.exclusive) {
    if (group.one_required) {
      json branches = json::array();
      for (std::string_view k : group.keys) branches.push_back({{"required", required_of({k})}});
      groups.push_back({{"oneOf", branches}});
      continue;
    }
    json pairs = json::array();
    for (std::size_t i = 0; i < group.keys.size(); ++i)
      for (std::size_t j = i + 1; j < group.keys.size(); ++j)
        pairs.push_back({{"required", required_of({group.keys[i], group.keys[j]})}});
    groups.push_back({{"not", pairs.size() == 1 ? pairs[0] : json{{"anyOf", pairs}}}});
  }
  if (groups.size() == 1)
    for (auto it = groups[0].begin(); it != groups[0].end(); ++it) s[it.key()] = it.value();
  else if (!groups.empty())
    s["allOf"] = groups;
  json properties = json::object();
  for (const KeyInfo& k : table.keys) properties[std::string(k.key)] = key_schema(k);
  s["properties"] = properties;
  return s;
}

// The `sensors` list: one mapping of the common keys and every type's (so that an editor
// completes them all), each type allowing only its own and requiring its reference.
json sensors_schema() {
  TableInfo all = sensor_table().describe;
  for (const SensorKindTable& k : sensor_kind_tables())
    for (KeyInfo key : k.table.keys) {
      key.required = false;  // required with its type only (below)
      all.keys.push_back(std::move(key));
    }
  json item = object_schema(all);
  json per_type = json::array();
  for (const SensorKindTable& k : sensor_kind_tables()) {
    json names = json::array();
    for (const KeyInfo& key : sensor_table().describe.keys) names.push_back(std::string(key.key));
    for (const KeyInfo& key : k.table.keys) names.push_back(std::string(key.key));
    json then = {{"propertyNames", {{"enum", names}}}};
    json required = json::array();
    if (k.target.empty()) required.push_back("body");
    for (const KeyInfo& key : k.table.keys)
      if (key.required) required.push_back(std::string(key.key));
    then["required"] = required;
    per_type.push_back({{"if", {{"properties", {{"type", {{"const", std::string(k.word)}}}}}, {"required", {"type"}}}},
                        {"then", then}});
  }
  if (item.contains("allOf")) {
    for (auto& branch : per_type) item["allOf"].push_back(branch);
  } else {
    item["allOf"] = per_type;
  }
  json s = json::object();
  s["type"] = json::array({"array", "null"});
  s["description"] =
      "What the vehicle's instruments would read, each mounted on a body at a pose with its own rate, latency, "
      "noise and seed; written to /sensors/NAME/ beside the truth (README \"Sensors\"). Names must be unique.";
  s["default"] = json::array();
  s["items"] = item;
  return s;
}

}  // namespace

std::string table_schema(const TableInfo& table) { return object_schema(table).dump(); }

std::vector<SchemaSection> generated_schema_sections() {
  const std::string scenario = "scenario.schema.json";
  const std::string link = "/properties/manipulators/items/properties/links/items/properties";
  const std::string joint = "/properties/joints/items/properties";
  const std::string link_joint = link + "/joint/properties";
  std::vector<SchemaSection> out;
  auto add = [&](const std::string& pointer, const TableInfo& table) {
    out.push_back({scenario, pointer, table_schema(table)});
  };
  add("/properties/environment", environment_table().describe);
  add("/properties/compliance", compliance_table().describe);
  add("/properties/simulation", simulation_table().describe);
  add("/properties/forces/items", force_table().describe);
  add("/properties/thrusters/items", thruster_info());
  add("/properties/bodies/items", body_table().describe);
  // A link's body keys (its name, joint and the `initial` it may not have are its own).
  for (const KeyInfo& k : body_property_table().describe.keys)
    if (k.key != "initial") out.push_back({scenario, link + "/" + std::string(k.key), key_schema(k).dump()});
  add(joint + "/origin", origin_table().describe);
  for (const std::string& place : {joint, link_joint}) {
    add(place + "/dh", dh_table().describe);
    add(place + "/mdh", mdh_table().describe);
  }
  add("/properties/connectors/items", connector_info());
  add("/properties/trim", trim_info());
  add("/properties/include/items", include_info());
  out.push_back({scenario, "/properties/sensors", sensors_schema().dump()});
  return out;
}

}  // namespace uwsim::scenario
