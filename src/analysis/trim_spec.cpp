#include "analysis/trim_spec.h"

#include <algorithm>

namespace uwsim::analysis {

const std::vector<std::string>& body_components() {
  static const std::vector<std::string> names = {"north", "east", "down", "roll", "pitch", "yaw",
                                                 "u",     "v",    "w",    "p",    "q",     "r"};
  return names;
}

const std::vector<std::string>& joint_components() {
  static const std::vector<std::string> names = {"position", "velocity"};
  return names;
}

namespace {

struct KindName {
  VariableKind kind;
  const char* prefix;
};
constexpr KindName kKinds[] = {{VariableKind::body, "bodies"},
                               {VariableKind::joint, "joints"},
                               {VariableKind::thruster, "thrusters"},
                               {VariableKind::input, "inputs"}};

const std::vector<std::string>& components_of(VariableKind kind) {
  static const std::vector<std::string> thruster = {"state"};
  switch (kind) {
    case VariableKind::body: return body_components();
    case VariableKind::joint: return joint_components();
    case VariableKind::thruster: return thruster;
    case VariableKind::input: break;
  }
  static const std::vector<std::string> none;
  return none;
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::string VariableRef::text() const {
  for (const KindName& k : kKinds)
    if (k.kind == kind) return std::string(k.prefix) + "." + item + (component.empty() ? "" : "." + component);
  return item;
}

std::optional<VariableRef> parse_variable(const std::string& text, std::string& why) {
  const std::size_t dot = text.find('.');
  const std::string prefix = text.substr(0, dot);
  const auto kind = std::find_if(std::begin(kKinds), std::end(kKinds),
                                 [&](const KindName& k) { return prefix == k.prefix; });
  if (dot == std::string::npos || kind == std::end(kKinds)) {
    why = "expected a variable 'bodies.<body>.<component>', 'joints.<joint>.position' or "
          "'.velocity', 'thrusters.<thruster>.state' or 'inputs.<channel>', got '" + text + "'";
    return std::nullopt;
  }
  VariableRef v;
  v.kind = kind->kind;
  const std::string rest = text.substr(dot + 1);
  if (v.kind == VariableKind::input) {
    v.item = rest;
  } else {
    const std::size_t last = rest.rfind('.');
    const std::vector<std::string>& components = components_of(v.kind);
    if (last == std::string::npos || last == 0) {
      why = "expected '" + text + ".<component>' with a component among " + listed(components);
      return std::nullopt;
    }
    v.item = rest.substr(0, last);
    v.component = rest.substr(last + 1);
    if (std::find(components.begin(), components.end(), v.component) == components.end()) {
      why = "unknown component '" + v.component + "' in '" + text + "'; " + prefix +
            " have " + listed(components);
      return std::nullopt;
    }
  }
  if (v.item.empty()) {
    why = "expected a name after '" + prefix + ".' in '" + text + "'";
    return std::nullopt;
  }
  return v;
}

}  // namespace uwsim::analysis
