#include "scenario/yaml_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "scenario/printable.h"

namespace uwsim::scenario {
namespace {

constexpr int kMaxDepth = kMaxNestingDepth;
constexpr long kMaxNodes = kMaxDocumentNodes;
// Paths in structure messages stop growing here; a recursive alias would make them huge.
constexpr int kShownDepth = 6;

std::string prefixed(const std::string& path, const std::string& message) {
  return path.empty() ? message : path + ": " + message;
}

// Quoted scalars get the tag "!" in yaml-cpp 0.7; they are strings, never numbers.
bool is_quoted_or_string(const YAML::Node& n) {
  return n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str";
}

bool has_number_tag(const YAML::Node& n) {
  const std::string& t = n.Tag();
  return t == "?" || t == "tag:yaml.org,2002:float" || t == "tag:yaml.org,2002:int";
}

// Strict full-string parse of a finite decimal number ("1", "-2.5e3", "+.5").
std::optional<double> parse_number(const std::string& text) {
  std::string_view v = text;
  bool negative = false;
  if (!v.empty() && (v.front() == '+' || v.front() == '-')) {
    negative = v.front() == '-';
    v.remove_prefix(1);
  }
  if (v.empty() || v.front() == '+' || v.front() == '-') return std::nullopt;
  double x = 0.0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || end != v.data() + v.size() || !std::isfinite(x)) return std::nullopt;
  return negative ? -x : x;
}

}  // namespace

std::string describe_value(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Sequence:
      return "a list of " + std::to_string(n.size()) + (n.size() == 1 ? " item" : " items");
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Scalar:
      if (is_quoted_or_string(n)) return "the string \"" + shown(n.Scalar()) + "\"";
      if (parse_number(n.Scalar())) return shown(n.Scalar());
      return "'" + shown(n.Scalar()) + "'";
    default:
      return "nothing";
  }
}

namespace {

std::string with_unit(std::string what, std::string_view unit) {
  if (!unit.empty()) what += " (" + std::string(unit) + ")";
  return what;
}

std::string number_kind(Sign sign) {
  switch (sign) {
    case Sign::positive: return "a positive number";
    case Sign::non_negative: return "a non-negative number";
    default: return "a number";
  }
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "'" : ", '") + s + "'";
  return out;
}

Field item_field(const YAML::Node& item, const std::string& path) {
  return Field{YAML::Node(YAML::NodeType::Undefined), item, path};
}

struct StructureWalk {
  const std::function<void(const YAML::Mark&, std::string)>& report;
  long visited = 0;
  bool cut = false;

  void walk(const YAML::Node& n, const std::string& path, int depth) {
    if (cut) return;
    if (depth > kMaxDepth || ++visited > kMaxNodes) {
      cut = true;
      report(n.Mark(), prefixed(path, depth > kMaxDepth
                                          ? "nested more than " + std::to_string(kMaxDepth) +
                                                " levels deep (a recursive alias?)"
                                          : "the document is too large: more than " +
                                                std::to_string(kMaxNodes) +
                                                " values, counting each use of an alias "
                                                "(a scenario needs a few hundred)"));
      return;
    }
    if (n.IsMap()) {
      std::set<std::string> seen;
      for (auto it = n.begin(); it != n.end(); ++it) {
        const YAML::Node key = it->first;
        if (!key.IsScalar()) continue;
        if (!seen.insert(key.Scalar()).second)
          report(key.Mark(), prefixed(path, "duplicate key '" + key.Scalar() + "'"));
        walk(it->second, depth < kShownDepth ? join_path(path, key.Scalar()) : path, depth + 1);
      }
    } else if (n.IsSequence()) {
      for (std::size_t i = 0; i < n.size(); ++i)
        walk(n[i], depth < kShownDepth ? index_path(path, i) : path, depth + 1);
    }
  }
};

}  // namespace

std::string join_path(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string index_path(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

std::string to_text(double x) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x);
  return ec == std::errc() ? std::string(buffer, end) : std::string("?");
}

namespace {

constexpr std::size_t kFar = static_cast<std::size_t>(-1);

// The edit distance if it is at most `limit`, else kFar: only the band |i − j| ≤ limit of the
// table can hold such a path (Ukkonen), and a row whose every cell exceeds it ends the search.
std::size_t edit_distance_within(std::string_view a, std::string_view b, std::size_t limit) {
  const std::size_t big = limit + 1;
  std::vector<std::size_t> prev(b.size() + 1, big), cur(b.size() + 1, big);
  for (std::size_t j = 0; j <= std::min(b.size(), limit); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    const std::size_t from = i > limit ? i - limit : 1, to = std::min(b.size(), i + limit);
    std::fill(cur.begin(), cur.end(), big);
    if (i <= limit) cur[0] = i;
    std::size_t row_min = cur[0];
    for (std::size_t j = from; j <= to; ++j) {
      const std::size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst, big});
      row_min = std::min(row_min, cur[j]);
    }
    if (row_min > limit) return kFar;
    std::swap(prev, cur);
  }
  return prev[b.size()] <= limit ? prev[b.size()] : kFar;
}

}  // namespace

std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates) {
  if (word.size() > kMaxSuggestedLength) return std::nullopt;
  // Close enough to be a typo, and not merely "every letter replaced".
  const std::size_t allowed = std::max<std::size_t>(2, word.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    if (c.size() > kMaxSuggestedLength) continue;
    // The distance is at least the difference of the lengths.
    const std::size_t gap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (gap > allowed || (best && gap >= best_distance)) continue;
    const std::size_t d = edit_distance_within(word, c, best ? std::min(allowed, best_distance - 1) : allowed);
    if (d == kFar) continue;
    if (d == 0) return c;
    if (!best || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  if (best && best_distance <= allowed && best_distance < word.size()) return best;
  return std::nullopt;
}

bool check_structure(const YAML::Node& root, const std::string& base,
                     const std::function<void(const YAML::Mark&, std::string)>& report) {
  StructureWalk walk{report};
  walk.walk(root, base, 0);
  return !walk.cut;
}

namespace {
KeyObserver& key_observer() {
  static KeyObserver observer;
  return observer;
}
}  // namespace

void set_key_observer(KeyObserver observer) { key_observer() = std::move(observer); }

Reader::Reader(std::string file, const OverrideMap& overrides)
    : file_(std::move(file)), overrides_(overrides) {}

const std::string* Reader::override_for(const std::string& path) const {
  const std::string* found = nullptr;
  std::size_t found_length = 0;
  for (const auto& [key, argument] : overrides_) {
    bool at_or_below = path.compare(0, key.size(), key) == 0 &&
                       (path.size() == key.size() || path[key.size()] == '.' ||
                        path[key.size()] == '[');
    if (at_or_below && key.size() >= found_length) {
      found = &argument;
      found_length = key.size();
    }
  }
  return found;
}

std::optional<std::string> Reader::override_at_or_below(const std::string& path) const {
  for (const auto& entry : overrides_) {
    const std::string& key = entry.first;
    if (key.compare(0, path.size(), path) == 0 &&
        (key.size() == path.size() || key[path.size()] == '.' || key[path.size()] == '['))
      return key;
  }
  return std::nullopt;
}

Diagnostic Reader::locate(const YAML::Mark& at, const std::string& path,
                          std::string message) const {
  const std::string* argument = override_for(path);
  // A mapping an override created on its way has no place in the file: the override's.
  if (!argument && at.is_null())
    if (const auto below = override_at_or_below(path)) argument = &overrides_.at(*below);
  if (argument) return Diagnostic{"--set " + *argument, 0, 0, std::move(message)};
  int line = at.is_null() ? 0 : at.line + 1;
  int column = at.is_null() ? 0 : at.column + 1;
  return Diagnostic{file_, line, column, std::move(message)};
}

void Reader::report(const YAML::Mark& at, const std::string& path, std::string message) {
  add(locate(at, path, std::move(message)));
}

void Reader::add(Diagnostic d) {
  diagnostics_.push_back(std::move(d));
  if (diagnostics_.size() >= kStopAfterProblems) {
    stopped_ = true;
    throw TooManyProblems{};
  }
}

void Reader::error(const Field& f, const std::string& message) {
  // An empty value's mark points past the key, often to the next line; the key is clearer.
  bool use_key = f.key.IsDefined() && f.key.IsScalar() &&
                 (!f.value.IsDefined() || f.value.IsNull() || f.value.Mark().is_null());
  report(use_key ? f.key.Mark() : f.value.Mark(), f.path, prefixed(f.path, message));
}

void Reader::error_first(const Field& f, const std::string& message) {
  error(f, message);
  diagnostics_.back().first = true;
}

void Reader::warn(const Field& f, const std::string& message) {
  const bool use_key = f.key.IsDefined() && f.key.IsScalar() && (!f.value.IsDefined() || f.value.IsNull());
  Diagnostic d = locate(use_key ? f.key.Mark() : f.value.Mark(), f.path, prefixed(f.path, message));
  d.warning = true;
  warnings_.push_back(std::move(d));
}

std::optional<double> Reader::number(const Field& f, Sign sign, std::string_view unit) {
  if (!f.present()) return std::nullopt;
  std::optional<double> x;
  if (f.value.IsScalar() && !is_quoted_or_string(f.value) && has_number_tag(f.value))
    x = parse_number(f.value.Scalar());
  bool in_range = x && (sign == Sign::any || (sign == Sign::positive && *x > 0.0) ||
                        (sign == Sign::non_negative && *x >= 0.0));
  if (!in_range) {
    error(f, "expected " + with_unit(number_kind(sign), unit) + ", got " + describe_value(f.value));
    return std::nullopt;
  }
  return x;
}

std::optional<std::string> Reader::string(const Field& f) {
  if (!f.present()) return std::nullopt;
  // A plain 12 is a number to YAML 1.2 (and to editors): a string is quoted, "12".
  const bool number = f.value.IsScalar() && !is_quoted_or_string(f.value) && has_number_tag(f.value) &&
                      parse_number(f.value.Scalar());
  if (!f.value.IsScalar() || number) {
    error(f, "expected a string, got " + describe_value(f.value));
    return std::nullopt;
  }
  if (!is_utf8(f.value.Scalar())) {
    error(f, "expected UTF-8 text; this is not");
    return std::nullopt;
  }
  return f.value.Scalar();
}

std::optional<std::size_t> Reader::choice(const Field& f,
                                          const std::vector<std::string>& options) {
  // A plain number is not one of the words either: the message lists them.
  auto s = f.present() && f.value.IsScalar() && is_utf8(f.value.Scalar()) ? std::optional(f.value.Scalar()) : string(f);
  if (!s) return std::nullopt;
  auto it = std::find(options.begin(), options.end(), *s);
  if (it != options.end()) return static_cast<std::size_t>(it - options.begin());
  std::string message = "expected one of " + quoted_list(options) + ", got '" + shown(*s) + "'";
  if (auto guess = closest_match(*s, options)) message += "; did you mean '" + *guess + "'?";
  error(f, message);
  return std::nullopt;
}

std::optional<std::vector<Field>> Reader::sequence(const Field& f) {
  if (!f.present()) return std::nullopt;
  if (!f.value.IsSequence()) {
    error(f, "expected a list, got " + describe_value(f.value));
    return std::nullopt;
  }
  // Items have no key: one undefined node serves as the key of all (yaml-cpp allocates a few
  // hundred bytes for each node it makes, which adds up over a list of 10^4 items).
  const YAML::Node no_key(YAML::NodeType::Undefined);
  std::vector<Field> items;
  items.reserve(f.value.size());
  for (std::size_t i = 0; i < f.value.size(); ++i) items.emplace_back(no_key, f.value[i], index_path(f.path, i));
  return items;
}

std::optional<Eigen::VectorXd> Reader::numbers(const Field& f, int n, Sign sign,
                                               std::string_view unit) {
  if (!f.present()) return std::nullopt;
  if (!f.value.IsSequence() || f.value.size() != static_cast<std::size_t>(n)) {
    std::string kind = sign == Sign::any ? "numbers" : number_kind(sign).substr(2) + "s";
    error(f, "expected a list of " + std::to_string(n) + " " + with_unit(kind, unit) +
                 ", got " + describe_value(f.value));
    return std::nullopt;
  }
  Eigen::VectorXd v(n);
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    auto x = number(item_field(f.value[i], index_path(f.path, i)), sign, unit);
    if (x) v[i] = *x;
    ok = ok && x.has_value();
  }
  if (!ok) return std::nullopt;
  // Angles typed in degrees read as radians: 90 "degrees" would turn a body 14 times round.
  const std::string_view path = f.path;
  if (unit == "rad" && path.size() >= 3 && path.substr(path.size() - 3) == "rpy" &&
      v.cwiseAbs().maxCoeff() > 2.0 * M_PI) {
    warn(f, "an angle beyond ±2π (" + to_text(v.cwiseAbs().maxCoeff()) +
                " rad): rpy is in radians; was it written in degrees?");
  }
  return v;
}

std::optional<Eigen::MatrixXd> Reader::matrix(const Field& f, int n, std::string_view unit) {
  if (!f.present()) return std::nullopt;
  std::string rows = std::to_string(n) + " rows of " + std::to_string(n) + " numbers";
  if (!f.value.IsSequence() || f.value.size() != static_cast<std::size_t>(n)) {
    error(f, "expected a matrix as a list of " + rows + ", got " + describe_value(f.value));
    return std::nullopt;
  }
  Eigen::MatrixXd m(n, n);
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    auto row = numbers(item_field(f.value[i], index_path(f.path, i)), n, Sign::any, unit);
    if (row) m.row(i) = row->transpose();
    ok = ok && row.has_value();
  }
  if (!ok) return std::nullopt;
  return m;
}

bool Reader::is_list_of_rows(const Field& f) {
  return f.present() && f.value.IsSequence() && f.value.size() > 0 && f.value[0].IsSequence();
}

Mapping::Mapping(Reader& reader, const Field& self, std::initializer_list<std::string_view> known)
    : reader_(reader), self_(self) {
  check_keys(std::vector<std::string>(known.begin(), known.end()));
}

Mapping::Mapping(Reader& reader, const Field& self, const std::vector<std::string>& known)
    : reader_(reader), self_(self) {
  check_keys(known);
}

void Mapping::check_keys(const std::vector<std::string>& names) {
  if (!self_.present()) return;
  const Field& self = self_;
  if (!self.value.IsMap()) {
    reader_.error(self, "expected a mapping, got " + describe_value(self.value));
    return;
  }
  ok_ = true;
  if (key_observer()) key_observer()(self.path, names);
  for (auto it = self.value.begin(); it != self.value.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar()) {
      reader_.report(key.Mark(), self.path,
                     prefixed(self.path, "expected a plain key, got " + describe_value(key)));
      continue;
    }
    const std::string& name = key.Scalar();
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    std::string message = "unknown key '" + name + "'";
    if (auto guess = closest_match(name, names))
      message += ", did you mean '" + *guess + "'?";
    else
      message += " (expected one of " + quoted_list(names) + ")";
    // A key that an override added has no place of its own; its value has (an include's set).
    const YAML::Mark at = key.Mark().is_null() ? it->second.Mark() : key.Mark();
    reader_.report(at, join_path(self.path, name), prefixed(self.path, message));
  }
}

Field Mapping::lookup(std::string_view key) const {
  if (ok_) {
    for (auto it = self_.value.begin(); it != self_.value.end(); ++it)
      if (it->first.IsScalar() && it->first.Scalar() == key)
        return Field{it->first, it->second, join_path(self_.path, key)};
  }
  return Field{YAML::Node(YAML::NodeType::Undefined), YAML::Node(YAML::NodeType::Undefined),
               join_path(self_.path, key)};
}

bool Mapping::has(std::string_view key) const { return lookup(key).present(); }

Field Mapping::get(std::string_view key) const { return lookup(key); }

Field Mapping::require(std::string_view key) {
  Field f = lookup(key);
  if (ok_ && !f.present())
    reader_.report(self_.value.Mark(), self_.path,
                   prefixed(self_.path, "missing required key '" + std::string(key) + "'"));
  return f;
}

void Mapping::read(std::string_view key, double& out, Sign sign, std::string_view unit,
                   bool required) {
  Field f = required ? require(key) : get(key);
  if (auto x = reader_.number(f, sign, unit)) out = *x;
}

void Mapping::read(std::string_view key, std::string& out, bool required) {
  Field f = required ? require(key) : get(key);
  if (auto s = reader_.string(f)) out = *s;
}

}  // namespace uwsim::scenario
