#pragma once
// SIGINT and SIGTERM (Ctrl-C, a batch system's end of job) ask a run to stop cleanly: it finishes
// the step, output or checkpoint it is in (and says which as the signal comes), writes a
// checkpoint, says so in one line and exits with 128 + the signal's number. A second signal ends
// the process at once with that code; whatever it was writing is then a temporary file (*.tmp, a
// checkpoint_*.tmp folder), never a file that looks complete but is not.
namespace tessera::cli {

// Installs the handlers for SIGINT and SIGTERM (once per process). With announce (rank 0), the
// first signal prints at once what the run finishes before it stops (RunActivity).
void installStopSignals(bool announce);

// What a run is doing, for the line a stop signal prints: it stops at the first safe point, once
// the step, output or checkpoint in progress is done.
enum class RunActivity { Starting, Stepping, WritingOutput, WritingCheckpoint };
void setRunActivity(RunActivity activity);

// An activity for the extent of a scope, the one before it afterwards.
class RunActivityScope {
public:
  explicit RunActivityScope(RunActivity activity);
  ~RunActivityScope();
  RunActivityScope(const RunActivityScope&) = delete;
  RunActivityScope& operator=(const RunActivityScope&) = delete;

private:
  RunActivity before_;
};

// The signal that asked this rank to stop, or 0; no communication.
int stopSignalHere();

// The name of a stop signal, for messages.
const char* signalName(int signal);

} // namespace tessera::cli
