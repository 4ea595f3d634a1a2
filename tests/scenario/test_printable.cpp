// Messages safe to print (scenario/printable.h): the user's text escaped and cut, and the name
// rule that refuses control and bidirectional control characters wherever a name is read.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "scenario/load_scenario.h"
#include "scenario/printable.h"
#include "support/scenario_errors.h"

namespace fs = std::filesystem;
using namespace uwsim::scenario;
using uwsim::test::all_text;
using uwsim::test::diagnostics_of;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("uwsim_test_printable_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << text;
  return (dir / name).string();
}

// Every control and every bidirectional control, as the escapes a terminal shows literally.
bool safe_to_print(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7F) return false;  // all_text ends each line
    if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9F) return false;  // C1
    if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80) {
      const auto d = static_cast<unsigned char>(text[i + 2]);
      if (d == 0x8E || d == 0x8F || (d >= 0xAA && d <= 0xAE)) return false;  // U+200E/F, U+202A–E
    }
    if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x81) {
      const auto d = static_cast<unsigned char>(text[i + 2]);
      if (d >= 0xA6 && d <= 0xA9) return false;  // U+2066–9
    }
  }
  return true;
}

}  // namespace

TEST_CASE("printable: controls, bidirectional controls and bytes that are not UTF-8 become escapes, and other text stays") {
  CHECK(printable("a\x1b[31mred\x1b[0m") == "a\\x1b[31mred\\x1b[0m");
  CHECK(printable("line\nnext\ttab\rback\x7f") == "line\\nnext\\ttab\\rback\\x7f");
  CHECK(printable("csi \xc2\x9b 2J") == "csi \\u009b 2J");  // U+009B, the one-character CSI
  CHECK(printable("ab\xe2\x80\xae" "cd\xe2\x81\xa6" "e\xe2\x80\x8f") == "ab\\u202ecd\\u2066e\\u200f");
  CHECK(printable("\xff\xfe" "a\x9b") == "\\xff\\xfea\\x9b");  // a lone 0x9B is the 8-bit CSI to some terminals
  CHECK(printable("m/s² — «ü» …") == "m/s² — «ü» …");
  CHECK(is_utf8("m/s² …"));
  CHECK_FALSE(is_utf8("\xc0\x80"));  // overlong
  CHECK(code_points("m/s²…") == 5);
}

TEST_CASE("printable: a quoted value is cut after 40 characters with an ellipsis, escapes counted as one") {
  CHECK(shown(std::string(40, 'a')) == std::string(40, 'a'));
  CHECK(shown(std::string(41, 'a')) == std::string(40, 'a') + "…");
  CHECK(shown(std::string(15 << 20, 'x')).size() == 40 + std::string("…").size());
  CHECK(shown(std::string(50, '\x1b')) == [] {
    std::string s;
    for (int k = 0; k < 40; ++k) s += "\\x1b";
    return s + "…";
  }());
  CHECK(shown("ä" + std::string(45, 'b'), 3) == "äbb…");  // characters, not bytes
  // format() escapes the file name and the message, and cuts a message that grew past the bound.
  const std::string line = format({"evil\x1b]0;title\x07.yaml", 3, 4, std::string(100'000, 'm') + "\x1b[2J", false});
  CHECK(safe_to_print(line));
  CHECK(line.starts_with("evil\\x1b]0;title\\x07.yaml:3:4: error: mmm"));
  CHECK(code_points(line) < kMaxMessageCharacters + 60);
  CHECK(line.ends_with("…"));
}

TEST_CASE("printable: names with a control or bidirectional control character are refused, at their line and column") {
  for (const char* bidi : {"\xe2\x80\x8e", "\xe2\x80\x8f", "\xe2\x80\xaa", "\xe2\x80\xab", "\xe2\x80\xac", "\xe2\x80\xad",
                           "\xe2\x80\xae", "\xe2\x81\xa6", "\xe2\x81\xa7", "\xe2\x81\xa8", "\xe2\x81\xa9"}) {
    CAPTURE(printable(bidi));
    const auto problem = name_character_problem(std::string("ro") + bidi + "v");
    REQUIRE(problem);
    CHECK(problem->starts_with("character 3 is U+2"));
    CHECK(problem->ends_with(", a bidirectional control (it reorders how text is shown)"));
  }
  CHECK(name_character_problem("bell\x07") == "character 5 is U+0007, a control character");
  CHECK(name_character_problem("ü\xc2\x85") == "character 2 is U+0085, a control character");
  CHECK_FALSE(name_character_problem("arm/link_ü-2.x"));
  CHECK_FALSE(name_character_problem("\xff"));  // not UTF-8: Reader::string says so first

  // In a scenario: a body, a channel and an include, each at its name. A body name reversed
  // by U+202E would show "rov" in a table while the file holds another name.
  write_temp("part.yaml", "bodies:\n  - {name: b, mass: 1.0, inertia: [1.0, 1.0, 1.0]}\n");
  const std::string path = write_temp("bidi.yaml",
                                      "name: bidi\nsimulation: {duration: 1.0}\n"
                                      "bodies:\n  - {name: \"vor\\u202e\", mass: 1.0, inertia: [1.0, 1.0, 1.0]}\n"
                                      "inputs:\n  - {name: \"c\\u2066h\", type: constant, value: 1.0, units: N}\n"
                                      "include:\n  - {file: part.yaml, name: \"p\\u200fart\"}\n");
  const auto diagnostics = diagnostics_of(path);
  const std::string text = all_text(diagnostics);
  INFO(text);
  CHECK(safe_to_print(text));
  CHECK(text.find("bidi.yaml:4:12: error: bodies[0].name: expected a name without control characters (it names a group in the "
                  "output file); character 4 is U+202E, a bidirectional control") != std::string::npos);
  CHECK(text.find("bidi.yaml:6:12: error: inputs[0].name: expected a name without control characters") != std::string::npos);
  CHECK(text.find("character 2 is U+2066") != std::string::npos);
  CHECK(text.find("bidi.yaml:8:29: error: include[0].name: expected a name without control characters (it names a group in "
                  "the output file); character 2 is U+200F, a bidirectional control") != std::string::npos);
}

TEST_CASE("printable: a CSV cell of 1 MiB with escape sequences is quoted escaped and cut") {
  write_temp("cells.csv", "time,pwm\n0.0,\x1b[2J" + std::string(1 << 20, '9') + "x\n");
  const std::string path = write_temp("cells.yaml",
                                      "name: cells\nsimulation: {duration: 0.5}\n"
                                      "inputs:\n  - {name: pwm, type: csv, file: cells.csv, column: pwm}\n"
                                      "bodies:\n  - {name: rov, mass: 11.5, inertia: [0.16, 0.16, 0.16], volume: 0.0115}\n");
  const std::string text = all_text(diagnostics_of(path));
  INFO(text.substr(0, 300));
  CHECK(safe_to_print(text));
  CHECK(text.find("cells.csv:2:5: error: column 'pwm': expected a number, got '\\x1b[2J999") != std::string::npos);
  CHECK(text.size() < 400);
}
