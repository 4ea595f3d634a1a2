// The one rule for names (scenario/sections.h, name_problem): a body's, a joint's and an
// include's name are refused for the same reasons, in the same words; the scenario's own name,
// which names the output file, has its own.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scenario/sections.h"
#include "support/scenario_errors.h"

namespace fs = std::filesystem;
using namespace uwsim::scenario;

namespace {

const std::string kPart = std::string(UWSIM_TEST_DATA_DIR) + "/malformed/parts/small_box.yaml";

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "uwsim_test_names";
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// YAML double-quoted: the control characters as escapes.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '\t' ? std::string("\\t") : c == '\x7f' ? std::string("\\x7f") : std::string(1, c);
  return out + "\"";
}

std::string head(const std::string& scenario_name = "names") {
  return "name: " + scenario_name + "\nsimulation:\n  duration: 1.0\n";
}

std::string with_body(const std::string& name) {
  return head() + "bodies:\n  - name: " + quoted(name) + "\n    mass: 1.0\n    inertia: [0.01, 0.01, 0.01]\n";
}

std::string with_joint(const std::string& name) {
  return head() +
         "bodies:\n  - name: a\n    mass: 1.0\n    inertia: [0.01, 0.01, 0.01]\n"
         "  - name: b\n    mass: 1.0\n    inertia: [0.01, 0.01, 0.01]\n"
         "joints:\n  - name: " + quoted(name) + "\n    type: revolute\n    parent: a\n    child: b\n";
}

std::string with_include(const std::string& name) {
  return head() + "include:\n  - file: " + kPart + "\n    name: " + quoted(name) + "\n";
}

}  // namespace

TEST_CASE("names: bodies, joints and include prefixes are refused for the same reasons, in the same words") {
  const std::vector<std::string> bad = {"", "arm\tlink", "del\x7f", "/rov", "rov/", "a//b", ".", "..", "arm/./x", "../up", "ro\u202ev"};
  for (const std::string& name : bad) {
    CAPTURE(name);
    const std::string why = name_problem(name);
    REQUIRE(!why.empty());
    for (const auto& [kind, text] : {std::pair{"body", with_body(name)}, std::pair{"joint", with_joint(name)},
                                     std::pair{"include", with_include(name)}}) {
      CAPTURE(kind);
      const std::string errors = uwsim::test::all_text(uwsim::test::diagnostics_of(write_temp(std::string(kind) + ".yaml", text)));
      CHECK(errors.find(why) != std::string::npos);
    }
  }
  // And what nests groups is allowed in all three: a '/' inside the name.
  CHECK(name_problem("arm/link1").empty());
  CHECK_NOTHROW(load_scenario(write_temp("good_body.yaml", with_body("arm/link1"))));
  CHECK_NOTHROW(load_scenario(write_temp("good_include.yaml", with_include("left/arm"))));
}

TEST_CASE("names: the scenario's name names the output file — letters, digits, '_', '.' and '-' only") {
  CHECK(name_problem("my_run-2.b", NameUse::file_name).empty());
  for (const std::string name : {"", "my run", "a/b", "é"}) {
    CAPTURE(name);
    const std::string why = name_problem(name, NameUse::file_name);
    CHECK(why.find("letters, digits, '_', '.' and '-'") != std::string::npos);
    const std::string text = head(quoted(name)) + "bodies:\n  - name: a\n    mass: 1.0\n    inertia: [0.01, 0.01, 0.01]\n";
    CHECK(uwsim::test::all_text(uwsim::test::diagnostics_of(write_temp("scenario_name.yaml", text))).find(why) != std::string::npos);
  }
}
