#include "testing/eventually.h"

#include <algorithm>
#include <thread>

namespace capstan::e2e {

bool eventually(const std::function<bool()>& fn, std::chrono::milliseconds timeout, std::chrono::milliseconds interval) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::chrono::milliseconds pause = std::min(std::chrono::milliseconds(1), interval);
  while (true) {
    if (fn()) return true;
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return fn();  // the last word is the state at the deadline
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(pause, deadline - now));
    pause = std::min(pause * 2, interval);
  }
}

}  // namespace capstan::e2e
