#pragma once

namespace uwsim::app {

// The process exit codes `sim` promises (README "Command line").
enum ExitCode : int {
  kDone = 0,
  kBadInput = 2,          // unreadable or invalid scenario, bad option, unwritable output
  kNumericalFailure = 3,  // the simulation diverged; the file holds what came before
  kNoEquilibrium = 4,     // sim trim (or linearize --trim) found no equilibrium
  kInterrupted = 130,     // SIGINT (SIGTERM: 143); the file holds what came before and says so
};

}  // namespace uwsim::app
