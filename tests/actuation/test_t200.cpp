// The T200 tables (actuation/t200.h) against Blue Robotics' sheets themselves
// (tests/data/t200/t200_<V>V.csv, every row), and the voltage choice: sheets, interpolation
// between them, and a voltage with no sheet refused (by the table and by the scenario reader).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "actuation/t200.h"
#include "scenario/load_scenario.h"
#include "support/scenario_errors.h"

using namespace uwsim;

namespace {

constexpr double kKgf = 9.80665;

// PWM (µs) → thrust (kgf), every row of one sheet.
std::map<int, double> sheet(int volts) {
  std::ifstream in(std::string(UWSIM_TEST_DATA_DIR) + "/t200/t200_" + std::to_string(volts) + "V.csv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);
  REQUIRE(line == "pwm_us,thrust_kgf");
  std::map<int, double> rows;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    int pwm = 0;
    char comma = 0;
    double kgf = 0.0;
    cells >> pwm >> comma >> kgf;
    rows[pwm] = kgf;
  }
  REQUIRE(rows.size() == 201);
  return rows;
}

}  // namespace

TEST_CASE("t200: every sheet's table follows every row of the sheet within 0.03 kgf, never decreasing") {
  for (int volts : {10, 12, 14, 16, 18, 20}) {
    CAPTURE(volts);
    const inputs::Table table = actuation::t200_thrust_table(volts);
    CHECK(table.x.front() == 1100.0);
    CHECK(table.x.back() == 1900.0);
    CHECK(std::is_sorted(table.y.begin(), table.y.end()));  // invertible by an allocation
    double worst = 0.0;
    for (const auto& [pwm, kgf] : sheet(volts)) worst = std::max(worst, std::abs(table.linear(pwm) / kKgf - kgf));
    CHECK(worst <= 0.03 + 1e-9);
    CHECK(worst > 0.0);  // a reduced table, not the sheet itself
    CHECK(table.x.size() >= 19);  // README: 19–34 breakpoints a sheet
    CHECK(table.x.size() <= 34);
    // Neutral gives no thrust: the dead band is kept.
    CHECK(table.linear(1500.0) == 0.0);
  }
  // Between its breakpoints a table is the straight line through them (16 V: 1700 → 1.82 kgf,
  // 1732 → 2.28 kgf, so 1716 µs is halfway).
  const inputs::Table t16 = actuation::t200_thrust_table(16.0);
  CHECK(t16.linear(1716.0) == doctest::Approx((1.82 + 2.28) / 2.0 * kKgf).epsilon(1e-12));
  // The ends of the 16 V sheet as the shipped part quotes them.
  CHECK(t16.linear(1100.0) == doctest::Approx(-4.07 * kKgf).epsilon(1e-12));
  CHECK(t16.linear(1900.0) == doctest::Approx(5.25 * kKgf).epsilon(1e-12));
}

TEST_CASE("t200: the sheets dip in five places, by at most 0.02 kgf (t200.h, tools/t200_tables.py)") {
  int dips = 0;
  double deepest = 0.0;
  for (int volts : {10, 12, 14, 16, 18, 20}) {
    double before = -1e9;
    for (const auto& [pwm, kgf] : sheet(volts)) {
      if (kgf < before) {
        ++dips;
        deepest = std::max(deepest, before - kgf);
      }
      before = kgf;
    }
  }
  CHECK(dips == 5);
  CHECK(deepest == doctest::Approx(0.02).epsilon(1e-9));
}

TEST_CASE("t200: a voltage between sheets blends its two neighbours linearly at every command") {
  const std::map<int, double> s14 = sheet(14), s16 = sheet(16);
  const inputs::Table t15 = actuation::t200_thrust_table(15.0), t14_5 = actuation::t200_thrust_table(14.5);
  const inputs::Table t14 = actuation::t200_thrust_table(14.0), t16 = actuation::t200_thrust_table(16.0);
  for (int pwm = 1100; pwm <= 1900; pwm += 4) {
    CAPTURE(pwm);
    // The definition, on the shipped tables ...
    CHECK(t15.linear(pwm) == doctest::Approx(0.5 * t14.linear(pwm) + 0.5 * t16.linear(pwm)).epsilon(1e-12));
    CHECK(t14_5.linear(pwm) == doctest::Approx(0.75 * t14.linear(pwm) + 0.25 * t16.linear(pwm)).epsilon(1e-12));
    // ... and against the sheets' rows: within the tables' own 0.03 kgf.
    CHECK(std::abs(t15.linear(pwm) / kKgf - 0.5 * (s14.at(pwm) + s16.at(pwm))) <= 0.03 + 1e-9);
  }
  // At full command, 15 V sits 0.37 kgf from either neighbouring sheet (t200.h).
  CHECK(t15.linear(1900) / kKgf - 4.52 == doctest::Approx(0.365).epsilon(0.03));
  CHECK(5.25 - t15.linear(1900) / kKgf == doctest::Approx(0.365).epsilon(0.03));
  CHECK(std::is_sorted(t15.y.begin(), t15.y.end()));
}

TEST_CASE("t200: the 14 and 18 V sheets blended reproduce the 16 V sheet within 0.16 kgf (t200.h)") {
  const std::map<int, double> s16 = sheet(16);
  const inputs::Table t14 = actuation::t200_thrust_table(14.0), t18 = actuation::t200_thrust_table(18.0);
  double worst = 0.0;
  for (const auto& [pwm, kgf] : s16) worst = std::max(worst, std::abs(0.5 * (t14.linear(pwm) + t18.linear(pwm)) / kKgf - kgf));
  CHECK(worst <= 0.16);
  CHECK(worst >= 0.10);  // the sentence's number is the measured one, not a loose bound
  CHECK(worst / 5.25 <= 0.03);
}

TEST_CASE("t200: a voltage with no sheet is refused, by the table and in a scenario") {
  CHECK_THROWS_AS(actuation::t200_thrust_table(9.9), std::invalid_argument);
  CHECK_THROWS_AS(actuation::t200_thrust_table(20.5), std::invalid_argument);
  CHECK_THROWS_AS(actuation::t200_thrust_table(std::nan("")), std::invalid_argument);
  CHECK_NOTHROW(actuation::t200_thrust_table(10.0));
  CHECK_NOTHROW(actuation::t200_thrust_table(20.0));

  const auto scenario_with = [](const std::string& thrust) {
    return "name: t200_voltage\nsimulation: {duration: 0.1}\n"
           "bodies:\n  - {name: rov, mass: 11.5, inertia: [0.16, 0.16, 0.16], volume: 0.0115}\n"
           "thrusters:\n  - {name: t, body: rov, input: 1700, model: table, " + thrust + "}\n";
  };
  const std::string path = std::filesystem::temp_directory_path() / "uwsim_t200_voltage.yaml";
  {
    std::ofstream(path) << scenario_with("t200: {voltage: 21}");
    const std::string text = test::all_text(test::diagnostics_of(path));
    CHECK(text.find("uwsim_t200_voltage.yaml:6:") != std::string::npos);
    CHECK(text.find("expected a supply voltage from 10 to 20 V") != std::string::npos);
    CHECK(text.find("got 21 V") != std::string::npos);
  }
  {
    std::ofstream(path) << scenario_with("t200: {voltage: 16}, table: {forward: [[1600, 1]]}");
    CHECK(test::all_text(test::diagnostics_of(path)).find("not both") != std::string::npos);
  }
  {
    std::ofstream(path) << scenario_with("t200: {voltage: 15}");
    const scenario::Scenario s = scenario::load_scenario(path);
    REQUIRE(s.thrusters.size() == 1);
    const inputs::Table& table = s.thrusters[0].thruster.thrust_table;
    CHECK(table.linear(1700.0) == doctest::Approx(actuation::t200_thrust_table(15.0).linear(1700.0)).epsilon(1e-15));
  }
  std::filesystem::remove(path);
}
