#include "tools/tessera/stop_signals.hpp"

#include <csignal>
#include <cstddef>
#include <unistd.h>

namespace tessera::cli {
namespace {

volatile std::sig_atomic_t requested = 0;
volatile std::sig_atomic_t activity = std::sig_atomic_t(RunActivity::Starting);
bool announces = false;

// Only async-signal-safe calls in the handler: write and _exit.
void say(const char* message, std::size_t length) {
  [[maybe_unused]] const auto written = write(STDERR_FILENO, message, length);
}

template <std::size_t N>
void say(const char (&message)[N]) {
  say(message, N - 1);
}

extern "C" void onStopSignal(int signal) {
  if (requested != 0) {
    say("\ntessera: second signal: stopping at once\n");
    _exit(128 + signal);
  }
  requested = signal;
  if (!announces)
    return;
  switch (RunActivity(activity)) {
  case RunActivity::Starting:
    say("\ntessera: stop requested: stopping before the first step, with a checkpoint (a second "
        "signal stops at once)\n");
    break;
  case RunActivity::Stepping:
    say("\ntessera: stop requested: finishing the step in progress, then a checkpoint (a second "
        "signal stops at once)\n");
    break;
  case RunActivity::WritingOutput:
    say("\ntessera: stop requested: finishing the output being written, then a checkpoint (a "
        "second signal stops at once)\n");
    break;
  case RunActivity::WritingCheckpoint:
    say("\ntessera: stop requested: finishing the checkpoint being written (a second signal "
        "stops at once)\n");
    break;
  }
}

} // namespace

void setRunActivity(RunActivity a) {
  activity = std::sig_atomic_t(a);
}

RunActivityScope::RunActivityScope(RunActivity a) : before_(RunActivity(activity)) {
  setRunActivity(a);
}

RunActivityScope::~RunActivityScope() {
  setRunActivity(before_);
}

void installStopSignals(bool announce) {
  announces = announce;
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
