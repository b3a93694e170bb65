// Waiting for SIGTERM / SIGINT (blocked in every thread, consumed with sigwait).
#pragma once

namespace capstan::manager {

// Blocks SIGTERM, SIGINT and SIGPIPE for the calling thread and every thread it starts
// afterwards; call first thing in main().
void block_termination_signals();
// Waits for SIGTERM or SIGINT; returns the signal number.
int wait_for_termination();
// Makes a waiting wait_for_termination() return (used when the program decides to stop).
void request_termination();

}  // namespace capstan::manager
