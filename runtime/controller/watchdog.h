// One thread that fires deadlines for every controller: a reconcile registers what to do when
// it runs past its time budget, and cancels that before it returns. One thread for the whole
// process rather than one per controller (an idle manager runs a dozen controllers).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace capstan::controller {

class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;
  using Id = std::uint64_t;

  static Watchdog& global();
  Watchdog() = default;
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // Calls `on_expire` on the watchdog's thread at `deadline`, unless cancelled first. It must
  // be quick and must not call back into the watchdog.
  Id watch(Clock::time_point deadline, std::function<void()> on_expire);
  // After this returns `on_expire` is not running and will not run: what it captured may go.
  void cancel(Id id);

 private:
  void run();

  std::mutex mu_;
  std::condition_variable cv_;        // the earliest deadline changed, or the watchdog stops
  std::condition_variable finished_;  // a callback returned
  std::map<std::pair<Clock::time_point, Id>, std::function<void()>> entries_;
  std::map<Id, Clock::time_point> deadlines_;
  Id next_id_ = 1;
  Id running_ = 0;
  bool stopping_ = false;
  std::thread thread_;  // started with the first watch
};

}  // namespace capstan::controller
