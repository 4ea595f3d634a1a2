// sim — underwater multibody simulator, command-line entry point.
#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/compare_command.h"
#include "app/describe_command.h"
#include "app/exit_codes.h"
#include "app/identify_command.h"
#include "app/identify_vehicle_command.h"
#include "app/linearize_command.h"
#include "app/number_option.h"
#include "app/replay_command.h"
#include "app/run_command.h"
#include "app/trim_command.h"
#include "app/validate_command.h"
#include "scenario/yaml_reader.h"
#include "scenario/printable.h"
#include "version.h"

namespace {

std::string join_command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.find_first_of(" \t'\"") != std::string::npos) arg = "'" + arg + "'";
    line += (i ? " " : "") + arg;
  }
  return line;
}

// Every option naming a file to write: "" is no file (it ran a whole simulation, then failed
// with exit 5 and left ./.partial), refused before any work.
const CLI::Validator kOutputName(
    [](std::string& name) { return name.empty() ? std::string("an empty name is no file; give a file name") : std::string(); },
    "FILE");

// Parses a subcommand's own options; returns the exit code to leave with, or −1 to go on.
int parse(CLI::App& cli, std::vector<char*>& args) {
  try {
    cli.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::ParseError& e) {
    return cli.exit(e) == 0 ? uwsim::app::kDone : uwsim::app::kBadInput;
  }
  return -1;
}

void use_logger(bool quiet, bool verbose);

int validate_main(std::vector<char*> args) {
  CLI::App cli{"sim validate — check scenario files completely without running them.\n"
               "Usage: sim validate FILE... [--set key.path=value]..."};
  std::vector<std::string> files, overrides;
  bool quiet = false;
  cli.add_option("files", files, "scenario files (YAML)")->required();
  cli.add_option("--set", overrides, "override a value before checking, as for sim run (repeatable)")
      ->allow_extra_args(false);
  cli.add_flag("-q,--quiet", quiet, "print errors only");
  if (const int code = parse(cli, args); code >= 0) return code;
  use_logger(quiet, false);
  return uwsim::app::validate_scenarios(files, overrides, quiet);
}

int describe_main(std::vector<char*> args) {
  CLI::App cli{"sim describe — what a result file holds: scenario, status, groups, datasets.\n"
               "Usage: sim describe FILE.h5"};
  std::string file;
  cli.add_option("file", file, "result file (HDF5)")->required();
  if (const int code = parse(cli, args); code >= 0) return code;
  return uwsim::app::describe_result(file, stdout);
}

int compare_main(std::vector<char*> args, const std::string& command_line) {
  CLI::App cli{"sim compare — how far a run is from another run or from measurements, series by series:\n"
               "RMSE, max and mean error, Pearson R, dynamic-time-warping distance, optionally the time shift.\n"
               "Usage: sim compare A.h5 B.(h5|csv) [options]"};
  uwsim::app::CompareOptions o;
  double window = 0.0, from = 0.0, to = 0.0;
  cli.add_option("a", o.a, "result file (HDF5); its sample times are the comparison's")->required();
  cli.add_option("b", o.b, "result file or CSV of measurements (a time column and named columns)")->required();
  cli.add_option("--map", o.maps, "compare A's series A_NAME with B's B_NAME (repeatable), e.g. bodies/rov/position/north=x");
  cli.add_option("--map-file", o.map_file, "a file of `A_NAME = B_NAME` lines, each as a --map ('#' comments)");
  cli.add_option("--series", o.series, "compare only A's series matching this name, paired by name or by a map "
                                       "('*' matches anything; repeatable)");
  auto* from_opt = cli.add_option("--from", from, "compare only A's samples from this time on (s)")->check(uwsim::app::any_finite("seconds"));
  auto* to_opt = cli.add_option("--to", to, "compare only A's samples up to this time (s)")->check(uwsim::app::any_finite("seconds"));
  cli.add_option("--time-column", o.time_column, "B as CSV: the time column (s, or in its header's unit: ms, min, h)")->capture_default_str();
  cli.add_option("--units", o.units_file, "B as CSV: a file of `column: unit` lines");
  cli.add_flag("--in-a-units", o.in_a_units, "B as CSV: its columns without a unit are in A's units (taken so, without the warning)");
  auto* dtw = cli.add_option("--dtw-window", window, "DTW window in seconds (default: 10 % of the compared span)")
                  ->check(uwsim::app::non_negative("seconds"));
  cli.add_option("--max-shift", o.max_shift, "search the time shift of B within ±SECONDS that minimises RMSE")
      ->check(uwsim::app::non_negative("seconds"));
  cli.add_option("--format", o.format, "table, csv or json")->check(CLI::IsMember({"table", "csv", "json"}))->capture_default_str();
  cli.add_option("-o,--output", o.output, "write the report to FILE instead of standard output")->check(kOutputName);
  cli.add_option("--plot", o.plot_dir, "write one SVG figure per series into DIR (A and B over time, and B − A)")->check(kOutputName);
  if (const int code = parse(cli, args); code >= 0) return code;
  if (!dtw->empty()) o.dtw_window = window;
  if (!from_opt->empty()) o.from = from;
  if (!to_opt->empty()) o.to = to;
  o.command_line = command_line;
  return uwsim::app::compare_files(o);
}

int identify_main(std::vector<char*> args, const std::string& command_line) {
  if (std::find_if(args.begin(), args.end(), [](const char* a) { return std::string(a) == "--vehicle"; }) != args.end())
    return uwsim::app::identify_vehicle_main(args, command_line);
  CLI::App cli{"sim identify — dynamic parameters from measurements.\n"
               "Usage: sim identify SCENARIO.yaml DATA.(h5|csv) [--validate DATA] [options]\n"
               "         base parameters of the scenario's arm from joint positions and motor currents (or efforts)\n"
               "       sim identify [SCENARIO.yaml] --drag DATA.csv --speed COLUMN --force COLUMN [--variance COLUMN]\n"
               "                    [--body NAME --axis u|v|w|p|q|r --write-part FILE.yaml]\n"
               "         quadratic + linear damping f = c1|u|u + c2 u from towing-tank data, each point weighted by 1/P\n"
               "         with --variance (P its variance: paper 000 eq. 36-37); the scenario's part with them on one axis"};
  uwsim::app::IdentifyOptions o;
  double from = 0.0, to = 0.0;
  cli.add_option("scenario", o.scenario, "scenario file (YAML) with the arm: kinematics, motors, levers (with --drag: the one "
                                       "--write-part writes, with the fitted axis)");
  cli.add_option("data", o.data, "identification record: result file or CSV (joints/<joint>/position, …/current or …/effort)");
  cli.add_option("--validate", o.validation, "validation record: RMSE of the predicted currents on it (default: on DATA)");
  cli.add_option("--set", o.overrides, "override a scenario value, as for sim run (repeatable)")->allow_extra_args(false);
  cli.add_option("--column", o.columns, "where a series is in a CSV: joints/<joint>/position=COLUMN (repeatable)");
  cli.add_option("--time-column", o.time_column, "CSV: the time column (s, or in its header's unit: ms, min, h)")->capture_default_str();
  auto* from_opt = cli.add_option("--from", from, "use samples from this time on (s), in DATA and in the validation record")
                       ->check(uwsim::app::any_finite("seconds"));
  auto* to_opt = cli.add_option("--to", to, "use samples up to this time (s)")->check(uwsim::app::any_finite("seconds"));
  cli.add_option("--filter-order", o.filter_order, "order of the Butterworth low-pass on positions")
      ->check(uwsim::app::number_in({.low = 1, .high = 16, .integer = true}))->capture_default_str();
  cli.add_option("--cutoff", o.cutoff, "its cutoff in Hz (default: a twentieth of the sample rate, paper 003's normalised 0.1)")
      ->check(uwsim::app::positive("Hz"));
  cli.add_option("--min-speed", o.min_speed, "leave a joint's rows out of the fit while it moves slower than this (rad/s or m/s)")
      ->check(uwsim::app::non_negative())->capture_default_str();
  cli.add_option("--seed", o.seed, "seed of the random states that find the base parameters")
      ->check(uwsim::app::number_in({.low = 0, .high = 4294967295.0, .integer = true}))->capture_default_str();
  cli.add_option("--format", o.format, "table or json")->check(CLI::IsMember({"table", "json"}))->capture_default_str();
  cli.add_option("-o,--output", o.output, "write the report to FILE instead of standard output")->check(kOutputName);
  cli.add_option("--predictions", o.predictions, "write measured and predicted currents on the validation record to FILE.csv")
      ->check(kOutputName);
  cli.add_option("--write-part", o.write_part, "write the identified parameters as a scenario part FILE.yaml")->check(kOutputName);
  cli.add_option("--drag", o.drag, "towing-tank CSV: fit f = c1|u|u + c2 u instead");
  cli.add_option("--speed", o.speed, "--drag: the speed column (m/s or rad/s)");
  cli.add_option("--force", o.force, "--drag: the force column (N or N m)");
  cli.add_option("--variance", o.variance, "--drag: a column of each point's variance P (> 0; e.g. of the forces averaged into it): "
                                           "the fit weights each point by 1/P, as paper 000 eq. 36-37 fuse runs, and the standard "
                                           "deviations take P as the noise");
  cli.add_option("--body", o.body, "--drag --write-part: the scenario's body that takes c1 and c2 (its name as sim describe lists it)");
  cli.add_option("--axis", o.axis, "--drag --write-part: the axis they are of: u v w (N against m/s) or p q r (N m against rad/s)")
      ->check(CLI::IsMember({"u", "v", "w", "p", "q", "r"}));
  if (const int code = parse(cli, args); code >= 0) return code;
  if (!from_opt->empty()) o.from = from;
  if (!to_opt->empty()) o.to = to;
  o.command_line = command_line;
  const bool drag = !o.drag.empty();
  if (drag && (o.speed.empty() || o.force.empty())) return std::fprintf(stderr, "sim identify: --drag needs --speed and --force\n"), uwsim::app::kBadInput;
  if (!drag && (o.scenario.empty() || o.data.empty()))
    return std::fprintf(stderr, "sim identify: expected SCENARIO.yaml DATA (or --drag); see sim identify --help\n"), uwsim::app::kBadInput;
  return uwsim::app::identify(o);
}

int replay_main(std::vector<char*> args, const std::string& command_line) {
  CLI::App cli{"sim replay — the run in 3D: one self-contained HTML page that opens offline in a browser.\n"
               "Usage: sim replay RESULT.h5 [-o FILE.html] [--frames N]"};
  uwsim::app::ReplayOptions o;
  bool quiet = false;
  double frames = o.frames;  // read as a number, so that 1e6 is 1000000
  cli.add_option("result", o.input, "result file (HDF5)")->required();
  cli.add_option("-o,--output", o.output, "the page to write (default: the result file with .html)")->check(kOutputName);
  cli.add_option("--frames", frames, "frame budget: longer runs show every k-th sample to stay within it (and within a page's "
                                     "million numbers)")
      ->check(uwsim::app::number_in({.low = 2, .high = 1e6, .integer = true}))->capture_default_str();
  cli.add_flag("-q,--quiet", quiet, "print errors only");
  if (const int code = parse(cli, args); code >= 0) return code;
  o.frames = static_cast<int>(frames);
  use_logger(quiet, false);
  o.command_line = command_line;
  return uwsim::app::replay_result(o);
}

// %* : the message with the user's text in it escaped and its length bounded
// (scenario/printable.h): file names, names and values reach the terminal as text.
class PrintableMessage : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& message, const std::tm&, spdlog::memory_buf_t& out) override {
    const std::string text = uwsim::scenario::shown(std::string_view(message.payload.data(), message.payload.size()),
                                                    uwsim::scenario::kMaxMessageCharacters);
    out.append(text.data(), text.data() + text.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<PrintableMessage>(); }
};

void use_logger(bool quiet, bool verbose) {
  auto logger = spdlog::stderr_color_st("sim");
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<PrintableMessage>('*').set_pattern("%^%l%$: %*");
  logger->set_formatter(std::move(formatter));
  spdlog::set_default_logger(logger);
  spdlog::set_level(quiet ? spdlog::level::err : verbose ? spdlog::level::debug : spdlog::level::info);
}

// The options trim and linearize share: overrides and the trim problem's lists.
void add_trim_options(CLI::App& cli, std::vector<std::string>& overrides, std::vector<std::string>& unknowns,
                      std::vector<std::string>& steady) {
  cli.add_option("--set", overrides, "override a scenario value, as for sim run (repeatable)")->allow_extra_args(false);
  cli.add_option("--unknown", unknowns, "a trim unknown, e.g. bodies.rov.pitch (repeatable; replaces trim.unknowns)")
      ->allow_extra_args(false);
  cli.add_option("--steady", steady, "a variable whose rate must vanish (repeatable; replaces trim.steady)")
      ->allow_extra_args(false);
}

int trim_main(std::vector<char*> args, const std::string& command_line) {
  CLI::App cli{"sim trim — find an equilibrium: the unknowns at which the steady rates vanish.\n"
               "Usage: sim trim SCENARIO.yaml [--unknown NAME]... [--steady NAME]... [-o TRIMMED.yaml]"};
  uwsim::app::TrimOptions options;
  bool verbose = false;
  cli.add_option("scenario", options.scenario_path, "scenario file (YAML)")->required();
  add_trim_options(cli, options.overrides, options.unknowns, options.steady);
  auto* output = cli.add_option("-o,--output", "write the scenario with the equilibrium as its initial state (a new file)")
                     ->check(kOutputName);
  auto* json = cli.add_option("--json", "write the solution and residual as JSON")->check(kOutputName);
  cli.add_option("--tolerance", options.tolerance, "largest rate accepted as zero, SI units (default 1e-9)")
      ->check(uwsim::app::positive());
  cli.add_flag("-q,--quiet", options.quiet, "print errors only");
  cli.add_flag("-v,--verbose", verbose, "print debugging details");
  if (const int code = parse(cli, args); code >= 0) return code;
  use_logger(options.quiet, verbose);
  if (!output->empty()) options.scenario_output = output->as<std::string>();
  if (!json->empty()) options.json_output = json->as<std::string>();
  options.command_line = command_line;
  return uwsim::app::trim_scenario(options);
}

int linearize_main(std::vector<char*> args, const std::string& command_line) {
  CLI::App cli{"sim linearize — the linear model ż = A z + B δu and its modes at an operating point.\n"
               "Usage: sim linearize SCENARIO.yaml [--at TIME | --trim] [--inside-limits] [-o FILE.h5]"};
  uwsim::app::LinearizeOptions options;
  bool verbose = false;
  double at = 0.0;
  cli.add_option("scenario", options.scenario_path, "scenario file (YAML)")->required();
  auto* at_opt = cli.add_option("--at", at, "simulate to TIME (s) and linearise there (default: the initial state)")
                     ->check(uwsim::app::non_negative("seconds"));
  auto* trim_opt = cli.add_flag("--trim", options.trim, "solve the scenario's trim problem and linearise at its solution");
  at_opt->excludes(trim_opt);
  add_trim_options(cli, options.overrides, options.unknowns, options.steady);
  auto* output = cli.add_option("-o,--output", "result file (HDF5; a .json beside it); default results/<name>_linear.h5")
                     ->check(kOutputName);
  cli.add_option("--fd-step", options.relative_step, "finite-difference step per unit of each state's scale (default 1e-5)")
      ->check(uwsim::app::number_in({.low = 0.0, .high = 0.1, .low_open = true}));
  cli.add_flag("--inside-limits", options.inside_limits,
               "move joints at or beyond a position limit 100 finite-difference steps inside their range first "
               "(1e-3 rad or m by default), so that the stops' springs stay off");
  cli.add_flag("-q,--quiet", options.quiet, "print errors only");
  cli.add_flag("-v,--verbose", verbose, "print debugging details");
  if (const int code = parse(cli, args); code >= 0) return code;
  use_logger(options.quiet, verbose);
  if (!at_opt->empty()) options.at_time = at;
  if (!output->empty()) options.output_path = output->as<std::string>();
  options.command_line = command_line;
  return uwsim::app::linearize_scenario(options);
}

const std::vector<std::string> kSubcommands = {"run",      "validate", "describe", "replay",
                                               "compare",  "identify", "trim",     "linearize"};

// `sim valdate x.yaml` would be read as a run of the scenario "valdate" and fail with "x.yaml:
// argument not expected". A first argument that is no subcommand, no option and no file, and
// is spelled like a subcommand, is answered with that subcommand; anything that exists as a file
// (`sim scenario.yaml`, or a scenario that happens to be called "valdate") still runs.
bool mistyped_subcommand(const std::string& first) {
  if (first.empty() || first[0] == '-' || first.find('/') != std::string::npos) return false;
  if (std::find(kSubcommands.begin(), kSubcommands.end(), first) != kSubcommands.end()) return false;
  std::error_code ec;
  if (std::filesystem::exists(first, ec)) return false;
  const auto guess = uwsim::scenario::closest_match(first, kSubcommands);
  if (!guess) return false;
  std::fprintf(stderr, "sim: '%s' is neither a subcommand nor a file; did you mean 'sim %s'? (sim --help lists them)\n",
               first.c_str(), guess->c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // `sim run FILE` and `sim FILE` are the same command; the others are their own.
  std::vector<char*> args(argv, argv + argc);
  const std::string command = args.size() > 1 ? args[1] : "";
  const std::string line = join_command_line(argc, argv);  // in the locks of its outputs
  if (command == "validate" || command == "describe" || command == "compare" || command == "identify") {
    args.erase(args.begin() + 1);
    if (command == "compare") return compare_main(args, line);
    if (command == "identify") return identify_main(args, line);
    return command == "validate" ? validate_main(args) : describe_main(args);
  }
  if (command == "replay") {
    args.erase(args.begin() + 1);
    return replay_main(args, line);
  }
  if (command == "trim" || command == "linearize") {
    args.erase(args.begin() + 1);
    return command == "trim" ? trim_main(args, line) : linearize_main(args, line);
  }
  if (mistyped_subcommand(command)) return uwsim::app::kBadInput;
  if (command == "run") args.erase(args.begin() + 1);

  CLI::App cli{"sim — simulate underwater vehicles and multibody systems from a YAML scenario.\n"
               "Usage: sim [run] SCENARIO.yaml [options]\n"
               "       sim validate FILE... [--set key.path=value]...   check files without running\n"
               "       sim describe FILE.h5                             what a result file holds\n"
               "       sim replay FILE.h5 [-o FILE.html]                the run in 3D in a browser page\n"
               "       sim compare A.h5 B.(h5|csv) [options]            how far a run is from another or from measurements\n"
               "       sim identify SCENARIO.yaml DATA [options]        an arm's dynamic parameters from positions and currents\n"
               "       sim trim SCENARIO.yaml                           find an equilibrium\n"
               "       sim linearize SCENARIO.yaml [--at T | --trim]    linear model and modes"};
  cli.set_version_flag("--version", std::string("sim ") + UWSIM_VERSION);
  uwsim::app::RunOptions options;
  double duration = 0.0;
  bool quiet = false, verbose = false;
  cli.add_option("scenario", options.scenario_path, "scenario file (YAML)")->required();
  auto* output = cli.add_option("-o,--output", "result file (HDF5); default results/<name>.h5")->check(kOutputName);
  auto* duration_opt = cli.add_option("--duration", duration, "simulated time in seconds (overrides simulation.duration)")
                           ->check(uwsim::app::positive("seconds"));
  cli.add_option("--set", options.overrides,
                 "override a scenario value: key.path=value (repeatable), e.g. bodies.rov.mass=12")
      ->allow_extra_args(false);
  cli.add_flag("-q,--quiet", quiet, "print errors only");
  cli.add_flag("-v,--verbose", verbose, "print debugging details");
  cli.add_flag("--force", options.force, "run even if the projected output (> 10 GB) or step count (> 1e9) looks like a slip");

  if (const int code = parse(cli, args); code >= 0) return code;

  use_logger(quiet, verbose);

  if (!output->empty()) options.output_path = output->as<std::string>();
  if (!duration_opt->empty()) options.duration = duration;
  options.command_line = line;
  return uwsim::app::run_scenario(options);
}
