// libFuzzer target for the whole scenario loader: YAML text → load_scenario_text (parse,
// includes, overrides, validation) → model::build_model. A ScenarioError is the expected
// answer to bad input; any other exception means the loader let something through.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "model/build_model.h"
#include "scenario/load_scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const uwsim::scenario::Scenario scenario =
        uwsim::scenario::load_scenario_text(text, "fuzz_input.yaml");
    const uwsim::dynamics::Model model = uwsim::model::build_model(scenario);
    (void)model;
  } catch (const uwsim::scenario::ScenarioError&) {
    // Rejected input: expected.
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_loader: unexpected exception: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "fuzz_loader: unexpected non-standard exception\n");
    std::abort();
  }
  return 0;
}
