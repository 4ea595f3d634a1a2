// sim — underwater multibody simulator, command-line entry point.
#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <string>
#include <vector>

#include "app/describe_command.h"
#include "app/exit_codes.h"
#include "app/run_command.h"
#include "app/validate_command.h"
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

// Parses a subcommand's own options; returns the exit code to leave with, or −1 to go on.
int parse(CLI::App& cli, std::vector<char*>& args) {
  try {
    cli.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::ParseError& e) {
    return cli.exit(e) == 0 ? uwsim::app::kDone : uwsim::app::kBadInput;
  }
  return -1;
}

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

}  // namespace

int main(int argc, char** argv) {
  // `sim run FILE` and `sim FILE` are the same command; `validate` and `describe` are their own.
  std::vector<char*> args(argv, argv + argc);
  const std::string command = args.size() > 1 ? args[1] : "";
  if (command == "validate" || command == "describe") {
    args.erase(args.begin() + 1);
    return command == "validate" ? validate_main(args) : describe_main(args);
  }
  if (command == "run") args.erase(args.begin() + 1);

  CLI::App cli{"sim — simulate underwater vehicles and multibody systems from a YAML scenario.\n"
               "Usage: sim [run] SCENARIO.yaml [options]\n"
               "       sim validate FILE... [--set key.path=value]...   check files without running\n"
               "       sim describe FILE.h5                             what a result file holds"};
  cli.set_version_flag("--version", std::string("sim ") + UWSIM_VERSION);
  uwsim::app::RunOptions options;
  double duration = 0.0;
  bool quiet = false, verbose = false;
  cli.add_option("scenario", options.scenario_path, "scenario file (YAML)")->required();
  auto* output = cli.add_option("-o,--output", "result file (HDF5); default results/<name>.h5");
  auto* duration_opt = cli.add_option("--duration", duration, "simulated time in seconds (overrides simulation.duration)")
                           ->check(CLI::Validator(
                               [](const std::string& text) {
                                 double x = 0.0;
                                 const bool positive = CLI::detail::lexical_cast(text, x) && x > 0.0 && std::isfinite(x);
                                 return positive ? std::string() : "expected a positive number of seconds, got " + text;
                               },
                               "SECONDS"));
  cli.add_option("--set", options.overrides,
                 "override a scenario value: key.path=value (repeatable), e.g. bodies.rov.mass=12")
      ->allow_extra_args(false);
  cli.add_flag("-q,--quiet", quiet, "print errors only");
  cli.add_flag("-v,--verbose", verbose, "print debugging details");
  cli.add_flag("--force", options.force, "run even if the projected output (> 10 GB) or step count (> 1e9) looks like a slip");

  if (const int code = parse(cli, args); code >= 0) return code;

  auto logger = spdlog::stderr_color_st("sim");
  logger->set_pattern("%^%l%$: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(quiet ? spdlog::level::err : verbose ? spdlog::level::debug : spdlog::level::info);

  if (!output->empty()) options.output_path = output->as<std::string>();
  if (!duration_opt->empty()) options.duration = duration;
  options.command_line = join_command_line(argc, argv);
  return uwsim::app::run_scenario(options);
}
