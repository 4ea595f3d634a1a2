#include "scenario/includes.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "scenario/overrides.h"
#include "scenario/read_file.h"
#include "scenario/sections.h"
#include "scenario/tables.h"
#include "scenario/urdf_part.h"
#include "scenario/yaml_reader.h"
#include "spatial/rotation.h"

namespace uwsim::scenario {

int SourceMap::add(const std::string& file, const std::string& text) {
  return add(file, text, {});
}

int SourceMap::add(const std::string& file, const std::string& text,
                   std::vector<std::pair<int, int>> origins) {
  const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  const int first = next_line_;
  segments_.push_back(Segment{file, first, lines, std::move(origins)});
  next_line_ += lines;
  return first;
}

void SourceMap::relocate(Diagnostic& d) const {
  if (d.file != root_file_ || d.line <= 0) return;
  const int line = d.line - 1;
  for (const auto& s : segments_) {
    if (line >= s.first_line && line < s.first_line + s.lines) {
      d.file = s.file;
      d.line = line - s.first_line + 1;
      if (!s.origins.empty()) {
        const auto k = static_cast<std::size_t>(line - s.first_line);
        const auto [origin_line, origin_column] = s.origins[std::min(k, s.origins.size() - 1)];
        d.line = origin_line;
        d.column = origin_column;
      }
      return;
    }
  }
}

std::vector<std::string> SourceMap::files() const {
  std::vector<std::string> out;
  for (const auto& s : segments_)
    if (std::find(out.begin(), out.end(), s.file) == out.end()) out.push_back(s.file);
  return out;
}

namespace {

namespace fs = std::filesystem;

// Blank lines shift every included file; bound the text parsed in all (each use of a part
// counting its text and its shift): as a scenario file, what yaml-cpp reads in a fraction of a
// second (read_file.h). A BlueROV2 part is 5 kB.
constexpr std::size_t kMaxShiftedBytes = kMaxYamlBytes;
constexpr const char* kSections[] = {"bodies", "joints", "manipulators", "thrusters"};

const OverrideMap kNoOverrides;

// A part named *.urdf is a URDF robot, read by urdf_part.h.
bool is_urdf(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".urdf";
}

YAML::Node child_of(const YAML::Node& map, const std::string& key) {
  if (map.IsMap())
    for (auto it = map.begin(); it != map.end(); ++it)
      if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  return YAML::Node(YAML::NodeType::Undefined);
}

Field key_field(const YAML::Node& map, const std::string& key, const std::string& path) {
  if (map.IsMap())
    for (auto it = map.begin(); it != map.end(); ++it)
      if (it->first.IsScalar() && it->first.Scalar() == key)
        return Field{it->first, it->second, path};
  return Field{YAML::Node(YAML::NodeType::Undefined), YAML::Node(YAML::NodeType::Undefined),
               path};
}

// The pose an include places its part at.
struct Placement {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  std::optional<Eigen::Vector3d> rpy;  // absent: attitudes stay as written
};

// An include item as written: its file and where the part goes (`name` and `set` are read by
// Resolver::include: a name checked against the others, overrides applied to the part).
struct IncludeItem {
  std::optional<std::string> file;  // absent after a problem
  Placement placement;
};

const Table<IncludeItem>& include_table() {
  static const auto table = make_table<IncludeItem>(
      "A part placed in the scenario under a name",
      {custom<IncludeItem>("file",
                           "The part's file, relative to the including file: YAML, or a URDF robot (a name ending "
                           "in .urdf, read with urdfdom; links with mass become bodies, joints joints, in NED/SNAME "
                           "axes)",
                           R"({"type": "string", "minLength": 1})",
                           [](Reader& r, const Field& f, IncludeItem& item) {
                             if (auto s = r.string(f)) {
                               if (s->empty())
                                 r.error(f, "expected a file name, got an empty string");
                               else
                                 item.file = *s;
                             }
                           })
           .needed(),
       by_hand<IncludeItem>(
           "name", "Unique among this file's includes; prefixes the part's names: NAME/<body>",
           R"({"type": "string", "minLength": 1, "pattern": "^(?!/)(?!.*/$)(?!.*//)(?!(.*/)?\\.\\.?(/|$))[^\\u0000-\\u001f\\u007f]+$", "maxLength": 255})")
           .needed(),
       inside(&IncludeItem::placement,
              vector("position", &Placement::position, Sign::any, "m",
                     "Moves the part's free bodies' initial positions, NED (m). Not for parts fixed to `world`")),
       custom<IncludeItem>("rpy",
                           "Turns the part's free bodies (position and attitude) about the world origin before "
                           "`position` (rad, ZYX). Absent: the attitudes stay as written",
                           R"({"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3})",
                           [](Reader& r, const Field& f, IncludeItem& item) {
                             if (auto v = r.numbers(f, 3, Sign::any, "rad")) item.placement.rpy = Eigen::Vector3d(*v);
                           }),
       by_hand<IncludeItem>("set",
                            "Overrides of the part, before its names are prefixed: key paths as for --set "
                            "(bodies.rov.mass: 12)",
                            R"({"type": ["object", "null"], "additionalProperties": true})")});
  return table;
}

// Composes the placement with the initial pose of one free root body. Values that do not
// read are left alone: the reader reports them where they are written. Returns why the
// placed pose is not finite, or "".
std::string place_body(YAML::Node body, const Placement& at) {
  YAML::Node initial = child_of(body, "initial");
  if (initial.IsDefined() && !initial.IsNull() && !initial.IsMap()) return "";
  Reader scratch("", kNoOverrides);  // reports nothing anyone reads
  auto numbers = [&](const YAML::Node& map, const char* key,
                     int n) -> std::optional<std::optional<Eigen::VectorXd>> {
    const YAML::Node v = child_of(map, key);
    if (!v.IsDefined()) return std::optional<Eigen::VectorXd>();  // absent
    auto x = scratch.numbers(Field{YAML::Node(YAML::NodeType::Undefined), v, key}, n, Sign::any,
                             "");
    if (!x) return std::nullopt;  // unreadable
    return x;
  };
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  Eigen::Matrix3d r = Eigen::Matrix3d::Identity();
  bool given_rpy = false, given_quaternion = false;
  if (initial.IsMap()) {
    const auto position = numbers(initial, "position", 3);
    const auto rpy = numbers(initial, "rpy", 3);
    const auto quaternion = numbers(initial, "quaternion", 4);
    if (!position || !rpy || !quaternion) return "";
    if (*position) p = **position;
    given_rpy = rpy->has_value();
    given_quaternion = quaternion->has_value();
    if (given_rpy && given_quaternion) return "";
    if (given_rpy) r = spatial::rotation_from_euler_zyx(**rpy);
    if (given_quaternion) {
      const Eigen::VectorXd& q = **quaternion;
      if (std::abs(q.norm() - 1.0) > 1e-6) return "";
      r = spatial::rotation_from_quaternion(spatial::Quat(q).normalized());
    }
  }
  // A fresh `initial` mapping: the old one (or its values) may be shared through an alias.
  const Eigen::Matrix3d r_place = at.rpy ? spatial::rotation_from_euler_zyx(*at.rpy) : Eigen::Matrix3d::Identity();
  const Eigen::Vector3d position = r_place * p + at.position;
  if (!position.allFinite()) {
    std::string why = "the placed initial position of body '";
    why += child_of(body, "name").as<std::string>("?");
    why += "' is not a finite number (the part's position and the include's add up beyond "
           "the range of numbers)";
    return why;
  }
  YAML::Node placed(YAML::NodeType::Map);
  placed["position"] = yaml_list(position);
  if ((given_quaternion || given_rpy) && at.rpy) {
    // A quaternion, also for an attitude given as rpy: converting the composed attitude
    // back to rpy loses it near pitch ±90° (gimbal lock).
    spatial::Quat q = spatial::quaternion_from_rotation(r_place * r).normalized();
    if (q[0] < 0) q = -q;
    placed["quaternion"] = yaml_list(q);
  } else if (given_quaternion) {
    placed["quaternion"] = child_of(initial, "quaternion");
  } else if (given_rpy) {
    placed["rpy"] = child_of(initial, "rpy");
  } else if (at.rpy) {
    placed["rpy"] = yaml_list(*at.rpy);  // exactly as the include gives it
  }
  if (initial.IsMap())
    for (auto it = initial.begin(); it != initial.end(); ++it) {
      const std::string key = it->first.Scalar();
      if (key != "position" && key != "rpy" && key != "quaternion") placed[it->first] = it->second;
    }
  body.remove("initial");
  body["initial"] = placed;
  return "";
}

// The names of the bodies that a joint of the part has as child.
std::set<std::string> joint_children(const YAML::Node& part) {
  std::set<std::string> children;
  const YAML::Node joints = child_of(part, "joints");
  if (joints.IsSequence())
    for (const auto& j : joints) {
      const YAML::Node child = child_of(j, "child");
      if (child.IsScalar()) children.insert(child.Scalar());
    }
  return children;
}

// A part's mesh files name paths relative to the part: made absolute (from `folder`, the part's
// as opened), they read the same from the including file. Paths already absolute (a nested
// part's, made so when it was included) stay.
void anchor_mesh_files(const YAML::Node& part, const fs::path& folder) {
  auto anchor = [&](const YAML::Node& body) {
    const YAML::Node visuals = child_of(body, "visual");
    if (!visuals.IsSequence()) return;
    for (const auto& item : visuals) {
      YAML::Node file = child_of(child_of(item, "mesh"), "file");
      if (!file.IsScalar() || file.Scalar().empty() || fs::path(file.Scalar()).is_absolute()) continue;
      std::error_code ec;
      const fs::path absolute = fs::absolute(folder / file.Scalar(), ec);
      if (!ec) file = absolute.lexically_normal().string();  // keeps the node's mark
    }
  };
  const YAML::Node bodies = child_of(part, "bodies");
  if (bodies.IsSequence())
    for (const auto& b : bodies) anchor(b);
  const YAML::Node arms = child_of(part, "manipulators");
  if (arms.IsSequence())
    for (const auto& a : arms) {
      const YAML::Node links = child_of(a, "links");
      if (links.IsSequence())
        for (const auto& l : links) anchor(l);
    }
}

class Resolver {
 public:
  Resolver(SourceMap& sources, const ShiftedParser& parse, std::vector<Diagnostic>& out)
      : sources_(sources), parse_(parse), out_(out), reader_(sources.root_file(), kNoOverrides) {}

  ~Resolver() {
    for (auto& d : reader_.take_diagnostics()) out_.push_back(std::move(d));
    for (auto& d : reader_.take_warnings()) out_.push_back(std::move(d));
  }

  void resolve_root(YAML::Node& root) {
    chain_.push_back(canonical_of(sources_.root_file()));
    shown_chain_.push_back(sources_.root_file());
    resolve(root, sources_.root_file(), 0);
  }

 private:
  // `path` is the including file as it was opened: its includes are relative to its
  // directory as written (through a symbolic link, the link's), never to a lexically
  // normalized form, which would cancel "link/..".
  void resolve(YAML::Node& doc, const fs::path& path, int depth) {
    if (!doc.IsMap()) return;
    const Field list = key_field(doc, "include", "include");
    if (!list.present()) return;
    doc.remove("include");
    if (list.value.IsNull()) return;
    const auto items = reader_.sequence(list);
    if (!items) return;
    std::map<std::string, std::string> names;
    for (const Field& item : *items) include(doc, path, depth, item, names);
  }

  void include(YAML::Node& doc, const fs::path& path, int depth, const Field& item,
               std::map<std::string, std::string>& names) {
    // An unknown key is reported but does not stop the part from being placed; a wrong value
    // of a known key does (nothing of the part is read).
    Mapping m(reader_, item, include_table().keys());
    if (!m.ok()) return;
    const std::size_t before = reader_.diagnostics().size();
    IncludeItem given;
    read_rows(reader_, m, item, include_table(), given);
    const Field file = m.get("file");
    const Field name = m.get("name");
    const std::optional<std::string>& file_text = given.file;
    auto name_text = reader_.string(name);
    bool ok = file_text.has_value() && name_text.has_value() && reader_.diagnostics().size() == before;
    if (name_text) {
      if (const std::string why = name_problem(*name_text); !why.empty()) {
        reader_.error(name, why + "; the name prefixes the part's bodies, joints and "
                                  "manipulators as NAME/<name>");
        ok = false;
      } else if (auto [it, fresh] = names.emplace(*name_text, item.path); !fresh) {
        reader_.error(name, "duplicate include name '" + *name_text + "' (also " + it->second + ")");
        ok = false;
      }
    }
    const Placement& placement = given.placement;
    const Field position = m.get("position");
    const Field rpy = m.get("rpy");
    const Field set = m.get("set");
    if (set.present() && !set.value.IsNull() && !set.value.IsMap()) {
      reader_.error(set, "expected a mapping of key paths to values, e.g. bodies.rov.mass: 12");
      ok = false;
    }
    if (!ok) return;

    // Checked, opened and included from: `target` itself. The normalized form is for
    // messages only, and only where it names the same file.
    const fs::path target = path.parent_path() / *file_text;
    std::string target_shown = target.lexically_normal().string();
    std::error_code ec;
    if (!fs::exists(target, ec)) {
      reader_.error_first(file, "no such file '" + target_shown + "' (looked in " +
                                    fs::absolute(target, ec).parent_path().lexically_normal().string() +
                                    ": includes are relative to the including file)");
      return;
    }
    if (!fs::is_regular_file(target, ec)) {
      reader_.error_first(file, "'" + target_shown + "' is not a regular file");
      return;
    }
    if (target_shown != target.string() && !fs::equivalent(target_shown, target, ec))
      target_shown = target.string();
    const std::string canonical = canonical_of(target);
    const auto in_chain = std::find(chain_.begin(), chain_.end(), canonical);
    if (in_chain != chain_.end()) {
      std::string cycle;
      for (auto i = static_cast<std::size_t>(in_chain - chain_.begin()); i < shown_chain_.size(); ++i) {
        cycle += shown_chain_[i];
        cycle += " -> ";
      }
      cycle += target_shown;
      reader_.error(file, "include cycle: " + cycle);
      return;
    }
    if (depth >= kMaxIncludeDepth) {
      reader_.error(file, "includes nested more than " + std::to_string(kMaxIncludeDepth) +
                              " deep");
      return;
    }
    if (++count_ > kMaxIncludes) {
      if (count_ == kMaxIncludes + 1)
        reader_.error(file, "more than " + std::to_string(kMaxIncludes) +
                                " includes in all (counting each use of a part)");
      return;
    }
    std::optional<YAML::Node> loaded = load(file, target, target_shown, canonical);
    if (!loaded) return;
    YAML::Node part = *loaded;
    Mapping keys(reader_, Field{YAML::Node(YAML::NodeType::Undefined), part, ""},
                 {"bodies", "joints", "manipulators", "thrusters", "include"});
    if (!keys.ok()) return;

    chain_.push_back(canonical);
    shown_chain_.push_back(target_shown);
    resolve(part, target, depth + 1);
    chain_.pop_back();
    shown_chain_.pop_back();
    anchor_mesh_files(part, target.parent_path());

    if (set.present() && set.value.IsMap()) {
      // `set` may give free bodies an initial state they do not write: an empty `initial`
      // for them, dropped again if it stays empty. Joints' children take none.
      std::vector<YAML::Node> fresh;
      const std::set<std::string> children = joint_children(part);
      const YAML::Node bodies = child_of(part, "bodies");
      if (bodies.IsSequence())
        for (auto b : bodies) {
          const YAML::Node body_name = child_of(b, "name");
          if (!b.IsMap() || child_of(b, "initial").IsDefined() ||
              (body_name.IsScalar() && children.count(body_name.Scalar())))
            continue;
          b["initial"] = YAML::Node(YAML::NodeType::Map);
          fresh.push_back(b);
        }
      for (auto it = set.value.begin(); it != set.value.end(); ++it) {
        if (!it->first.IsScalar()) {
          reader_.report(it->first.Mark(), "", set.path + ": expected a key path");
          continue;
        }
        std::string failure;
        if (!set_path(part, it->first.Scalar(), it->second, failure))
          reader_.report(it->first.Mark(), "", set.path + ": '" + it->first.Scalar() + "': " + failure);
      }
      for (auto& b : fresh) {
        const YAML::Node initial = child_of(b, "initial");
        if (initial.IsMap() && initial.size() == 0) b.remove("initial");
      }
    }
    prefix(part, *name_text);
    if (position.present() || rpy.present()) place(part, position.present() ? position : rpy, placement);
    append(doc, part);
  }

  static std::string canonical_of(const fs::path& p) {
    std::error_code ec;
    std::string canonical = fs::weakly_canonical(p, ec).string();
    if (ec) canonical = fs::absolute(p).lexically_normal().string();
    return canonical;
  }

  std::optional<YAML::Node> load(const Field& file, const fs::path& path,
                                 const std::string& shown, const std::string& canonical) {
    auto it = texts_.find(canonical);
    if (it == texts_.end()) {
      std::string why;
      // A URDF file too: 1 MiB (urdf_tree.cpp says why).
      std::optional<std::string> text = read_input_file(path.string(), why, kMaxYamlBytes);
      if (!text) {
        reader_.error_first(file, "cannot read '" + shown + "': " + why);
        return std::nullopt;
      }
      normalize_line_ends(*text);
      std::string s = std::move(*text);
      // A URDF robot is read into the YAML text of a part, each of whose lines records
      // where in the URDF it came from (urdf_part.h).
      std::vector<std::pair<int, int>> origins;
      if (is_urdf(path)) {
        const std::size_t before = out_.size();
        auto part = read_urdf_part(shown, s, out_);
        if (!part) return unreadable(before);
        s = std::move(part->yaml);
        for (const urdf::Position& p : part->lines) origins.emplace_back(p.line, p.column);
      }
      shifted_bytes_ += s.size() + static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
      if (shifted_bytes_ > kMaxShiftedBytes) {
        reader_.error_first(file, "the included files are too large in all");
        return std::nullopt;
      }
      const int first_line = sources_.add(shown, s, std::move(origins));
      it = texts_.emplace(canonical, Text{s, first_line}).first;
    }
    shifted_bytes_ += static_cast<std::size_t>(it->second.first_line);
    if (shifted_bytes_ > kMaxShiftedBytes) {
      reader_.error_first(file, "the included files are too large in all");
      return std::nullopt;
    }
    const std::size_t before = out_.size();
    auto parsed = parse_(shown, it->second.text, it->second.first_line);
    if (!parsed) return unreadable(before);
    const std::string& root = sources_.root_file();
    const bool bounded =
        check_structure(*parsed, "", [&](const YAML::Mark& m, std::string message) {
          out_.push_back(Diagnostic{root, m.line + 1, m.column + 1, std::move(message)});
        });
    if (!bounded) return unreadable(before);
    return parsed;
  }

  // A part that cannot be read (a YAML or URDF error, a structure past the bounds): what it
  // reported since `before` is listed ahead of the errors that follow from its missing bodies
  // and joints (references to them elsewhere), which would otherwise come first in file order.
  std::nullopt_t unreadable(std::size_t before) {
    for (std::size_t k = before; k < out_.size(); ++k)
      if (!out_[k].warning) out_[k].first = true;
    return std::nullopt;
  }

  // NAME/ before every body, joint and manipulator name of the part and its references to
  // them; `world` stays. A node shared through an alias is renamed once.
  static void prefix(const YAML::Node& part, const std::string& name) {
    std::vector<YAML::Node> done;
    auto rename = [&](YAML::Node n) {
      if (!n.IsDefined() || !n.IsScalar() || n.Scalar() == kWorld) return;
      for (const auto& d : done)
        if (d.is(n)) return;
      done.push_back(n);
      std::string prefixed = name;
      prefixed += '/';
      prefixed += n.Scalar();
      n = prefixed;  // keeps the node's mark and tag
    };
    auto each = [&](const char* section, std::initializer_list<const char*> keys) {
      const YAML::Node list = child_of(part, section);
      if (!list.IsSequence()) return;
      for (const auto& item : list)
        for (const char* key : keys) rename(child_of(item, key));
    };
    each("bodies", {"name"});
    each("joints", {"name", "parent", "child"});
    each("manipulators", {"name", "base"});
    each("thrusters", {"name", "body"});
  }

  // Places the part's free root bodies; a part fixed to the world cannot be placed.
  void place(const YAML::Node& part, const Field& blame, const Placement& at) {
    const std::set<std::string> children = joint_children(part);
    const YAML::Node joints = child_of(part, "joints");
    if (joints.IsSequence()) {
      for (const auto& j : joints) {
        const YAML::Node parent = child_of(j, "parent");
        if (parent.IsScalar() && parent.Scalar() == kWorld) {
          reader_.error(blame, "the part is fixed to the world by joint '" +
                                   child_of(j, "name").as<std::string>("?") +
                                   "'; position and rpy place free-floating parts only");
          return;
        }
      }
    }
    const YAML::Node arms = child_of(part, "manipulators");
    if (arms.IsSequence()) {
      for (const auto& a : arms) {
        const YAML::Node base = child_of(a, "base");
        if (base.IsScalar() && base.Scalar() == kWorld) {
          reader_.error(blame, "the part's manipulator '" +
                                   child_of(a, "name").as<std::string>("?") +
                                   "' stands on the world; position and rpy place "
                                   "free-floating parts only");
          return;
        }
      }
    }
    const YAML::Node bodies = child_of(part, "bodies");
    if (!bodies.IsSequence()) return;
    for (const auto& b : bodies) {
      const YAML::Node name = child_of(b, "name");
      if (!b.IsMap() || (name.IsScalar() && children.count(name.Scalar()))) continue;
      if (const std::string why = place_body(b, at); !why.empty()) {
        reader_.error(blame, why);
        return;
      }
    }
  }

  // Appends the part's sections to those of `doc`, creating them where absent.
  void append(YAML::Node& doc, const YAML::Node& part) {
    for (const char* section : kSections) {
      const Field from = key_field(part, section, section);
      if (absent(from)) continue;
      const auto items = reader_.sequence(from);
      if (!items) continue;
      YAML::Node into = child_of(doc, section);
      if (!into.IsDefined() || into.IsNull()) {
        doc[section] = YAML::Node(YAML::NodeType::Sequence);
        into.reset(child_of(doc, section));
      }
      if (!into.IsSequence()) continue;  // the reader reports it
      for (const Field& i : *items) into.push_back(i.value);
    }
  }

  struct Text {
    std::string text;
    int first_line = 0;
  };

  SourceMap& sources_;
  const ShiftedParser& parse_;
  std::vector<Diagnostic>& out_;
  Reader reader_;
  std::map<std::string, Text> texts_;
  // The files being resolved, outermost first: canonical paths, and names for messages.
  std::vector<std::string> chain_;
  std::vector<std::string> shown_chain_;
  std::size_t shifted_bytes_ = 0;
  int count_ = 0;
};

}  // namespace

TableInfo include_info() { return include_table().describe; }

void resolve_includes(YAML::Node& root, SourceMap& sources, const ShiftedParser& parse,
                      std::vector<Diagnostic>& diagnostics) {
  Resolver resolver(sources, parse, diagnostics);
  resolver.resolve_root(root);
}

}  // namespace uwsim::scenario
