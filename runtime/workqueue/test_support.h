// Helpers for the workqueue tests: bounded waits so a bug fails a test instead of hanging it.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <thread>

#include "testing/eventually.h"
#include "runtime/workqueue/queue.h"

namespace capstan::workqueue::testing {

inline constexpr auto kPatience = std::chrono::seconds(1);

// get(), but fails the test (and shuts the queue down to release the call) if it blocks for `patience`.
inline std::optional<std::string> get_within(Queue& q, std::chrono::milliseconds patience = kPatience) {
  auto f = std::async(std::launch::async, [&q] { return q.get(); });
  if (f.wait_for(patience) != std::future_status::ready) {
    ADD_FAILURE() << "get() still blocked after " << patience.count() << " ms";
    q.shut_down();
    f.wait();
    return "<get() timed out>";
  }
  return f.get();
}

// The bounded wait of every test (testing/eventually.h).
using e2e::eventually;

}  // namespace capstan::workqueue::testing
