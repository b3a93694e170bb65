// The one bounded wait of every test and benchmark, so that a bug fails a test instead of
// hanging it (part of the light core, capstan_testing_core).
#pragma once

#include <chrono>
#include <functional>

namespace capstan::e2e {

// Polls `fn` until it returns true or `timeout` passes; returns its last value (`fn` is asked
// once more at the deadline). The pauses between polls start at 1 ms and double up to
// `interval`: a state reached in-process is seen within a millisecond or two, and a predicate
// that runs a program (kubectl) is not rerun more often than every `interval`.
bool eventually(const std::function<bool()>& fn, std::chrono::milliseconds timeout = std::chrono::seconds(10),
                std::chrono::milliseconds interval = std::chrono::milliseconds(50));

}  // namespace capstan::e2e
