#include "runtime/controller/watchdog.h"

namespace capstan::controller {

Watchdog& Watchdog::global() {
  static Watchdog w;
  return w;
}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Watchdog::Id Watchdog::watch(Clock::time_point deadline, std::function<void()> on_expire) {
  std::lock_guard<std::mutex> l(mu_);
  Id id = next_id_++;
  auto [it, added] = entries_.emplace(std::make_pair(deadline, id), std::move(on_expire));
  deadlines_.emplace(id, deadline);
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  // The thread waits for the earliest deadline: only a new earliest one needs it awake (every
  // reconcile is watched, mostly with the same timeout, so this spares a wake-up per reconcile).
  if (it == entries_.begin()) cv_.notify_all();
  return id;
}

void Watchdog::cancel(Id id) {
  std::unique_lock<std::mutex> l(mu_);
  finished_.wait(l, [&] { return running_ != id; });
  auto it = deadlines_.find(id);
  if (it == deadlines_.end()) return;  // fired already
  entries_.erase({it->second, id});
  deadlines_.erase(it);
}

void Watchdog::run() {
  std::unique_lock<std::mutex> l(mu_);
  while (!stopping_) {
    if (entries_.empty()) {
      cv_.wait(l);
      continue;
    }
    auto first = entries_.begin();
    // A copy: wait_until reads the deadline again after waking, and a cancel() while we wait
    // erases the entry the key lives in (heap-use-after-free found by `make sanitize`).
    const Clock::time_point deadline = first->first.first;
    if (Clock::now() < deadline) {
      cv_.wait_until(l, deadline);
      continue;
    }
    Id id = first->first.second;
    auto fn = std::move(first->second);
    entries_.erase(first);
    deadlines_.erase(id);
    running_ = id;
    l.unlock();
    fn();
    l.lock();
    running_ = 0;
    finished_.notify_all();
  }
}

}  // namespace capstan::controller
