#include "runtime/workqueue/clock.h"

namespace capstan::workqueue {

std::shared_ptr<Clock> real_clock() {
  static const std::shared_ptr<Clock> clock = std::make_shared<SteadyClock>();
  return clock;
}

FakeClock::FakeClock(TimePoint start) : now_ns_(start.time_since_epoch().count()) {}

void FakeClock::wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, TimePoint deadline) const {
  if (now() >= deadline) return;
  cv.wait(lock);
}

Clock::SubscriptionId FakeClock::subscribe(std::function<void()> fn) {
  std::lock_guard lock(mu_);
  SubscriptionId id = next_id_++;
  subscribers_.emplace(id, std::move(fn));
  return id;
}

void FakeClock::unsubscribe(SubscriptionId id) {
  std::lock_guard lock(mu_);
  subscribers_.erase(id);
}

void FakeClock::advance(Duration d) { set(now() + d); }

void FakeClock::set(TimePoint t) {
  std::lock_guard lock(mu_);
  // The store happens before the subscribers take their own locks to notify: a waiter that read the old
  // time still holds its lock until it is parked on its condition variable, so the notification reaches it.
  now_ns_.store(std::chrono::duration_cast<Duration>(t.time_since_epoch()).count(), std::memory_order_release);
  for (auto& [id, fn] : subscribers_) fn();
}

}  // namespace capstan::workqueue
