#include "runtime/controller/watchdog.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace capstan::controller {
namespace {

using namespace std::chrono_literals;

// The watchdog waited until a deadline it read by reference from the entry a cancel() then
// erased (a heap-use-after-free `make sanitize` found through a controller test). Cancelling
// the entry it is waiting for, over and over, must be safe; this test fails under ASan if not.
TEST(Watchdog, CancellingTheEarliestDeadlineWhileItIsAwaitedIsSafe) {
  Watchdog w;
  std::atomic<int> fired{0};
  for (int i = 0; i < 200; ++i) {
    auto id = w.watch(Watchdog::Clock::now() + 1h, [&] { fired++; });
    std::this_thread::sleep_for(100us);  // let the watchdog start waiting for it
    w.cancel(id);
  }
  auto id = w.watch(Watchdog::Clock::now() + 5ms, [&] { fired++; });
  for (int i = 0; i < 200 && fired.load() == 0; ++i) std::this_thread::sleep_for(5ms);
  w.cancel(id);
  EXPECT_EQ(fired.load(), 1);
}

}  // namespace
}  // namespace capstan::controller
