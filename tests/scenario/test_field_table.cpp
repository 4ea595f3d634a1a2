// The generic reader of a table (scenario/field_table.h) and the schema written from the same
// table (scenario/schema_tables.h), on a table made for the test.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "scenario/field_table.h"
#include "scenario/schema_tables.h"

using namespace uwsim::scenario;
using json = nlohmann::json;

namespace {

enum class Mode { slow, fast };

struct Toy {
  double mass = 2.5;
  Eigen::Vector3d offset = Eigen::Vector3d(1.0, 0.0, -1.0);
  Mode mode = Mode::fast;
  std::string label;
};

const Table<Toy>& toy_table() {
  static const auto table = make_table<Toy>(
      "A toy",
      {number("mass", &Toy::mass, Sign::positive, "kg", "Its mass").needed(),
       vector("offset", &Toy::offset, Sign::any, "m", "Where it sits"),
       choice("mode", &Toy::mode, {{"slow", Mode::slow}, {"fast", Mode::fast}}, "How it runs"),
       text("label", &Toy::label, "A label"),
       by_hand<Toy>("left", "Read by hand", R"({"type": "string"})"),
       by_hand<Toy>("right", "Read by hand", R"({"type": "string"})")},
      {{"the side", {"left", "right"}}});
  return table;
}

std::vector<Diagnostic> read(const std::string& text, Toy& toy) {
  static const OverrideMap none;
  Reader reader("toy.yaml", none);
  const YAML::Node root = YAML::Load(text);
  read_table(reader, Field{YAML::Node(YAML::NodeType::Undefined), root, "toy"}, toy_table(), toy);
  return reader.take_diagnostics();
}

}  // namespace

TEST_CASE("table: every row is read into its member, absent keys keep the struct's defaults") {
  Toy toy;
  CHECK(read("{mass: 4, mode: slow, label: x}", toy).empty());
  CHECK(toy.mass == 4.0);
  CHECK(toy.mode == Mode::slow);
  CHECK(toy.label == "x");
  CHECK(toy.offset == Eigen::Vector3d(1.0, 0.0, -1.0));
}

TEST_CASE("table: wrong values, unknown and missing keys and keys that exclude each other are reported") {
  Toy toy;
  const auto ds = read("{offset: [1, 2], mode: fst, left: a, right: b, labl: y}", toy);
  std::string all;
  for (const auto& d : ds) all += format(d) + "\n";
  CAPTURE(all);
  CHECK(all.find("toy: missing required key 'mass'") != std::string::npos);
  CHECK(all.find("toy.offset: expected a list of 3 numbers (m), got a list of 2 items") != std::string::npos);
  CHECK(all.find("toy.mode: expected one of 'slow', 'fast', got 'fst'; did you mean 'fast'?") != std::string::npos);
  CHECK(all.find("toy: unknown key 'labl', did you mean 'label'?") != std::string::npos);
  CHECK(all.find("toy: give the side either as 'left' or as 'right', not both") != std::string::npos);
  CHECK(ds.size() == 5);
  CHECK(toy.mass == 2.5);  // nothing is taken from a value that was reported
  CHECK(toy.mode == Mode::fast);
}

TEST_CASE("table schema: kinds, signs, units, enums, required keys, exclusions and the struct's defaults") {
  const json s = json::parse(table_schema(toy_table().describe));
  CHECK(s["type"] == "object");
  CHECK(s["additionalProperties"] == false);
  CHECK(s["description"] == "A toy.");
  CHECK(s["required"] == json::array({"mass"}));
  CHECK(s["not"] == json({{"required", {"left", "right"}}}));
  const json& p = s["properties"];
  CHECK(p["mass"]["type"] == "number");
  CHECK(p["mass"]["exclusiveMinimum"] == 0);
  CHECK(p["mass"]["description"] == "Its mass (kg).");
  CHECK(p["mass"]["default"] == 2.5);
  CHECK(p["offset"]["minItems"] == 3);
  CHECK(p["offset"]["maxItems"] == 3);
  CHECK(p["offset"]["default"] == json::array({1.0, 0.0, -1.0}));
  CHECK(p["mode"]["enum"] == json::array({"slow", "fast"}));
  CHECK(p["mode"]["default"] == "fast");
  CHECK(p["label"]["type"] == "string");
  CHECK(p["left"]["description"] == "Read by hand.");
}
