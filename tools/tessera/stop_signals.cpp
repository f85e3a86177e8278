#include "tools/tessera/stop_signals.hpp"

#include <csignal>
#include <unistd.h>

namespace tessera::cli {
namespace {

volatile std::sig_atomic_t requested = 0;

extern "C" void onStopSignal(int signal) {
  if (requested != 0) {
    // Only async-signal-safe calls here: write and _exit.
    static const char message[] = "\ntessera: second signal: stopping at once\n";
    [[maybe_unused]] const auto written = write(STDERR_FILENO, message, sizeof message - 1);
    _exit(128 + signal);
  }
  requested = signal;
}

} // namespace

void installStopSignals() {
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART; // file writes and MPI calls in progress carry on
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int stopSignalHere() {
  return int(requested);
}

const char* signalName(int signal) {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

} // namespace tessera::cli
