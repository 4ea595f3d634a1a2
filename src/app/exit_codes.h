#pragma once

namespace uwsim::app {

// The process exit codes `sim` promises (README "Command line").
enum ExitCode : int {
  kDone = 0,
  kBadInput = 2,          // unreadable or invalid scenario, bad option, unusable output path,
                          // output taken by another run or equal to an input, absurd run size
  kNumericalFailure = 3,  // the simulation diverged; the file holds what came before
  kNoEquilibrium = 4,     // sim trim (or linearize --trim) found no equilibrium
  kOutputFailure = 5,     // the result file could not be written (full disk, I/O error): the
                          // previous result is untouched, what was written is in <output>.partial
};

// A run stopped by a signal ends with 128 + its number: SIGHUP 129, SIGINT 130, SIGPIPE 141,
// SIGTERM 143 (the shell's convention); the file holds what came before and says so.
constexpr int exit_code_for_signal(int signal_number) { return 128 + signal_number; }

}  // namespace uwsim::app
