#include "app/stop_signals.h"

#include <unistd.h>

namespace uwsim::app {

namespace {

constexpr int kSignals[4] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

std::atomic<bool> g_requested{false};
std::atomic<int> g_signal{0};

extern "C" void on_stop_signal(int signal_number, siginfo_t* info, void*) {
  // Raised by our own write to a pipe without reader (sender: this process): not a request.
  if (signal_number == SIGPIPE && info != nullptr && info->si_code == SI_USER && info->si_pid == getpid()) return;
  if (g_requested.load()) {
    // The second request: the default action, now (async-signal-safe calls only).
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal_number, &fallback, nullptr);
    raise(signal_number);
    return;
  }
  g_signal.store(signal_number);
  g_requested.store(true);
}

}  // namespace

StopSignals::StopSignals() {
  g_requested.store(false);
  g_signal.store(0);
  struct sigaction action {};
  action.sa_sigaction = on_stop_signal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &action, &previous_[i]);
}

StopSignals::~StopSignals() {
  for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &previous_[i], nullptr);
}

const std::atomic<bool>& StopSignals::requested() { return g_requested; }

int StopSignals::signal_number() { return g_signal.load(); }

}  // namespace uwsim::app
