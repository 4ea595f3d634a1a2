// emit_yaml writes the common trees itself and leaves the rest to yaml-cpp's Emitter
// (scenario/yaml_emit.h); these tests hold its own text to yaml-cpp's, byte for byte, on every
// YAML file of the repository (as loaded and as resolved) and on trees built to sit on each
// edge of its rules.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "scenario/load_scenario.h"
#include "scenario/yaml_emit.h"
#include "support/scenario_errors.h"

namespace fs = std::filesystem;
using namespace uwsim::scenario;

namespace {

// True when the direct writer took the tree; then its text must be yaml-cpp's.
bool same_text_when_direct(const YAML::Node& root, const std::string& what) {
  const std::optional<std::string> direct = emit_yaml_directly(root);
  const std::string reference = emit_yaml_with_yaml_cpp(root);
  INFO(what);
  if (direct) CHECK(*direct == reference);
  CHECK(emit_yaml(root) == reference);
  return direct.has_value();
}

}  // namespace

TEST_CASE("emit_yaml: yaml-cpp's text, byte for byte, for every YAML file here and every shipped scenario resolved") {
  int files = 0, direct = 0;
  for (const fs::path& file : uwsim::test::repository_yaml_files()) {
    YAML::Node node;
    try {
      node = YAML::LoadFile(file.string());
    } catch (const YAML::Exception&) {
      continue;  // the malformed YAML cases
    }
    ++files;
    direct += same_text_when_direct(node, file.string());
  }
  REQUIRE(files > 100);
  // The direct writer is the common path: most files are written by it.
  CHECK(direct > files * 3 / 4);

  // The resolved scenarios (includes expanded, derived values added) read back the same.
  int resolved = 0;
  for (const auto& entry : fs::recursive_directory_iterator(UWSIM_SOURCE_DIR "/scenarios")) {
    if (entry.path().extension() != ".yaml" || uwsim::test::is_part_file(entry.path())) continue;
    Scenario s;
    try {
      s = load_scenario(entry.path().string(), uwsim::test::stand_in_overrides(entry.path()));
    } catch (const ScenarioError&) {
      continue;  // parts and the files that are not whole scenarios
    }
    ++resolved;
    const YAML::Node tree = YAML::Load(s.resolved_yaml);
    same_text_when_direct(tree, entry.path().string() + " (resolved)");
    CHECK(emit_yaml(tree) == s.resolved_yaml);
  }
  CHECK(resolved > 20);
}

TEST_CASE("emit_yaml: scalars and collections on each edge of the direct writer's rules") {
  // Every text a plain or quoted scalar, as a mapping's value, a key, a list item in a block
  // and an item of an inline list.
  const std::vector<std::string> texts = {
      "a", "rov", "1", "-1", "-1.5e-3", "+2", ".5", "-.5", "1e400", "0x1F", ".inf", "-", "--", "-x", "- x", "?", "?x",
      ":", "a:", "a:b", "a: b", "a :b", "a #b", "a#b", "#a", "a b", " a", "a ", "a  b", "null", "Null", "NULL", "~",
      "true", "yes", "no", "on", "a,b", "a, b", "[a]", "{a}", "a]", "'a'", "\"a\"", "a'b", "a\"b", "a\\b", "/a/b",
      "a/b", "@a", "`a", "%a", "&a", "*a", "!a", "|a", ">a", "a|b", "a>b", "a\tb", "a\nb", "é", "aé", "°C",
      "a\xC2\x85" "b", "", "_", "a_b", "...", "---", "a=b", "(a)", "a;b", "<a>", std::string(1001, 'x'),
  };
  int direct = 0, total = 0;
  for (const std::string& t : texts)
    for (const bool quoted : {false, true}) {
      YAML::Node scalar(t);
      if (quoted) scalar.SetTag("!");
      YAML::Node as_value, as_key, in_block, in_flow;
      as_value["key"] = scalar;
      as_value["other"] = 1;
      as_key[scalar] = 1;
      YAML::Node item;
      item["k"] = 1;
      in_block["list"].push_back(item);
      in_block["list"].push_back(scalar);
      in_flow["list"].push_back(1);
      in_flow["list"].push_back(scalar);
      for (const YAML::Node& tree : {as_value, as_key, in_block, in_flow}) {
        direct += same_text_when_direct(tree, (quoted ? "quoted '" : "plain '") + t + "'");
        ++total;
      }
    }
  // Both ways are exercised.
  CHECK(direct > total / 3);
  CHECK(direct < total);

  // Collections: nesting, empty ones, nulls, lists of lists, a list at the root.
  for (const char* text : {"a: 1\nb:\n  c: [1, 2]\n  d:\n    - x: 1\n      y: [a, b]\n      z:\n        - p: 1\n    - [1, 2]\n    - 3\n",
                           "a:\n  - - 1\n    - 2\n  - - 3\n", "a:\n  - - x: 1\n  - - y: 2\n", "a: {}\nb: []\nc:\nd: ~\n",
                           "e: [[1, 2], [3, 4]]\n", "- a: 1\n  b: 2\n- c: {x: 1}\n", "- 1\n- 2\n", "[1, 2]\n", "x\n",
                           "a: [1, ~]\n", "a: [1, []]\n", "a:\n  - {}\n  - b: 1\n", "a:\n  - b:\n      - c: [1]\n        d: 2\n"})
    same_text_when_direct(YAML::Load(text), text);
}
