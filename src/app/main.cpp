// sim — underwater multibody simulator, command-line entry point.
#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "app/exit_codes.h"
#include "app/run_command.h"
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

}  // namespace

int main(int argc, char** argv) {
  // `sim run FILE` and `sim FILE` are the same command.
  std::vector<char*> args(argv, argv + argc);
  if (args.size() > 1 && std::string(args[1]) == "run") args.erase(args.begin() + 1);

  CLI::App cli{"sim — simulate underwater vehicles and multibody systems from a YAML scenario.\n"
               "Usage: sim [run] SCENARIO.yaml [options]"};
  cli.set_version_flag("--version", std::string("sim ") + UWSIM_VERSION);
  uwsim::app::RunOptions options;
  double duration = 0.0;
  bool quiet = false, verbose = false;
  cli.add_option("scenario", options.scenario_path, "scenario file (YAML)")->required();
  auto* output = cli.add_option("-o,--output", "result file (HDF5); default results/<name>.h5");
  auto* duration_opt = cli.add_option("--duration", duration, "simulated time in seconds (overrides simulation.duration)")
                           ->check(CLI::PositiveNumber);
  cli.add_option("--set", options.overrides,
                 "override a scenario value: key.path=value (repeatable), e.g. bodies.rov.mass=12")
      ->allow_extra_args(false);
  cli.add_flag("-q,--quiet", quiet, "print errors only");
  cli.add_flag("-v,--verbose", verbose, "print debugging details");

  try {
    cli.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::ParseError& e) {
    const int code = cli.exit(e);
    return code == 0 ? uwsim::app::kDone : uwsim::app::kBadInput;
  }

  auto logger = spdlog::stderr_color_st("sim");
  logger->set_pattern("%^%l%$: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(quiet ? spdlog::level::err : verbose ? spdlog::level::debug : spdlog::level::info);

  if (!output->empty()) options.output_path = output->as<std::string>();
  if (!duration_opt->empty()) options.duration = duration;
  options.command_line = join_command_line(argc, argv);
  return uwsim::app::run_scenario(options);
}
