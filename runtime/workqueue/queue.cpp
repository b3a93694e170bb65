#include "runtime/workqueue/queue.h"

#include "runtime/metrics/registry.h"

namespace capstan::workqueue {

Queue::Queue(QueueConfig config) : clock_(config.clock ? std::move(config.clock) : real_clock()) {
  if (!config.name.empty()) {
    registry_ = config.registry ? config.registry : &metrics::Registry::global();
    metrics_ = QueueMetrics(*registry_, config.name);
    // unfinished_work_seconds and longest_running_processor_seconds are computed when scraped.
    collect_callback_ = registry_->add_collect_callback([this] {
      std::lock_guard lock(mu_);
      metrics_.update_unfinished(clock_->now());
    });
  }
}

Queue::~Queue() {
  if (registry_) registry_->remove_collect_callback(collect_callback_);
  Queue::shut_down();
  std::lock_guard lock(mu_);
  metrics_.reset_unfinished();
}

void Queue::add(const std::string& key) {
  {
    std::lock_guard lock(mu_);
    if (shutting_down_) return;
    if (!dirty_.insert(key).second) return;  // already waiting (or already re-added during processing)
    metrics_.added(key, clock_->now());
    if (processing_.count(key)) return;  // done() queues it
    queue_.push_back(key);
    ready_cv_.notify_one();
  }
  if (on_queued_) on_queued_();
}

std::optional<std::string> Queue::get() {
  std::unique_lock lock(mu_);
  ready_cv_.wait(lock, [&] { return !queue_.empty() || shutting_down_; });
  if (queue_.empty() || dropped_) return std::nullopt;  // shut down, and drained or dropped
  std::string key = std::move(queue_.front());
  queue_.pop_front();
  metrics_.got(key, clock_->now());
  processing_.insert(key);
  dirty_.erase(key);
  return key;
}

void Queue::done(const std::string& key) {
  std::lock_guard lock(mu_);
  metrics_.finished(key, clock_->now());
  if (processing_.erase(key) == 0) return;  // not held: nothing to release
  if (dirty_.count(key)) {
    queue_.push_back(key);
    ready_cv_.notify_one();
  }
  drained_cv_.notify_all();
}

std::size_t Queue::len() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

void Queue::shut_down() {
  std::lock_guard lock(mu_);
  shutting_down_ = true;
  drain_ = false;  // an ongoing shut_down_with_drain() stops waiting
  ready_cv_.notify_all();
  drained_cv_.notify_all();
}

void Queue::shut_down_with_drain() {
  std::unique_lock lock(mu_);
  shutting_down_ = true;
  drain_ = true;
  ready_cv_.notify_all();
  // Between two keys the processing set is briefly empty while keys are still queued: drained
  // means both are empty.
  drained_cv_.wait(lock, [&] { return (processing_.empty() && queue_.empty()) || !drain_; });
}

void Queue::shut_down_now() {
  std::lock_guard lock(mu_);
  shutting_down_ = true;
  dropped_ = true;
  drain_ = false;
  for (const auto& key : dirty_) metrics_.dropped(key);
  dirty_.clear();
  queue_.clear();
  ready_cv_.notify_all();
  drained_cv_.notify_all();
}

bool Queue::wait_until_idle(Duration timeout) const {
  std::unique_lock lock(mu_);
  return drained_cv_.wait_for(lock, timeout, [&] { return processing_.empty(); });
}

bool Queue::shutting_down() const {
  std::lock_guard lock(mu_);
  return shutting_down_;
}

}  // namespace capstan::workqueue
