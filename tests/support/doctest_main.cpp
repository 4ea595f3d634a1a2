// The unit tests' main: doctest's own, plus one check that ctest needs. ctest registers each
// TEST_CASE by name and runs `unit_tests --test-case=<name>`; a name that ctest mangles (it
// splits names at ';') would match no test case, and doctest exits 0 for an empty run, so the
// case would silently never run. Here a run filtered by --test-case that selects no test case
// fails instead.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string_view>

namespace {

int g_cases_selected = -1;  // test cases that passed the filters; −1: no test run happened

struct SelectedCaseCounter : doctest::IReporter {
  explicit SelectedCaseCounter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    g_cases_selected = static_cast<int>(stats.numTestCasesPassingFilters);
  }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

}  // namespace

DOCTEST_REGISTER_LISTENER("selected_case_counter", 1, SelectedCaseCounter);

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return result;
  bool filtered_by_name = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    filtered_by_name = filtered_by_name || arg.starts_with("--test-case=") || arg.starts_with("-tc=");
  }
  if (filtered_by_name && g_cases_selected == 0) {
    std::fprintf(stderr, "unit_tests: no test case matches the --test-case filter (a name ctest cut at ';'?)\n");
    return 1;
  }
  return result;
}
