#pragma once

#include <cerrno>
#include <exception>

#include "output/hdf5_file.h"

namespace uwsim::app {

// The process exit codes `sim` promises (README "Command line").
enum ExitCode : int {
  kDone = 0,
  kBadInput = 2,          // unreadable or invalid scenario, bad option, unusable output path,
                          // output taken by another run or equal to an input, absurd run size
  kNumericalFailure = 3,  // the simulation diverged; the file holds what came before
  kNoEquilibrium = 4,     // sim trim (or linearize --trim) found no equilibrium
  kOutputFailure = 5,     // an output could not be written (full disk, I/O error): the previous
                          // file is untouched (a run's samples so far are in <output>.partial)
};

// The exit code for a failure to write an output (output/output_file.h, output/hdf5_file.h):
// kOutputFailure for a full disk or a broken device (an OutputError with ENOSPC, EDQUOT, EIO or
// EFBIG), kBadInput for anything else (a refused output: OutputRefused).
inline int exit_code_for(const std::exception& failure) {
  const auto* error = dynamic_cast<const output::OutputError*>(&failure);
  const int e = error ? error->error_number() : 0;
  return e == ENOSPC || e == EDQUOT || e == EIO || e == EFBIG ? kOutputFailure : kBadInput;
}

// A run stopped by a signal ends with 128 + its number: SIGHUP 129, SIGINT 130, SIGPIPE 141,
// SIGTERM 143 (the shell's convention); the file holds what came before and says so.
constexpr int exit_code_for_signal(int signal_number) { return 128 + signal_number; }

}  // namespace uwsim::app
