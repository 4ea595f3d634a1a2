// The one reader of result files (app/result_file.h) against files a hostile sender crafts
// (tests/support/crafted_hdf5.h): `sim describe` shows them without reading what it cannot
// trust, `sim compare` and `sim replay` refuse them with exit 2, naming the file and the
// dataset, and none of them reads another file or allocates by a claimed size.
//
// The end-to-end cases run the `sim` executable; UWSIM_TEST_SIM=/path/to/sim runs them against
// another build (how each was seen to fail on the code before these checks).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "app/result_file.h"
#include "app/series_files.h"
#include "support/crafted_hdf5.h"
#include "support/sim_process.h"

namespace fs = std::filesystem;
using uwsim::test::has;
using uwsim::test::CraftedFile;
using uwsim::test::Outcome;
using uwsim::test::run_sim;
using uwsim::test::ramp;

namespace {

// A small valid result: /time and one series x, both of n rows.
void small_result(const fs::path& path, std::size_t n = 5) {
  CraftedFile f(path.string());
  f.series("/time", ramp(n));
  f.series("/x", ramp(n, 1.0));
}

}  // namespace

TEST_CASE("result files: a 2 kB file whose /time claims 10^12 rows is refused by compare and replay and shown, unread, by describe") {
  const fs::path dir = uwsim::test::fresh_dir("claims");
  for (const bool compressed : {false, true}) {
    {
      CraftedFile f((dir / "huge.h5").string());
      f.claim("/time", 1'000'000'000'000ULL, compressed);
    }
    CAPTURE(compressed);
    CHECK(fs::file_size(dir / "huge.h5") < 4096);
    // Uncompressed, the claim is more than the file holds; compressed, more rows than sim reads.
    const std::string why = compressed ? "claims 1000000000000 rows; sim reads at most 4194304"
                                       : "claims 1000000000000 values (8000000000000 bytes), more than the whole file holds";
    Outcome r = run_sim("compare huge.h5 huge.h5", dir);
    CHECK(r.exit_code == 2);  // was: std::bad_alloc, exit 134
    CHECK(has(r.output, "huge.h5: error: /time: " + why));
    r = run_sim("replay -q huge.h5 -o huge.html", dir);
    CHECK(r.exit_code == 2);
    CHECK(has(r.output, "/time: " + why));
    CHECK_FALSE(fs::exists(dir / "huge.html"));
    r = run_sim("describe huge.h5", dir);
    CHECK(r.exit_code == 0);
    CHECK(has(r.output, "samples:    1000000000000, t = ? (" + why));
  }
}

TEST_CASE("result files: an external link is not followed — compare and replay refuse it, describe lists it") {
  const fs::path dir = uwsim::test::fresh_dir("external_link");
  small_result(dir / "other.h5");
  {
    CraftedFile f((dir / "linked.h5").string());
    f.external_link("/time", "other.h5", "/time");  // was followed: compare read other.h5's times
    f.series("/x", ramp(5, 1.0));
  }
  Outcome r = run_sim("compare linked.h5 linked.h5", dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.output, "linked.h5: error: /time: is an external link (to another file); sim reads nothing but the file it is given"));
  r = run_sim("replay -q linked.h5 -o linked.html", dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.output, "/time: is an external link"));
  r = run_sim("describe linked.h5", dir);
  CHECK(r.exit_code == 2);  // no /time of its own
  CHECK(has(r.output, "no /time dataset"));
  {
    CraftedFile f((dir / "elsewhere.h5").string());
    f.series("/time", ramp(5));
    f.external_link("/bodies/rov/position", "other.h5", "/x");
    f.soft_link("/y", "/time");
  }
  r = run_sim("describe elsewhere.h5", dir);
  CHECK(r.exit_code == 0);
  CHECK(has(r.output, "links, not followed (2): /bodies/rov/position (external link), /y (soft link)"));
  CHECK(run_sim("compare elsewhere.h5 elsewhere.h5", dir).exit_code == 2);
}

TEST_CASE("result files: a virtual dataset or one stored in another file is refused by compare, shown unread by describe") {
  const fs::path dir = uwsim::test::fresh_dir("virtual");
  small_result(dir / "source.h5");
  std::ofstream(dir / "raw.bin") << std::string(40, '\x11');
  {
    CraftedFile f((dir / "virtual.h5").string());
    f.series("/time", ramp(5));
    f.virtual_dataset("/x", 5, "source.h5", "/x");  // was read: compare compared source.h5's x
  }
  {
    CraftedFile f((dir / "stored.h5").string());
    f.series("/time", ramp(5));
    f.external_storage("/x", 5, "raw.bin");
  }
  Outcome r = run_sim("compare virtual.h5 virtual.h5", dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.output, "virtual.h5: error: /x: is a virtual dataset"));
  r = run_sim("compare stored.h5 stored.h5", dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.output, "stored.h5: error: /x: keeps its values in other files (external storage)"));
  CHECK(run_sim("replay -q virtual.h5 -o v.html", dir).exit_code == 2);
  r = run_sim("describe virtual.h5", dir);
  CHECK(r.exit_code == 0);
  CHECK(has(r.output, "/x     virtual"));
  CHECK(has(r.output, "(is a virtual dataset (values of other datasets, maybe of other files): not read)"));
  r = run_sim("describe stored.h5", dir);
  CHECK(r.exit_code == 0);
  CHECK(has(r.output, "(keeps its values in other files (external storage): not read)"));
}

TEST_CASE("result files: times that do not increase, or are NaN, are refused naming the sample") {
  const fs::path dir = uwsim::test::fresh_dir("bad_times");
  {
    CraftedFile f((dir / "back.h5").string());
    f.series("/time", {0.0, 0.2, 0.1, 0.3});  // was: heap corruption in compare
    f.series("/x", {1.0, 2.0, 3.0, 4.0});
  }
  {
    CraftedFile f((dir / "nan.h5").string());
    f.series("/time", {0.0, std::nan(""), 0.2, 0.3});  // was: NaN metrics, or a crash
    f.series("/x", {1.0, 2.0, 3.0, 4.0});
  }
  Outcome r = run_sim("compare back.h5 back.h5", dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.output, "back.h5: error: /time[2] = 0.1 s does not follow /time[1] = 0.2 s: times must increase"));
  r = run_sim("compare nan.h5 nan.h5", dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.output, "nan.h5: error: /time[1] is nan: times must be finite"));
  CHECK(run_sim("replay -q back.h5 -o b.html", dir).exit_code == 2);
  r = run_sim("describe back.h5", dir);
  CHECK(r.exit_code == 0);
  CHECK(has(r.output, "samples:    4, t = ? (/time[2] = 0.1 s does not follow /time[1] = 0.2 s: times must increase)"));
}

TEST_CASE("result files: a FIFO given as a result is refused at once, not waited on") {
  const fs::path dir = uwsim::test::fresh_dir("fifo_result");
  REQUIRE(mkfifo((dir / "pipe.h5").c_str(), 0600) == 0);
  small_result(dir / "good.h5");
  for (const char* command : {"compare good.h5 pipe.h5", "compare pipe.h5 good.h5", "describe pipe.h5", "replay -q pipe.h5 -o p.html"}) {
    CAPTURE(command);
    const Outcome r = run_sim(command, dir);
    CHECK(r.exit_code == 2);  // was: blocked until killed (124)
    CHECK(has(r.output, "pipe.h5"));
    CHECK(has(r.output, "is a FIFO (named pipe), not a file"));
  }
}

TEST_CASE("result files: series whose rows are not /time's are listed, and an error where they would be compared") {
  const fs::path dir = uwsim::test::fresh_dir("shapes");
  {
    CraftedFile f((dir / "a.h5").string());
    f.series("/time", ramp(4));
    f.series("/x", {1, 2, 3, 4});
    for (int k = 0; k < 19; ++k) f.series("/short/s" + std::to_string(k), {1, 2, 3});  // three rows, not four
    f.dataset("/table", 4, 3, std::vector<double>(12, 1.0));
  }
  // Compared with itself, 19 of the 21 series cannot be read: today's exit 0 compared x alone.
  Outcome r = run_sim("compare a.h5 a.h5", dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.output, "a.h5: error: cannot compare short/s0: A's short/s0 has 3 rows where /time has 4: not a series of this run"));
  CHECK(has(r.output, "cannot compare short/s18"));
  CHECK_FALSE(has(r.output, "series  units"));  // no report
  // Comparing only what can be read is fine, and says what was left.
  r = run_sim("compare a.h5 a.h5 --series x --series 'table/*'", dir);
  CHECK(r.exit_code == 0);
  CHECK(has(r.output, "note: A (a.h5) has datasets that are not series, none of them in B: short/s0 (has 3 rows"));
  CHECK(has(r.output, "table/2"));
  // In the reader: the list, with the reason.
  const uwsim::app::SeriesFile file = uwsim::app::open_series_file((dir / "a.h5").string());
  CHECK(file.unreadable.size() == 19);
  CHECK(file.series.size() == 4);  // x and the three columns of table
}

TEST_CASE("result files: sim replay reads the stored scenario's size before it parses it") {
  const fs::path dir = uwsim::test::fresh_dir("big_scenario");
  {
    CraftedFile f((dir / "big.h5").string());
    f.series("/time", ramp(3));
    f.dataset("/bodies/rov/position", 3, 3, std::vector<double>(9, 0.0));
    f.dataset("/bodies/rov/quaternion", 3, 4, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
    // 3 MB of one flow list: yaml-cpp takes seconds over it, and the old reader parsed it
    // before its 1 MiB check ("the text is larger than 1 MiB").
    std::string yaml = "name: big\nbodies: [";
    while (yaml.size() < (3u << 20)) yaml += "1, ";
    f.text("/", "scenario", yaml + "1]\n");
  }
  const Outcome r = run_sim("replay big.h5 -o big.html", dir);
  CHECK(r.exit_code == 0);
  CHECK(has(r.output, "the root attribute 'scenario' holds 3145"));
  CHECK(has(r.output, "bytes, more than a scenario may (1 MiB); not read"));
  CHECK(fs::exists(dir / "big.html"));
}

TEST_CASE("result files: replay keeps the page within its budget of numbers, says so, and shows the frames' own rows") {
  const fs::path dir = uwsim::test::fresh_dir("page_budget");
  const std::size_t bodies = 350, samples = 3001;
  {
    CraftedFile f((dir / "many.h5").string());
    f.series("/time", ramp(samples, 0.01));
    std::vector<double> position(samples * 3), quaternion(samples * 4, 0.0);
    for (std::size_t k = 0; k < samples; ++k) {
      position[3 * k] = 0.5 * static_cast<double>(k);  // exact in the page's 4 decimals
      quaternion[4 * k] = 1.0;
    }
    for (std::size_t b = 0; b < bodies; ++b) {
      f.dataset("/bodies/b" + std::to_string(b) + "/position", samples, 3, position, true);
      f.dataset("/bodies/b" + std::to_string(b) + "/quaternion", samples, 4, quaternion, true);
    }
  }
  // 1 + 7 · 350 numbers a frame: a page of 10^6 numbers holds 407 frames, not 3000 (nor 10^6).
  for (const char* frames : {"", " --frames 1e6"}) {
    const Outcome r = run_sim(std::string("replay many.h5 -o many.html") + frames, dir);
    CAPTURE(r.output);
    REQUIRE(r.exit_code == 0);  // --frames 1e6 was "not in range", and 1000000 gave a 395 MB page
    CHECK(has(r.output, "2451 numbers a frame (350 bodies drawn): a page holds at most 1000000 numbers, so 407 frames"));
    std::ifstream in(dir / "many.html");
    std::stringstream page;
    page << in.rdbuf();
    const std::string text = page.str();
    const std::size_t start = text.find("const DATA = ") + 13, end = text.find(";\nconst THREE_VERSION", start);
    const nlohmann::json data = nlohmann::json::parse(text.substr(start, end - start));
    const auto& time = data["time"];
    CHECK(time.size() <= 407);
    CHECK(time.size() > 300);
    CHECK(time.back().get<double>() == doctest::Approx(30.0));  // the last sample
    // Each frame's position is its own row: north = 0.5 · (row), row = time / 0.01.
    const auto& north = data["bodies"][bodies - 1]["position"];
    REQUIRE(north.size() == 3 * time.size());
    for (std::size_t f = 0; f < time.size(); ++f)
      CHECK(north[3 * f].get<double>() == doctest::Approx(0.5 * std::round(time[f].get<double>() / 0.01)));
    CHECK(text.size() < 15'000'000);
  }
}

TEST_CASE("result files: the reader refuses each hostile construct before reading, and reads a good file's series") {
  const fs::path dir = uwsim::test::fresh_dir("reader");
  small_result(dir / "good.h5", 6);
  uwsim::app::ResultFile good((dir / "good.h5").string(), uwsim::app::ResultFile::Checks::strict);
  CHECK(good.time() == ramp(6));
  REQUIRE(good.find("/x") != nullptr);
  CHECK(good.read(*good.find("/x")) == ramp(6, 1.0));
  CHECK(good.read_every(*good.find("/x"), 4) == std::vector<double>{0.0, 4.0, 5.0});  // rows 0, 4 and the last
  CHECK(good.read_every(*good.find("/x"), 5) == std::vector<double>{0.0, 5.0});
  {  // large enough to be read by strided selections rather than whole
    CraftedFile f((dir / "long.h5").string());
    f.series("/time", ramp(5001));
    std::vector<double> rows(5001 * 2);
    for (std::size_t k = 0; k < rows.size(); ++k) rows[k] = static_cast<double>(k);
    f.dataset("/v", 5001, 2, rows, true);
  }
  uwsim::app::ResultFile long_file((dir / "long.h5").string(), uwsim::app::ResultFile::Checks::strict);
  const std::vector<double> every = long_file.read_every(*long_file.find("/v"), 1000);
  CHECK(every == std::vector<double>{0, 1, 2000, 2001, 4000, 4001, 6000, 6001, 8000, 8001, 10000, 10001});
  const std::vector<double> odd = long_file.read_every(*long_file.find("/v"), 3000);
  CHECK(odd == std::vector<double>{0, 1, 6000, 6001, 10000, 10001});  // rows 0, 3000 and the last, 5000
  {
    CraftedFile f((dir / "label.h5").string());
    f.series("/time", ramp(2));
    f.series("/x", {1, 2});
    f.text("/x", "units", std::string(100'000, 'm'));
  }
  uwsim::app::ResultFile label((dir / "label.h5").string(), uwsim::app::ResultFile::Checks::strict);
  const uwsim::app::TextAttribute units = label.attribute("/x", "units", uwsim::app::kMaxLabelBytes);
  CHECK(units.state == uwsim::app::TextAttribute::State::too_long);
  CHECK(units.bytes == 100'000);
  CHECK_THROWS_WITH_AS(uwsim::app::ResultFile((dir / "nothing.h5").string(), uwsim::app::ResultFile::Checks::lenient),
                       doctest::Contains("no such file"), uwsim::app::ResultError);
}

TEST_CASE("result files: a series holding NaN or inf is an error where it would be compared, not a NaN metric") {
  const fs::path dir = uwsim::test::fresh_dir("nan_values");
  {
    CraftedFile f((dir / "a.h5").string());
    f.series("/time", ramp(4));
    f.series("/x", {1.0, std::nan(""), 3.0, 4.0});
    f.dataset("/v", 4, 2, {1, 2, 3, 4, 5, HUGE_VAL, 7, 8});
    f.series("/ok", {1, 2, 3, 4});
  }
  Outcome r = run_sim("compare a.h5 a.h5", dir);
  CHECK(r.exit_code == 2);  // was: exit 0, RMSE nan
  CHECK(has(r.output, "a.h5: error: series x: /x[1] is nan (at t = 0.1 s): values must be finite"));
  CHECK(has(r.output, "a.h5: error: series v/1: /v[2, 1] is inf (at t = 0.2 s): values must be finite"));
  CHECK(run_sim("compare a.h5 a.h5 --series ok", dir).exit_code == 0);
}

TEST_CASE("result files: compare reads at most 2^20 values of series from a file, and says how to choose fewer") {
  const fs::path dir = uwsim::test::fresh_dir("series_budget");
  const std::size_t n = 300'000;  // 8 series: 2.4 million values
  {
    CraftedFile f((dir / "a.h5").string());
    f.dataset("/time", n, 0, ramp(n, 0.01), true);
    std::vector<double> v(8 * n);
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<double>(k % 8) + 1e-6 * static_cast<double>(k / 8);
    f.dataset("/v", n, 8, v, true);
  }
  Outcome r = run_sim("compare a.h5 a.h5", dir);
  CHECK(r.exit_code == 2);
  CHECK(has(r.output, "a.h5: error: 8 series of 300000 samples: sim reads at most 1048576 values of series from one result file"));
  r = run_sim("compare a.h5 a.h5 --series v/0 --series v/1 --series v/2", dir);
  CHECK(r.exit_code == 0);  // 900 000 values
  // 2.4 million values: a dataset wider than 2^21 is read a column at a time, each its own.
  uwsim::app::SeriesFile file = uwsim::app::open_series_file((dir / "a.h5").string());
  const long column = file.index_of("v/5");
  REQUIRE(column >= 0);
  uwsim::app::load_series(file, {static_cast<std::size_t>(column)});
  const auto& values = file.series[static_cast<std::size_t>(column)].values;
  REQUIRE(values.size() == n);
  CHECK(values[0] == 5.0);
  CHECK(values[n - 1] == 5.0 + 1e-6 * static_cast<double>(n - 1));
  CHECK(file.series[static_cast<std::size_t>(column)].time.back() == doctest::Approx(0.01 * (n - 1)));
}

TEST_CASE("result files: replay draws a file's /visuals within half a page, refuses a body's beyond it, and gives the frames the rest") {
  // 350 bodies over 3001 samples (2451 numbers a frame, as above). b0's visuals are two mesh
  // rows, the second naming a vertex it lacks (left out); b1's are 600 015 numbers, more than
  // half a page (refused: drawn as its solid); b2's 390 015 fit, and take their share of the
  // page from the frames: (10^6 − 390 069) / 2451 = 248 frames, not the 407 without them.
  const fs::path dir = uwsim::test::fresh_dir("page_visuals");
  const std::size_t bodies = 350, samples = 3001;
  {
    CraftedFile f((dir / "visuals.h5").string());
    f.series("/time", ramp(samples, 0.01));
    std::vector<double> position(samples * 3, 0.0), quaternion(samples * 4, 0.0);
    for (std::size_t k = 0; k < samples; ++k) quaternion[4 * k] = 1.0;
    for (std::size_t b = 0; b < bodies; ++b) {
      f.dataset("/bodies/b" + std::to_string(b) + "/position", samples, 3, position, true);
      f.dataset("/bodies/b" + std::to_string(b) + "/quaternion", samples, 4, quaternion, true);
    }
    std::vector<double> mesh_row = {4, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, -1, 0, 0, 1};  // kind 4: a mesh
    std::vector<double> two_rows = mesh_row;
    two_rows.insert(two_rows.end(), mesh_row.begin(), mesh_row.end());
    f.dataset("/visuals/b0/shapes", 2, 15, two_rows);
    f.dataset("/visuals/b0/mesh0/vertices", 3, 3, {0, 0, 0, 1, 0, 0, 0, 1, 0});
    f.dataset("/visuals/b0/mesh0/triangles", 1, 3, {0, 1, 2});
    f.dataset("/visuals/b0/mesh1/vertices", 3, 3, {0, 0, 0, 1, 0, 0, 0, 1, 0});
    f.dataset("/visuals/b0/mesh1/triangles", 1, 3, {0, 1, 7});
    f.dataset("/visuals/b1/shapes", 1, 15, mesh_row);
    f.dataset("/visuals/b1/mesh0/vertices", 200000, 3, std::vector<double>(600000, 0.25), true);
    f.dataset("/visuals/b1/mesh0/triangles", 0, 3, {});
    f.dataset("/visuals/b2/shapes", 1, 15, mesh_row);
    f.dataset("/visuals/b2/mesh0/vertices", 100000, 3, std::vector<double>(300000, 0.5), true);
    std::vector<double> triangles(90000);
    for (std::size_t i = 0; i < triangles.size(); ++i) triangles[i] = static_cast<double>(i % 100000);
    f.dataset("/visuals/b2/mesh0/triangles", 30000, 3, triangles, true);
  }
  const Outcome r = run_sim("replay visuals.h5 -o visuals.html", dir);
  CAPTURE(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(has(r.output, "the visuals stored under /visuals/b1/ are 600015 numbers, more than the"));
  CHECK(has(r.output, "body 'b1' is drawn as its solid"));
  CHECK(has(r.output, "a page holds at most 1000000 numbers, so 248 frames, not the 3000 asked for (--frames); the bodies' visuals take 390069"));
  std::ifstream in(dir / "visuals.html");
  std::stringstream page;
  page << in.rdbuf();
  const std::string text = page.str();
  const std::size_t start = text.find("const DATA = ") + 13, end = text.find(";\nconst THREE_VERSION", start);
  const nlohmann::json data = nlohmann::json::parse(text.substr(start, end - start));
  CHECK(data["time"].size() <= 248);
  CHECK(data["time"].size() > 200);
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& body : data["bodies"]) by_name[body["name"].get<std::string>()] = body;
  REQUIRE(by_name.size() == bodies);
  const auto& b0 = by_name["b0"]["visuals"];
  CHECK(b0["shapes"].size() == 30);
  CHECK(b0["meshes"].contains("0"));
  CHECK(b0["meshes"]["0"]["triangles"] == nlohmann::json::array({0, 1, 2}));
  CHECK_FALSE(b0["meshes"].contains("1"));  // its triangle names vertex 7 of 3
  CHECK(by_name["b1"]["visuals"].is_null());
  CHECK(by_name["b2"]["visuals"]["meshes"]["0"]["vertices"].size() == 300000);
  CHECK(by_name["b3"]["visuals"].is_null());  // none stored
}
