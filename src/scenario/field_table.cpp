#include "scenario/field_table.h"

#include <cmath>

#include "scenario/sections.h"

namespace uwsim::scenario {

std::string default_text(double x) {
  if (!std::isfinite(x)) return "";
  // JSON has no integer/float distinction; "0.0" keeps a float's look in the schema.
  std::string text = to_text(x);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string default_text(const Eigen::VectorXd& v) {
  if (!v.allFinite()) return "";
  std::string out = "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) out += (i ? ", " : "") + default_text(v[i]);
  return out + "]";
}

std::vector<std::string_view> check_exclusive(Reader& r, const Mapping& m, const Field& self,
                                              const TableInfo& info) {
  std::vector<std::string_view> skipped;
  for (const Exclusive& group : info.exclusive) {
    std::vector<Field> given;
    for (std::string_view key : group.keys)
      if (Field f = m.get(key); f.present()) given.push_back(f);
    if (given.size() < 2) continue;
    const Field* last = &given.front();
    for (const Field& f : given)
      if (after(f.key.Mark(), last->key.Mark())) last = &f;
    std::string message = self.path + ": give " + std::string(group.what) + " ";
    if (group.keys.size() == 2) {
      message += "either as '" + std::string(group.keys[0]) + "' or as '" + std::string(group.keys[1]) + "', not both";
    } else {
      message += "as one of ";
      for (std::size_t k = 0; k < group.keys.size(); ++k)
        message += (k == 0 ? "'" : k + 1 == group.keys.size() ? " or '" : ", '") + std::string(group.keys[k]) + "'";
      message += ", not several";
    }
    r.report(last->key.Mark(), last->path, message);
    skipped.insert(skipped.end(), group.keys.begin(), group.keys.end());
  }
  return skipped;
}

}  // namespace uwsim::scenario
