// Time source for the work queue and rate limiters: the steady clock in production, a FakeClock in tests.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace capstan::workqueue {

using Duration = std::chrono::nanoseconds;
using TimePoint = std::chrono::steady_clock::time_point;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint now() const = 0;

  // Blocks on `cv` (with `lock` held, as condition_variable::wait does) until notified or until this
  // clock reaches `deadline`. May return spuriously: callers re-check their condition.
  virtual void wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, TimePoint deadline) const = 0;

  // `fn` is called after every jump of a clock that moves by hand (FakeClock), so a thread parked in
  // wait_until can re-check. `fn` must not call back into the clock. Real clocks never call it.
  using SubscriptionId = std::uint64_t;
  virtual SubscriptionId subscribe(std::function<void()> fn) { return 0; }
  virtual void unsubscribe(SubscriptionId id) {}
};

class SteadyClock final : public Clock {
 public:
  TimePoint now() const override { return std::chrono::steady_clock::now(); }
  void wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, TimePoint deadline) const override {
    cv.wait_until(lock, deadline);
  }
};

// The shared SteadyClock instance (the default everywhere a clock is optional).
std::shared_ptr<Clock> real_clock();

// A clock that only moves when told to. now() is lock-free, so it may be read under any lock.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(TimePoint start = TimePoint(std::chrono::hours(24)));

  TimePoint now() const override { return TimePoint(Duration(now_ns_.load(std::memory_order_acquire))); }
  // Waits for a notification only (a subscriber's wake-up after advance() included).
  void wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, TimePoint deadline) const override;
  SubscriptionId subscribe(std::function<void()> fn) override;
  void unsubscribe(SubscriptionId id) override;

  void advance(Duration d);
  void set(TimePoint t);

 private:
  std::atomic<std::int64_t> now_ns_;
  std::mutex mu_;  // guards subscribers_; held while they run, so unsubscribe() waits for a running one
  std::map<SubscriptionId, std::function<void()>> subscribers_;
  SubscriptionId next_id_ = 1;
};

}  // namespace capstan::workqueue
