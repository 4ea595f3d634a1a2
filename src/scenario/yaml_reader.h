// Reading a yaml-cpp node tree with error collection: every value is addressed by its path
// ("bodies[0].added_mass"), every problem becomes a Diagnostic at the node's position, and
// reading goes on after a problem so that one run reports all of them.
#pragma once

#include <yaml-cpp/yaml.h>

#include <Eigen/Core>
#include <exception>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/load_scenario.h"
#include "scenario/overrides.h"

namespace uwsim::scenario {

enum class Sign { any, positive, non_negative };

// A value and where it came from. `key` is undefined for sequence items and the root; `value`
// is undefined when the key is absent from its mapping.
// Assigning a Field rebinds it to the other Field's nodes (YAML::Node's own assignment would
// instead overwrite the node in the tree it refers to); a default Field is absent.
struct Field {
  YAML::Node key{YAML::NodeType::Undefined};
  YAML::Node value{YAML::NodeType::Undefined};
  std::string path;

  Field() = default;
  Field(YAML::Node key_, YAML::Node value_, std::string path_)
      : key(std::move(key_)), value(std::move(value_)), path(std::move(path_)) {}
  Field(const Field&) = default;
  Field& operator=(const Field& other) {
    if (this != &other) {
      key.reset(rebindable(other.key));
      value.reset(rebindable(other.value));
      path = other.path;
    }
    return *this;
  }

  bool present() const { return value.IsDefined(); }

 private:
  static YAML::Node rebindable(const YAML::Node& n) {
    return n.IsDefined() ? n : YAML::Node(YAML::NodeType::Undefined);
  }
};

std::string join_path(const std::string& parent, std::string_view key);
std::string index_path(const std::string& parent, std::size_t index);

// Shortest text that reads back as the same double, for messages.
std::string to_text(double x);

// How a value reads in messages: "a list of 2 items", "a mapping", "the string \"11.5\"", "-1",
// "'abc'", "nothing".
std::string describe_value(const YAML::Node& n);

// Suggestions compare names of at most this many characters: the distance costs the product
// of the lengths (two 160 kB names took 39 s), and nobody mistypes a name that long.
inline constexpr std::size_t kMaxSuggestedLength = 64;
// The candidate closest to `word` if it is close enough to be a plausible typo; none for a word
// or candidate longer than kMaxSuggestedLength.
std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates);

// Limits of a document. A scenario is at most about five levels deep; anything far deeper
// is a recursive alias or hostile. Aliases can make a small file expand exponentially, and a
// huge list costs time and memory before any check sees it: both are capped, in nodes
// (scalars, lists and mappings; each use of an alias counts its whole value), over the
// scenario and every part it includes. yaml-cpp 0.7 spends 5–10 µs and 0.5 kB on a node
// (measured on this project's machines), so 40 000 keep the worst document, with an error at
// every node, well within a second and 100 MB; a scenario needs a few hundred, a BlueROV2 part
// with its eight tabulated thrusters about 500.
inline constexpr int kMaxNestingDepth = 32;
inline constexpr long kMaxDocumentNodes = 40000;

// A document this wrong is not read to its end: the reader stops at this many errors (by
// throwing TooManyProblems), so that the cost of an error (some hundred µs and kB in this
// loader) cannot add up over a document of 10^5 wrong values.
inline constexpr std::size_t kStopAfterProblems = 1000;
struct TooManyProblems : std::exception {
  const char* what() const noexcept override { return "too many problems: reading stopped"; }
};

// Calls `report` for each key given twice in one mapping (yaml-cpp 0.7 silently keeps both)
// and once if the tree is nested or aliased beyond anything a scenario needs, which would
// otherwise make every later walk unbounded. `base` prefixes the paths in messages.
// Returns false if the walk was cut short for that reason.
bool check_structure(const YAML::Node& root, const std::string& base,
                     const std::function<void(const YAML::Mark&, std::string)>& report);

// For tests: called with the path and the known keys of every mapping a Mapping opens (the
// proof that the loader reads no key the schema lacks); an empty function stops it.
using KeyObserver =
    std::function<void(const std::string& path, const std::vector<std::string>& keys)>;
void set_key_observer(KeyObserver observer);

class Reader {
 public:
  Reader(std::string file, const OverrideMap& overrides);

  // Records `message` at `at`; `path` decides whether it came from a --set argument. Throws
  // TooManyProblems at the kStopAfterProblems-th problem.
  void report(const YAML::Mark& at, const std::string& path, std::string message);
  // "path: message", at the value (or at its key when the value is empty).
  void error(const Field& field, const std::string& message);
  // An error whose consequences are reported too (a part that cannot be read): listed first.
  void error_first(const Field& field, const std::string& message);
  // A problem that does not stop a run ("path: message"), e.g. an angle in degrees.
  void warn(const Field& field, const std::string& message);
  std::vector<Diagnostic> take_warnings() { return std::move(warnings_); }

  // Reading a stored scenario (load_stored_scenario): the files it names are not opened.
  void open_no_files() { opens_files_ = false; }
  bool opens_files() const { return opens_files_; }

  // Another file the scenario reads (a CSV file), for Scenario::input_files.
  void note_file_read(const std::string& path) { files_read_.push_back(path); }
  const std::vector<std::string>& files_read() const { return files_read_; }

  // The canonical path of a --set override at `path` or inside it, if any.
  std::optional<std::string> override_at_or_below(const std::string& path) const;

  // A problem in another file the scenario reads (a CSV file of an input channel).
  void add(Diagnostic d);
  // The scenario file being read (relative files resolve against its directory).
  const std::string& file() const { return file_; }

  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  std::vector<Diagnostic> take_diagnostics() { return std::move(diagnostics_); }
  // True once kStopAfterProblems problems were recorded: there may be more.
  bool stopped() const { return stopped_; }

  // Typed values; nullopt (after reporting) when the value is absent, of the wrong kind or
  // out of range. `unit` only decorates messages ("kg"); empty for dimensionless values.
  std::optional<double> number(const Field& f, Sign sign, std::string_view unit);
  std::optional<std::string> string(const Field& f);
  std::optional<std::size_t> choice(const Field& f, const std::vector<std::string>& options);
  std::optional<Eigen::VectorXd> numbers(const Field& f, int n, Sign sign, std::string_view unit);
  // An n×n matrix given as a list of n rows of n numbers.
  std::optional<Eigen::MatrixXd> matrix(const Field& f, int n, std::string_view unit);
  // The items of a sequence, each with its indexed path.
  std::optional<std::vector<Field>> sequence(const Field& f);

  // True for a list whose first item is itself a list: the "list of rows" matrix form.
  static bool is_list_of_rows(const Field& f);

 private:
  const std::string* override_for(const std::string& path) const;
  Diagnostic locate(const YAML::Mark& at, const std::string& path, std::string message) const;

  std::string file_;
  const OverrideMap& overrides_;
  std::vector<Diagnostic> diagnostics_;
  bool stopped_ = false;
  std::vector<Diagnostic> warnings_;
  std::vector<std::string> files_read_;
  bool opens_files_ = true;
};

// A mapping being read. Construction reports a non-mapping value and every key not in
// `known` (with a suggestion); lookups never modify the tree.
class Mapping {
 public:
  Mapping(Reader& reader, const Field& self, std::initializer_list<std::string_view> known);
  Mapping(Reader& reader, const Field& self, const std::vector<std::string>& known);

  bool ok() const { return ok_; }
  bool has(std::string_view key) const;
  Field get(std::string_view key) const;
  // Like get, but reports a missing key at the mapping's position.
  Field require(std::string_view key);

  // Convenience readers: leave `out` unchanged when the key is absent or the value invalid.
  void read(std::string_view key, double& out, Sign sign, std::string_view unit,
            bool required = false);
  void read(std::string_view key, std::string& out, bool required = false);
  template <int N>
  void read(std::string_view key, Eigen::Matrix<double, N, 1>& out, Sign sign,
            std::string_view unit) {
    Field f = get(key);
    if (!f.present()) return;
    if (auto v = reader_.numbers(f, N, sign, unit)) out = *v;
  }

 private:
  Field lookup(std::string_view key) const;
  void check_keys(const std::vector<std::string>& known);

  Reader& reader_;
  Field self_;
  bool ok_ = false;
};

}  // namespace uwsim::scenario
