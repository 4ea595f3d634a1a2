#include "scenario/yaml_emit.h"

#include <algorithm>
#include <string_view>

namespace uwsim::scenario {
namespace {

bool is_collection(const YAML::Node& n) { return n.IsMap() || n.IsSequence(); }

bool is_quoted(const YAML::Node& n) { return n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str"; }

// yaml-cpp's Emitter: mappings in block style, lists in flow style unless they hold a
// collection.
void emit_with(YAML::Emitter& out, const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map:
      out << YAML::Block << YAML::BeginMap;
      for (auto it = n.begin(); it != n.end(); ++it) {
        out << YAML::Key;
        emit_with(out, it->first);
        out << YAML::Value;
        emit_with(out, it->second);
      }
      out << YAML::EndMap;
      break;
    case YAML::NodeType::Sequence: {
      const bool nested = std::any_of(n.begin(), n.end(), is_collection);
      out << (nested ? YAML::Block : YAML::Flow) << YAML::BeginSeq;
      for (const auto& item : n) emit_with(out, item);
      out << YAML::EndSeq;
      break;
    }
    case YAML::NodeType::Scalar:
      if (is_quoted(n)) out << YAML::DoubleQuoted;
      out << n.Scalar();
      break;
    default:
      out << YAML::Null;
  }
}

bool is_letter_or_digit(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// Texts yaml-cpp writes plain, as they are, in a block (a key, a mapping's value, a list's
// item) and, for `in_flow`, inside [...]. A subset of its rules (emitterutils.cpp,
// IsValidPlainScalar): printable ASCII, not a null word, a first character that starts no
// other token, and in a block no ": ", " #" or final ':' or ' '; in [...] only letters,
// digits and "_.+-". Anything else goes to yaml-cpp.
bool writes_plain(std::string_view s, bool in_flow) {
  if (s.empty() || s.size() > 1000) return false;
  if (s == "~" || s == "null" || s == "Null" || s == "NULL") return false;
  const char first = s.front();
  const bool starts_well = is_letter_or_digit(first) || first == '_' || first == '.' || first == '+' ||
                           (!in_flow && first == '/') ||
                           (first == '-' && s.size() > 1 && (is_letter_or_digit(s[1]) || s[1] == '.'));
  if (!starts_well) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_flow) {
      if (!(is_letter_or_digit(c) || c == '_' || c == '.' || c == '+' || c == '-')) return false;
    } else {
      if (c < 0x20 || c > 0x7E) return false;
      if (c == '#' && i > 0 && s[i - 1] == ' ') return false;
      if (c == ':' && (i + 1 == s.size() || s[i + 1] == ' ')) return false;
    }
  }
  return s.back() != ' ';
}

// Double-quoted as yaml-cpp writes it, when that is the text between the quotes.
bool writes_quoted(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c <= 0x7E && c != '"' && c != '\\'; });
}

class DirectWriter {
 public:
  bool root(const YAML::Node& n) {
    if (n.IsMap() && n.size() > 0) return map_entries(n, 0, false);
    if (n.IsSequence() && n.size() > 0 && std::any_of(n.begin(), n.end(), is_collection)) return block_items(n, 0);
    return false;
  }
  std::string text() && { return std::move(out_); }

 private:
  void new_line(std::size_t indent) {
    if (!out_.empty()) out_ += '\n';
    out_.append(indent, ' ');
  }

  bool scalar(const YAML::Node& n, bool in_flow) {
    if (!n.IsScalar()) return false;
    const std::string& s = n.Scalar();
    if (is_quoted(n)) {
      if (!writes_quoted(s)) return false;
      out_ += '"';
      out_ += s;
      out_ += '"';
      return true;
    }
    if (!writes_plain(s, in_flow)) return false;
    out_ += s;
    return true;
  }

  // [a, b, c]: a non-empty list of scalars.
  bool flow_list(const YAML::Node& n) {
    out_ += '[';
    bool first = true;
    for (const auto& item : n) {
      if (!first) out_ += ", ";
      first = false;
      if (!scalar(item, true)) return false;
    }
    out_ += ']';
    return true;
  }

  // What follows "key:" or "- ": " value", " [..]", or the collection on the next lines at
  // `indent`.
  bool value(const YAML::Node& n, std::size_t indent) {
    if (n.IsScalar()) {
      out_ += ' ';
      return scalar(n, false);
    }
    if (n.IsSequence() && n.size() > 0 && !std::any_of(n.begin(), n.end(), is_collection)) {
      out_ += ' ';
      return flow_list(n);
    }
    if (n.IsMap() && n.size() > 0) return map_entries(n, indent, false);
    if (n.IsSequence() && n.size() > 0) return block_items(n, indent);
    return false;  // null, empty mapping or list: yaml-cpp's forms
  }

  // key: value lines at `indent`; `inline_first`: the first key goes on the current line
  // (after "- ").
  bool map_entries(const YAML::Node& n, std::size_t indent, bool inline_first) {
    bool first = true;
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (!(first && inline_first)) new_line(indent);
      first = false;
      if (!scalar(it->first, false)) return false;
      out_ += ':';
      if (!value(it->second, indent + 2)) return false;
    }
    return true;
  }

  // "- item" lines at `indent`. A mapping item starts on the dash's line; a list of scalars
  // is written inline; a list holding collections is left to yaml-cpp.
  bool block_items(const YAML::Node& n, std::size_t indent) {
    for (const auto& item : n) {
      new_line(indent);
      out_ += '-';
      if (item.IsMap() && item.size() > 0) {
        out_ += ' ';
        if (!map_entries(item, indent + 2, true)) return false;
      } else if (item.IsSequence() && std::any_of(item.begin(), item.end(), is_collection)) {
        return false;
      } else if (!value(item, indent + 2)) {
        return false;
      }
    }
    return true;
  }

  std::string out_;
};

}  // namespace

std::optional<std::string> emit_yaml_directly(const YAML::Node& root) {
  DirectWriter writer;
  if (!writer.root(root)) return std::nullopt;
  return std::move(writer).text() + "\n";
}

std::string emit_yaml_with_yaml_cpp(const YAML::Node& root) {
  YAML::Emitter out;
  emit_with(out, root);
  return std::string(out.c_str()) + "\n";
}

std::string emit_yaml(const YAML::Node& root) {
  if (std::optional<std::string> text = emit_yaml_directly(root)) return std::move(*text);
  return emit_yaml_with_yaml_cpp(root);
}

}  // namespace uwsim::scenario
