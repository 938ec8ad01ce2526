// What must not outlive teg when it is interrupted: temporary output files (a half-written file
// must never be left behind) and child process groups (an nvcc teg started must not run on
// after teg is gone). A small fixed registry that a SIGINT/SIGTERM/SIGHUP handler and an exit
// hook can walk without allocating: the handler unlinks every registered file, kills every
// registered process group, then lets the signal end the process as it would have.
#pragma once

#include <sys/types.h>

#include <string>

namespace teg {

// Installs the signal handlers and the exit hook (once; later calls do nothing). The CLI calls
// it first thing; library code works without it (files are still removed by their owners on
// errors, just not on a signal).
void installCleanupHandlers();

// Registers a path to unlink on a signal or at exit; returns a ticket for unregisterTempFile, or
// -1 when the registry is full or the path too long (then the file is only cleaned by its
// owner).
int registerTempFile(const std::string& path);
void unregisterTempFile(int ticket);

// Registers a process group to SIGKILL on a signal; returns a ticket (or -1 when full).
int registerChildGroup(pid_t group);
void unregisterChildGroup(int ticket);

// Unlinks every registered temp file and kills every registered group now (async-signal-safe).
void runPendingCleanup() noexcept;

}  // namespace teg
