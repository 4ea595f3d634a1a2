#include "scenario/load_scenario.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>

#include "scenario/actuation_sections.h"
#include "scenario/controller_sections.h"
#include "scenario/flow_depth.h"
#include "scenario/includes.h"
#include "scenario/overrides.h"
#include "scenario/printable.h"
#include "scenario/read_file.h"
#include "scenario/visual_meshes.h"
#include "scenario/sections.h"
#include "scenario/trim_sections.h"
#include "scenario/yaml_emit.h"
#include "scenario/yaml_reader.h"

namespace uwsim::scenario {
namespace {

std::string summary(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics) {
    if (!out.empty()) out += '\n';
    out += format(d);
  }
  return out.empty() ? "invalid scenario" : out;
}

std::optional<std::string> read_text(const std::string& path, std::vector<Diagnostic>& out) {
  std::string why;
  std::optional<std::string> text = read_input_file(path, why, kMaxYamlBytes);
  if (!text) {
    if (why.rfind("is larger", 0) == 0) why = "the file " + why + "; a scenario takes a few kB";
    out.push_back({path, 0, 0, why});
    return std::nullopt;
  }
  if (const std::string binary = binary_content(*text); !binary.empty()) {
    out.push_back({path, 0, 0, "not a YAML file: " + binary});
    return std::nullopt;
  }
  normalize_line_ends(*text);  // yaml-cpp 0.7 reads a file with CR line ends as one line
  return text;
}

// yaml-cpp often reports a tab in indentation as some other syntax error; point at the tab.
// `first_line` blank lines precede the file's own text (see SourceMap).
std::string tab_hint(const std::string& message, const std::string& text, int error_line,
                     int first_line) {
  if (message.find("tab") != std::string::npos) return "";
  std::istringstream lines(text);
  std::string line;
  int tab_line = -1;
  for (int n = 0; n <= error_line && std::getline(lines, line); ++n) {
    const std::size_t first = line.find_first_not_of(" \t");
    const std::size_t tab = line.find('\t');
    if (tab != std::string::npos && (first == std::string::npos || tab < first)) tab_line = n;
  }
  if (tab_line < 0) return "";
  return " (line " + std::to_string(tab_line + 1 - first_line) +
         " is indented with a tab; YAML indentation must use spaces)";
}

// A walk over the parser's events before any tree is built, stopped at the first of:
// - a ',' where a document should start: yaml-cpp 0.7 never gets past it (a lone ",", or
//   one after a complete top-level node), and LoadAll returns empty documents without
//   end, each held in memory;
// - more than kMaxDocumentNodes nodes, or nesting deeper than kMaxNestingDepth: a huge list
//   (10^6 items) would otherwise cost seconds and hundreds of MB as a yaml-cpp tree, only
//   to be rejected by check_structure afterwards.
// Aliases count once here; check_structure counts their expansion in the built tree.
class EventScan : public YAML::EventHandler {
 public:
  struct Stop {};  // thrown to end the walk at the first problem

  explicit EventScan(long& budget) : budget_(budget) {}

  std::optional<YAML::Mark> stuck, too_many, too_deep;

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (started_ && mark.pos == last_.pos) {
      stuck = mark;
      throw Stop{};
    }
    started_ = true;
    last_ = mark;
    depth_ = 0;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string&) override {
    node(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    open(mark);
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    open(mark);
  }
  void OnMapEnd() override { --depth_; }

 private:
  void node(const YAML::Mark& mark) {
    if (--budget_ < 0) {
      too_many = mark;
      throw Stop{};
    }
  }
  void open(const YAML::Mark& mark) {
    node(mark);
    if (++depth_ > kMaxNestingDepth) {
      too_deep = mark;
      throw Stop{};
    }
  }

  bool started_ = false;
  YAML::Mark last_;
  long& budget_;
  int depth_ = 0;
};

// The first problem EventScan finds in `text`, as a diagnostic; nothing if there is none
// (syntax errors are left to the real parse, which reports them).
std::optional<Diagnostic> scan_events(const std::string& path, const std::string& text, long& budget) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  EventScan scan(budget);
  try {
    while (parser.HandleNextDocument(scan)) {
    }
  } catch (const EventScan::Stop&) {
  } catch (const YAML::Exception&) {
    return std::nullopt;
  }
  auto at = [&](const YAML::Mark& m, std::string message) {
    return Diagnostic{path, m.line + 1, m.column + 1, std::move(message)};
  };
  if (scan.stuck) {
    const YAML::Mark m = *scan.stuck;
    const char c = m.pos >= 0 && static_cast<std::size_t>(m.pos) < text.size()
                       ? text[static_cast<std::size_t>(m.pos)]
                       : ',';
    return at(m, c == ','
                     ? "YAML syntax error: unexpected ',' (a comma separates items only inside "
                       "[...] or {...})"
                     : std::string("YAML syntax error: unexpected '") + c + "'");
  }
  if (scan.too_many)
    return at(*scan.too_many, "the document is too large: more than " +
                                  std::to_string(kMaxDocumentNodes) +
                                  " values with the files it includes (a scenario needs a few hundred)");
  if (scan.too_deep)
    return at(*scan.too_deep, "the YAML is nested more than " +
                                  std::to_string(kMaxNestingDepth) +
                                  " levels deep (a scenario needs about six)");
  return std::nullopt;
}

// `budget`: the values the files of this load may still hold (kMaxDocumentNodes in all).
std::optional<YAML::Node> parse(const std::string& path, const std::string& text,
                                int first_line, std::vector<Diagnostic>& out, long& budget) {
  if (const auto deep = flow_nested_deeper_than(text, kMaxNestingDepth)) {
    out.push_back({path, deep->line, deep->column,
                   "the YAML is nested more than " + std::to_string(kMaxNestingDepth) +
                       " levels deep (a scenario needs about six)"});
    return std::nullopt;
  }
  if (auto problem = scan_events(path, text, budget)) {
    out.push_back(std::move(*problem));
    return std::nullopt;
  }
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(text);
  } catch (const YAML::DeepRecursion& e) {
    out.push_back({path, e.mark.line + 1, e.mark.column + 1, "the YAML is nested too deeply"});
    return std::nullopt;
  } catch (const YAML::ParserException& e) {
    const bool known = !e.mark.is_null();
    out.push_back({path, known ? e.mark.line + 1 : 0, known ? e.mark.column + 1 : 0,
                   "YAML syntax error: " + e.msg + tab_hint(e.msg, text, known ? e.mark.line : 0, first_line)});
    return std::nullopt;
  }
  if (documents.empty()) {
    // An included file gets its first line, so that the message lands in it.
    out.push_back({path, first_line > 0 ? first_line + 1 : 0, first_line > 0 ? 1 : 0,
                   first_line > 0 ? "the file is empty; expected a part with bodies, joints "
                                    "or manipulators"
                                  : "the file is empty; expected a scenario"});
    return std::nullopt;
  }
  if (documents.size() > 1) {
    const YAML::Mark m = documents[1].Mark();
    out.push_back({path, m.is_null() ? 0 : m.line + 1, m.is_null() ? 0 : m.column + 1,
                   "the file holds " + std::to_string(documents.size()) +
                       " YAML documents; a scenario is exactly one"});
  }
  return documents.front();
}

// `part_unreadable`: an include could not be read or has errors, which says why bodies may be missing.
Scenario read_scenario(Reader& reader, const YAML::Node& root, bool part_unreadable) {
  Scenario s;
  const Field self{YAML::Node(YAML::NodeType::Undefined), root, ""};
  if (!root.IsMap()) {
    reader.report(root.Mark(), "",
                  "expected the scenario as a mapping with keys name, simulation, bodies, ...");
    return s;
  }
  Mapping m(reader, self,
            {"name", "description", "environment", "compliance", "simulation", "inputs", "bodies", "joints",
             "manipulators", "forces", "thrusters", "connectors", "controllers", "trim", "sensors"});
  const Field name = m.require("name");
  if (auto text = reader.string(name); text && check_name_text(reader, name, *text, NameUse::file_name)) s.name = *text;
  m.read("description", s.description);
  // First: shapes derive coefficients from the water density.
  s.environment = read_environment(reader, m.get("environment"));
  s.compliance = read_compliance(reader, m.get("compliance"));
  s.simulation = read_simulation(reader, m.require("simulation"));
  Assembly assembly;
  const Field bodies = m.get("bodies");
  const Field manipulators = m.get("manipulators");
  read_bodies(reader, bodies, s.environment, assembly);
  read_joints(reader, m.get("joints"), assembly);
  read_manipulators(reader, manipulators, s.environment, assembly);
  // A fixed-base arm stands alone: its manipulator provides every body. A list that is
  // there but unreadable is reported on its own.
  auto empty = [](const Field& f) {
    return absent(f) || (f.value.IsSequence() && f.value.size() == 0);
  };
  if (m.ok() && empty(bodies) && empty(manipulators) && !part_unreadable)
    reader.report(root.Mark(), "",
                  "the scenario has no bodies: give them in 'bodies', or as the links of "
                  "'manipulators'");
  check_nested_names(reader, assembly);
  connect(reader, assembly);
  s.bodies = std::move(assembly.bodies);
  s.joints = std::move(assembly.joints);
  s.forces = read_forces(reader, m.get("forces"), s.bodies);
  // Actuation: channels first, then everything that names them.
  s.inputs = read_inputs(reader, m.get("inputs"));
  const std::vector<std::string> channels = channel_names(s.inputs);
  check_force_inputs(reader, m.get("forces"), channels);
  check_actuator_inputs(reader, m.get("joints"), manipulators, channels);
  s.thrusters = read_thrusters(reader, m.get("thrusters"), s.bodies, channels);
  s.connectors = read_connectors(reader, m.get("connectors"), s);
  s.sensors = read_sensors(reader, m.get("sensors"), s);  // before the controllers that fly on them
  s.controllers = read_controllers(reader, m.get("controllers"), s, channels);
  s.trim = read_trim(reader, m.get("trim"), s);
  return s;
}

bool has_errors(const std::vector<Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) { return !d.warning; });
}

// A stored scenario (load_stored_scenario) names files it may not open: its `include`, if it
// has one, is refused at its key. True if there was none.
bool without_includes(const std::string& path, const YAML::Node& root, std::vector<Diagnostic>& diagnostics) {
  if (!root.IsMap()) return true;
  for (auto it = root.begin(); it != root.end(); ++it) {
    if (!it->first.IsScalar() || it->first.Scalar() != "include") continue;
    const YAML::Mark m = it->first.Mark();
    diagnostics.push_back({path, m.line + 1, m.column + 1,
                           "include: not opened. A stored scenario is data: sim opens no file it names (a "
                           "resolved scenario has its parts in place and no include)"});
    return false;
  }
  return true;
}

// `given_text`, if not null, is the content of `path`, which is then not read. Diagnostics (and
// warnings) at shifted lines; see load_checked. `stopped`: reading ended at kStopAfterProblems
// problems, and there may be more.
Scenario load(const std::string& path, const std::string* given_text,
              const std::vector<std::string>& overrides, bool stored, SourceMap& sources,
              std::vector<Diagnostic>& diagnostics, bool& stopped) {
  std::optional<std::string> text;
  if (given_text && given_text->size() > kMaxYamlBytes) {
    diagnostics.push_back({path, 0, 0, "the text is larger than " + std::to_string(kMaxYamlBytes >> 20) +
                                           " MiB; a scenario takes a few kB"});
  } else if (given_text) {
    text = *given_text;
    normalize_line_ends(*text);
  } else {
    text = read_text(path, diagnostics);
  }
  if (!text) return {};
  sources.add(path, *text);
  long budget = kMaxDocumentNodes;
  auto parsed = parse(path, *text, 0, diagnostics, budget);
  if (!parsed) return {};
  YAML::Node root = *parsed;

  auto report = [&](const YAML::Mark& m, std::string message) {
    diagnostics.push_back({path, m.line + 1, m.column + 1, std::move(message)});
  };
  // Reading an unbounded tree would itself be unbounded.
  if (!check_structure(root, "", report)) return {};

  // Parts are parsed below the lines of the files before them: see SourceMap.
  const ShiftedParser parse_part = [&](const std::string&, const std::string& part_text,
                                       int first_line) {
    std::string shifted(static_cast<std::size_t>(first_line), '\n');
    // A byte order mark is accepted at the start of a part as of a root file, where the
    // YAML parser skips it; below the blank lines it would be text.
    constexpr std::string_view kBom = "\xEF\xBB\xBF";
    const std::string_view body = part_text;
    shifted += body.substr(body.substr(0, kBom.size()) == kBom ? kBom.size() : 0);
    return parse(path, shifted, first_line, diagnostics, budget);
  };
  const std::size_t before_includes = diagnostics.size();
  if (stored && !without_includes(path, root, diagnostics)) return {};
  try {
    if (!stored) resolve_includes(root, sources, parse_part, diagnostics);
  } catch (const TooManyProblems&) {
    stopped = true;
    return {};
  }
  // Each part is bounded on its own; many of them together need not be.
  std::vector<Diagnostic> structure;
  if (!check_structure(root, "", [&](const YAML::Mark& m, std::string message) {
        structure.push_back({path, m.line + 1, m.column + 1, std::move(message)});
      })) {
    diagnostics.push_back(std::move(structure.back()));
    return {};
  }

  const OverrideMap applied = apply_overrides(root, overrides, diagnostics);
  // A part that could not be read (missing, too large, a bad URDF) explains missing bodies:
  // the reader does not say "no bodies" after it.
  const bool part_unreadable = diagnostics.size() > before_includes;
  Reader reader(path, applied);
  if (stored) reader.open_no_files();
  Scenario scenario;
  try {
    scenario = read_scenario(reader, root, part_unreadable);
  } catch (const TooManyProblems&) {
  }
  stopped = reader.stopped();
  for (auto& d : reader.take_diagnostics()) diagnostics.push_back(std::move(d));
  for (auto& d : reader.take_warnings()) diagnostics.push_back(std::move(d));
  if (has_errors(diagnostics)) return scenario;
  // Mesh files are read only for a scenario loaded from its own file: a text (a scenario stored
  // in a result file) is data, and no file it names is opened (visual_meshes.h).
  std::vector<std::string> mesh_files;
  if (!given_text) {
    read_visual_meshes(scenario.bodies, path, diagnostics, mesh_files);
    if (has_errors(diagnostics)) return scenario;
  }

  scenario.source_path = path;
  scenario.input_files = sources.files();
  for (const std::string& file : reader.files_read()) scenario.input_files.push_back(file);
  for (const std::string& file : mesh_files) scenario.input_files.push_back(file);
  scenario.resolved_yaml = emit_yaml(root);
  return scenario;
}

}  // namespace

std::string format(const Diagnostic& d) {
  // File names and messages quote the user's text: escaped (printable.h), and cut as a last
  // resort where a message grew long.
  std::string out = printable(d.file);
  if (d.line > 0) {
    out += ':';
    out += std::to_string(d.line);
    if (d.column > 0) {
      out += ':';
      out += std::to_string(d.column);
    }
  }
  out += d.warning ? ": warning: " : ": error: ";
  out += shown(d.message, kMaxMessageCharacters);
  return out;
}

ScenarioError::ScenarioError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(summary(diagnostics)), diagnostics_(std::move(diagnostics)) {}

namespace {

Scenario load_checked(const std::string& path, const std::string* text,
                      const std::vector<std::string>& overrides, bool stored = false) {
  std::vector<Diagnostic> diagnostics;
  SourceMap sources(path);
  Scenario scenario;
  bool stopped = false;
  try {
    scenario = load(path, text, overrides, stored, sources, diagnostics, stopped);
  } catch (const YAML::Exception& e) {
    diagnostics.push_back({path, 0, 0, "cannot read the YAML: " + e.msg});
  } catch (const TooManyProblems&) {
    stopped = true;
  } catch (const std::exception& e) {
    // Bad input must surface as a diagnostic, never as some other exception.
    diagnostics.push_back({path, 0, 0, std::string("cannot read the scenario: ") + e.what()});
  }
  // In file order: the lines of included files follow those of the files before them; a
  // cause before its consequences.
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::make_tuple(!a.first, a.line, a.column) < std::make_tuple(!b.first, b.line, b.column);
  });
  for (auto& d : diagnostics) sources.relocate(d);
  // Identical diagnostics (same place, same message) are said once. A part included twice
  // is read twice and reports its problems once per use: the messages differ by the key
  // paths of the uses (bodies[0].mass, bodies[1].mass).
  std::set<std::tuple<std::string, int, int, std::string>> seen;
  std::vector<Diagnostic> errors;
  for (auto& d : diagnostics) {
    if (!seen.emplace(d.file, d.line, d.column, d.message).second) continue;
    if (d.warning)
      scenario.warnings.push_back(format(d));
    else
      errors.push_back(std::move(d));
  }
  if (!errors.empty()) {
    const std::size_t listed = std::min(errors.size(), kMaxDiagnostics);
    if (stopped) {
      errors.resize(listed);
      errors.push_back({path, 0, 0, "more than " + std::to_string(kStopAfterProblems) +
                                        " errors: reading stopped there (the first " +
                                        std::to_string(listed) + " are listed)"});
    } else if (errors.size() > listed) {
      const std::size_t more = errors.size() - listed;
      errors.resize(listed);
      errors.push_back({path, 0, 0, std::to_string(more) + " more errors (the first " +
                                        std::to_string(listed) + " are listed)"});
    }
    throw ScenarioError(std::move(errors));
  }
  return scenario;
}

}  // namespace

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  return load_checked(path, nullptr, overrides);
}

Scenario load_scenario_text(const std::string& text, const std::string& name,
                            const std::vector<std::string>& overrides) {
  return load_checked(name, &text, overrides);
}

Scenario load_stored_scenario(const std::string& text, const std::string& name) {
  return load_checked(name, &text, {}, true);
}

}  // namespace uwsim::scenario
