#include "runtime/workqueue/delaying_queue.h"

#include <vector>

namespace capstan::workqueue {

DelayingQueue::DelayingQueue(QueueConfig config) : Queue(std::move(config)) {
  subscription_ = clock().subscribe([this] {
    std::lock_guard lock(mu_);
    cv_.notify_all();
  });
  waiter_ = std::thread([this] { wait_loop(); });
}

DelayingQueue::~DelayingQueue() {
  stop_waiting();
  clock().unsubscribe(subscription_);
}

void DelayingQueue::add_after(const std::string& key, Duration delay) {
  if (shutting_down()) return;
  if (delay <= Duration::zero()) {
    add(key);
    return;
  }
  record_retry();
  TimePoint due = clock().now() + delay;
  std::lock_guard lock(mu_);
  if (stopping_) return;
  if (auto it = entries_.find(key); it != entries_.end()) {
    if (it->second->first <= due) return;  // the earlier due time wins
    due_.erase(it->second);
    entries_.erase(it);
  }
  auto pos = due_.emplace(due, key);
  entries_.emplace(key, pos);
  if (pos == due_.begin()) cv_.notify_all();  // new earliest deadline
}

std::size_t DelayingQueue::waiting_len() const {
  std::lock_guard lock(mu_);
  return due_.size();
}

void DelayingQueue::wait_loop() {
  std::unique_lock lock(mu_);
  std::vector<std::string> ready;
  while (!stopping_) {
    TimePoint now = clock().now();
    while (!due_.empty() && due_.begin()->first <= now) {
      entries_.erase(due_.begin()->second);
      ready.push_back(std::move(due_.begin()->second));
      due_.erase(due_.begin());
    }
    if (!ready.empty()) {
      lock.unlock();  // Queue::add takes the queue's own lock; never hold both
      for (const auto& key : ready) add(key);
      ready.clear();
      lock.lock();
      continue;
    }
    if (due_.empty()) {
      cv_.wait(lock);
    } else {
      clock().wait_until(lock, cv_, due_.begin()->first);
    }
  }
}

void DelayingQueue::stop_waiting() {
  std::call_once(stop_once_, [this] {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
      cv_.notify_all();
    }
    if (waiter_.joinable()) waiter_.join();
    std::lock_guard lock(mu_);
    due_.clear();
    entries_.clear();
  });
}

void DelayingQueue::shut_down() {
  Queue::shut_down();
  stop_waiting();
}

void DelayingQueue::shut_down_now() {
  Queue::shut_down_now();
  stop_waiting();
}

void DelayingQueue::shut_down_with_drain() {
  stop_waiting();
  Queue::shut_down_with_drain();
}

}  // namespace capstan::workqueue
