#pragma once
// SIGINT and SIGTERM (Ctrl-C, a batch system's end of job) ask a run to stop cleanly: it finishes
// the step it is in, writes a checkpoint and the output due, says so in one line and exits with
// 128 + the signal's number. A second signal ends the process at once with that code; whatever
// it was writing is then a temporary file (*.tmp, a checkpoint_*.tmp folder), never a file that
// looks complete but is not.
namespace tessera::cli {

// Installs the handlers for SIGINT and SIGTERM (once per process).
void installStopSignals();

// The signal that asked this rank to stop, or 0; no communication.
int stopSignalHere();

// The name of a stop signal, for messages.
const char* signalName(int signal);

} // namespace tessera::cli
