// load_stored_scenario: a result file's stored scenario is data, not a program (issue 37). No
// file it names is opened: an include is refused at its key, a CSV channel reads as 0.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "scenario/load_scenario.h"
#include "support/scenario_errors.h"

namespace fs = std::filesystem;
using namespace uwsim::scenario;
using uwsim::test::all_text;

namespace {

const char* kBody = "name: stored\nsimulation: {duration: 1.0}\nbodies:\n  - {name: b, mass: 1.0, inertia: [1.0, 1.0, 1.0]}\n";

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("uwsim_stored_" + std::to_string(getpid()));
  Scratch() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
};

std::string errors_of_stored(const std::string& text) {
  try {
    load_stored_scenario(text, "stored");
  } catch (const ScenarioError& e) {
    return all_text(e.diagnostics());
  }
  return "";
}

}  // namespace

TEST_CASE("stored scenario: an include is refused at its key, and the file it names is not read") {
  Scratch s;
  const std::string secret = (s.dir / "secret.yaml").string();
  std::ofstream(secret) << "root:x:0:0:SECRET-LINE:/root:/bin/bash\n";
  const std::string text = std::string(kBody) + "include:\n  - {file: " + secret + ", name: p}\n";
  // Loaded as a scenario the user wrote, the part is read, and its content is quoted back.
  std::string as_program;
  try {
    load_scenario_text(text, "stored");
  } catch (const ScenarioError& e) {
    as_program = all_text(e.diagnostics());
  }
  CHECK(as_program.find("SECRET-LINE") != std::string::npos);
  // Stored: refused where the key is, naming it and nothing of the file.
  const std::string errors = errors_of_stored(text);
  CHECK(errors == "stored:5:1: error: include: not opened. A stored scenario is data: sim opens no file it names (a "
                  "resolved scenario has its parts in place and no include)\n");
  // A FIFO as the part would block or be refused if it were looked at: it is neither.
  const fs::path fifo = s.dir / "part.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  CHECK(errors_of_stored(std::string(kBody) + "include: [{file: " + fifo.string() + ", name: p}]\n").find("include: not opened") !=
        std::string::npos);
}

TEST_CASE("stored scenario: a CSV channel reads as 0 with a warning, and its file is not read") {
  Scratch s;
  const fs::path fifo = s.dir / "log.csv";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);  // read as a user's scenario, a FIFO is refused
  const std::string text = std::string(kBody) + "inputs:\n  - {name: c, type: csv, file: " + fifo.string() + ", column: x, units: N}\n";
  std::string as_program;
  try {
    load_scenario_text(text, "stored");
  } catch (const ScenarioError& e) {
    as_program = all_text(e.diagnostics());
  }
  CHECK(as_program.find("FIFO") != std::string::npos);
  const Scenario stored = load_stored_scenario(text, "stored");
  REQUIRE(stored.inputs.size() == 1);
  CHECK(stored.inputs[0].channel.name == "c");
  CHECK(stored.inputs[0].channel.kind == uwsim::inputs::ChannelKind::constant);
  CHECK(stored.inputs[0].channel.value == 0.0);
  CHECK(stored.inputs[0].channel.units == "N");
  REQUIRE(stored.warnings.size() == 1);
  CHECK(stored.warnings[0].find("stored:6:") == 0);
  CHECK(stored.warnings[0].find("not opened: the files a stored scenario names are not read; the channel reads as 0") !=
        std::string::npos);
  // Nothing but the stored text itself counts as read.
  for (const std::string& file : stored.input_files) CHECK(file == "stored");
}
