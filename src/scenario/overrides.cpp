#include "scenario/overrides.h"

#include <algorithm>
#include <optional>
#include <set>

#include "scenario/yaml_reader.h"

namespace uwsim::scenario {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    std::size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end - begin));
    if (end == std::string::npos) return parts;
    begin = end + 1;
  }
}

bool is_index(const std::string& s) {
  return !s.empty() && s.size() < 10 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string keys_of(const YAML::Node& map) {
  std::string out;
  for (auto it = map.begin(); it != map.end(); ++it)
    if (it->first.IsScalar()) out += (out.empty() ? "" : ", ") + it->first.Scalar();
  return out.empty() ? "none" : out;
}

std::optional<std::string> item_name(const YAML::Node& item) {
  if (!item.IsMap()) return std::nullopt;
  for (auto it = item.begin(); it != item.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == "name" && it->second.IsScalar())
      return it->second.Scalar();
  return std::nullopt;
}

std::string names_of(const YAML::Node& seq) {
  std::string out;
  for (std::size_t i = 0; i < seq.size(); ++i)
    if (auto name = item_name(seq[i])) out += (out.empty() ? "" : ", ") + *name;
  return out.empty() ? "none" : out;
}

YAML::Node child_of(const YAML::Node& map, const std::string& key) {
  if (map.IsMap())
    for (auto it = map.begin(); it != map.end(); ++it)
      if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  return YAML::Node(YAML::NodeType::Undefined);
}

// The bodies and joints a manipulator expands to ("arm1/link2", "arm1/joint2") exist only
// after the overrides are applied; if `segment` of `bodies` or `joints` names one, say how
// to reach it through the manipulator.
std::string expansion_hint(const YAML::Node& root, const std::string& path,
                           const std::string& segment, const std::vector<std::string>& rest) {
  if (path != "bodies" && path != "joints") return "";
  const YAML::Node arms = child_of(root, "manipulators");
  if (!arms.IsSequence()) return "";
  for (std::size_t a = 0; a < arms.size(); ++a) {
    const auto arm = item_name(arms[a]);
    if (!arm || segment.compare(0, arm->size() + 1, *arm + "/") != 0) continue;
    const std::string part = segment.substr(arm->size() + 1);
    const YAML::Node links = child_of(arms[a], "links");
    if (!links.IsSequence()) continue;
    for (std::size_t k = 0; k < links.size(); ++k) {
      const auto link = item_name(links[k]);
      const std::string number = std::to_string(k + 1);
      std::string target;
      if (path == "bodies" && part == link.value_or("link" + number)) {
        target = "manipulators." + *arm + ".links." + link.value_or(std::to_string(k));
      } else if (path == "joints" &&
                 part == item_name(child_of(links[k], "joint")).value_or("joint" + number)) {
        target = "manipulators." + *arm + ".links." + link.value_or(std::to_string(k)) + ".joint";
      } else {
        continue;
      }
      for (const auto& s : rest) target += "." + s;
      return "; '" + segment + "' comes from manipulator '" + *arm +
             "' and is set there: --set " + target + "=...";
    }
  }
  return "";
}

std::string where(const std::string& path) {
  return path.empty() ? "the top level" : "'" + path + "'";
}

// Walks `segments` from `root` and replaces the node found (or adds the last key to an
// existing mapping, and on the way creates the mappings the format describes there,
// so an optional block the file leaves out is set like a leaf it leaves out). Returns the
// canonical path of the node set, or the reason it failed.
std::optional<std::string> assign(const YAML::Node& root, const std::vector<std::string>& segments,
                                  const YAML::Node& value, DocumentKind kind, std::string& failure) {
  YAML::Node node(root);
  std::string path;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& segment = segments[i];
    const bool last = i + 1 == segments.size();
    if (node.IsMap()) {
      std::optional<YAML::Node> child;
      for (auto it = node.begin(); it != node.end() && !child; ++it)
        if (it->first.IsScalar() && it->first.Scalar() == segment) child.emplace(it->second);
      if (last) {
        node[segment] = value;  // replaces the first such key, or adds it
        return join_path(path, segment);
      }
      if (!child && is_mapping_place(kind, join_path(path, segment))) {
        node[segment] = YAML::Node(YAML::NodeType::Map);
        for (auto it = node.begin(); it != node.end() && !child; ++it)
          if (it->first.IsScalar() && it->first.Scalar() == segment) child.emplace(it->second);
      }
      if (!child) {
        failure = "key '" + segment + "' not found in " + where(path) +
                  "; available keys: " + keys_of(node);
        return std::nullopt;
      }
      path = join_path(path, segment);
      node.reset(*child);
    } else if (node.IsSequence()) {
      std::optional<std::size_t> index;
      for (std::size_t k = 0; k < node.size() && !index; ++k)
        if (item_name(node[k]) == segment) index = k;
      if (!index && is_index(segment)) {
        std::size_t k = std::stoul(segment);
        if (k >= node.size()) {
          failure = "index " + segment + " out of range: " + where(path) + " has " +
                    std::to_string(node.size()) + " item(s)";
          return std::nullopt;
        }
        index = k;
      }
      if (!index) {
        failure = "no item named '" + segment + "' in " + where(path) +
                  "; available names: " + names_of(node) +
                  (node.size() ? " (or an index 0 to " + std::to_string(node.size() - 1) + ")"
                               : "") +
                  expansion_hint(root, path, segment,
                                 std::vector<std::string>(segments.begin() + i + 1,
                                                          segments.end()));
        return std::nullopt;
      }
      path = index_path(path, *index);
      YAML::Node item(node[*index]);
      if (last) {
        item = value;
        return path;
      }
      node.reset(item);
    } else {
      failure = "cannot select '" + segment + "': " + where(path) +
                " is a single value, not a mapping or a list";
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

bool is_mapping_place(DocumentKind kind, const std::string& path) {
  // The mappings below the top level and below list items that a file may leave out, with
  // indices written "[]".
  static const std::set<std::string> kPlaces = {
      "environment", "compliance", "simulation", "trim",
      "bodies[].initial", "bodies[].shape", "bodies[].shape.box", "bodies[].shape.cylinder",
      "bodies[].derived", "bodies[].visual[].box", "bodies[].visual[].cylinder",
      "bodies[].visual[].mesh", "bodies[].visual[].origin", "bodies[].visual[].sphere",
      "joints[].actuator", "joints[].dh", "joints[].initial", "joints[].limits", "joints[].mdh",
      "joints[].origin", "connectors[].relative_pose", "manipulators[].mount",
      "manipulators[].links[].derived", "manipulators[].links[].joint",
      "manipulators[].links[].joint.actuator", "manipulators[].links[].joint.dh",
      "manipulators[].links[].joint.initial", "manipulators[].links[].joint.limits",
      "manipulators[].links[].joint.mdh", "manipulators[].links[].shape",
      "manipulators[].links[].shape.box", "manipulators[].links[].shape.cylinder",
      "manipulators[].links[].visual[].box", "manipulators[].links[].visual[].cylinder",
      "manipulators[].links[].visual[].mesh", "manipulators[].links[].visual[].origin",
      "manipulators[].links[].visual[].sphere", "thrusters[].angles", "thrusters[].propeller",
      "thrusters[].propeller.shaft_speed", "thrusters[].propeller.shaft_speed.power_law",
      "thrusters[].t200", "thrusters[].table"};
  static const std::set<std::string> kPartSections = {"bodies", "joints", "manipulators", "thrusters"};
  std::string place;
  for (std::size_t i = 0; i < path.size(); ++i) {
    place += path[i];
    if (path[i] == '[') i = path.find(']', i) - 1;
  }
  if (kind == DocumentKind::part && !kPartSections.count(place.substr(0, place.find_first_of(".["))))
    return false;
  return kPlaces.count(place) > 0;
}

std::optional<std::string> set_path(const YAML::Node& root, const std::string& key,
                                    const YAML::Node& value, std::string& failure, DocumentKind kind) {
  const std::vector<std::string> segments = split(key, '.');
  if (std::any_of(segments.begin(), segments.end(), [](const auto& s) { return s.empty(); })) {
    failure = "malformed key path '" + key + "': empty segment";
    return std::nullopt;
  }
  return assign(root, segments, value, kind, failure);
}

OverrideMap apply_overrides(YAML::Node& root, const std::vector<std::string>& arguments,
                            std::vector<Diagnostic>& diagnostics) {
  OverrideMap applied;
  for (const std::string& argument : arguments) {
    bool failed = false;
    auto fail = [&](std::string message) {
      diagnostics.push_back(Diagnostic{"--set " + argument, 0, 0, std::move(message)});
      failed = true;
    };
    const std::size_t eq = argument.find('=');
    if (eq == std::string::npos) {
      fail("expected key.path=value, e.g. bodies.rov.mass=12");
      continue;
    }
    const std::string key = argument.substr(0, eq);
    const std::vector<std::string> segments = split(key, '.');
    if (std::any_of(segments.begin(), segments.end(), [](const auto& s) { return s.empty(); })) {
      fail("malformed key path '" + key + "': empty segment");
      continue;
    }
    YAML::Node value;
    try {
      value = YAML::Load(argument.substr(eq + 1));
    } catch (const YAML::ParserException& e) {
      fail("cannot parse the value as YAML: " + e.msg);
      continue;
    }
    check_structure(value, key, [&](const YAML::Mark&, std::string message) { fail(message); });
    if (failed) continue;

    std::string failure;
    std::optional<std::string> path = assign(root, segments, value, DocumentKind::scenario, failure);
    if (!path) {
      fail(failure);
      continue;
    }
    // A later argument that replaces a whole subtree owns everything below it.
    for (auto it = applied.begin(); it != applied.end();) {
      const std::string& p = it->first;
      bool below = p.compare(0, path->size(), *path) == 0 &&
                   (p.size() == path->size() || p[path->size()] == '.' || p[path->size()] == '[');
      it = below ? applied.erase(it) : std::next(it);
    }
    applied[*path] = argument;
  }
  return applied;
}

std::string set_path_of(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '[') out += '.';
    else if (c != ']') out += c;
  }
  return out;
}

}  // namespace uwsim::scenario
