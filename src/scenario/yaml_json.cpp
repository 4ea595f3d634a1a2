#include "scenario/yaml_json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace uwsim::scenario {
namespace {

bool is_one_of(std::string_view s, std::initializer_list<std::string_view> options) {
  for (std::string_view o : options)
    if (s == o) return true;
  return false;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// YAML 1.2 core schema, float: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool is_decimal_float(std::string_view s) {
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) s.remove_prefix(1);
  const std::size_t e = s.find_first_of("eE");
  std::string_view mantissa = s.substr(0, e);
  if (e != std::string_view::npos) {
    std::string_view exponent = s.substr(e + 1);
    if (!exponent.empty() && (exponent.front() == '+' || exponent.front() == '-'))
      exponent.remove_prefix(1);
    if (!all_digits(exponent)) return false;
  }
  const std::size_t dot = mantissa.find('.');
  if (dot == std::string_view::npos) return all_digits(mantissa);
  const std::string_view whole = mantissa.substr(0, dot), fraction = mantissa.substr(dot + 1);
  if (whole.empty()) return all_digits(fraction);
  return all_digits(whole) && (fraction.empty() || all_digits(fraction));
}

// The JSON value of a plain scalar; nothing if it is a string.
std::optional<nlohmann::json> plain_value(const std::string& text) {
  if (is_one_of(text, {"null", "Null", "NULL", "~"})) return nlohmann::json(nullptr);
  if (is_one_of(text, {"true", "True", "TRUE"})) return nlohmann::json(true);
  if (is_one_of(text, {"false", "False", "FALSE"})) return nlohmann::json(false);
  if (!is_decimal_float(text)) return std::nullopt;
  std::string_view digits = text;
  const bool negative = !digits.empty() && digits.front() == '-';
  if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) digits.remove_prefix(1);
  if (all_digits(digits)) {
    // An integer, kept exact while it fits.
    std::uint64_t magnitude = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
    if (ec == std::errc() && end == digits.data() + digits.size() &&
        magnitude <= static_cast<std::uint64_t>(INT64_MAX))
      return nlohmann::json(negative ? -static_cast<std::int64_t>(magnitude)
                                     : static_cast<std::int64_t>(magnitude));
  }
  double x = 0.0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), x);
  if (ec != std::errc() || end != digits.data() + digits.size() || !std::isfinite(x))
    return std::nullopt;
  return nlohmann::json(negative ? -x : x);
}

nlohmann::json scalar(const YAML::Node& n) {
  const std::string& tag = n.Tag();
  // "?" marks a plain scalar; "!" a quoted one; anything else an explicit tag.
  if (tag == "?" || tag == "tag:yaml.org,2002:int" || tag == "tag:yaml.org,2002:float" ||
      tag == "tag:yaml.org,2002:bool" || tag == "tag:yaml.org,2002:null") {
    if (auto v = plain_value(n.Scalar())) return *v;
  }
  return nlohmann::json(n.Scalar());
}

}  // namespace

nlohmann::json to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json object = nlohmann::json::object();
      for (auto it = node.begin(); it != node.end(); ++it) {
        if (!it->first.IsScalar()) continue;
        object.emplace(it->first.Scalar(), to_json(it->second));  // keeps the first of a key
      }
      return object;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json array = nlohmann::json::array();
      for (const auto& item : node) array.push_back(to_json(item));
      return array;
    }
    case YAML::NodeType::Scalar:
      return scalar(node);
    default:
      return nlohmann::json(nullptr);
  }
}

}  // namespace uwsim::scenario
