// The signals that end a run early but cleanly: SIGINT (Ctrl-C), SIGTERM (a batch system's time
// limit), SIGHUP (the terminal went away) and SIGPIPE sent by another process. The first one
// asks the integrator to stop after the current step, so the file is closed valid and says
// "interrupted"; a second one ends the process at once (the signal's default action).
//
// A SIGPIPE that the kernel raises because a write of ours found its reader gone (stderr piped
// into a program that has ended) is no request to stop: its sender is this very process. It
// is ignored, the write fails with EPIPE, and the run goes on to complete.
#pragma once

#include <atomic>
#include <csignal>

namespace uwsim::app {

class StopSignals {
 public:
  StopSignals();   // installs the handlers, clears any earlier request
  ~StopSignals();  // restores what was there before
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // Polled by the integrator after every step.
  static const std::atomic<bool>& requested();
  // The signal that asked to stop, 0 if none.
  static int signal_number();

 private:
  struct sigaction previous_[4]{};
};

}  // namespace uwsim::app
