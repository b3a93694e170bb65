// A FIFO work queue of string keys with client-go's guarantees:
//  * a key is held by at most one worker at a time (get() .. done());
//  * adding a key that is already waiting does nothing (adds collapse);
//  * adding a key while a worker holds it marks it dirty: it is queued again, once, when done() is called;
//  * otherwise keys come out in the order they were added.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>

#include "runtime/workqueue/clock.h"
#include "runtime/workqueue/queue_metrics.h"

namespace capstan::metrics {
class Registry;
}

namespace capstan::workqueue {

struct QueueConfig {
  // Label value for the workqueue_* metrics (name and controller). Empty: no metrics.
  std::string name;
  // Where the metrics go; nullptr means metrics::Registry::global(). Must outlive the queue.
  metrics::Registry* registry = nullptr;
  // nullptr means the steady clock.
  std::shared_ptr<Clock> clock;
};

class Queue {
 public:
  explicit Queue(QueueConfig config = {});
  // Shuts down. Workers must have returned from get() before the queue is destroyed.
  virtual ~Queue();
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  // Ignored once shutting down.
  void add(const std::string& key);
  // Called (without the queue's lock held) each time add() queues a key for get(): how a
  // worker pool learns there is work. Set before the queue is used.
  void set_on_queued(std::function<void()> fn) { on_queued_ = std::move(fn); }
  // Blocks until a key is available; nullopt once shut down and no key is left.
  std::optional<std::string> get();
  // The worker finished `key` (it must come from get()); re-queues it if it was added meanwhile.
  void done(const std::string& key);
  // Keys waiting to be handed out (not counting dirty keys still held by a worker).
  std::size_t len() const;

  // Stops accepting keys and wakes every get(); keys already queued are still handed out.
  virtual void shut_down();
  // Like shut_down(), then waits until every queued key has been handed out and every key
  // handed out has had its done() (so workers must still be calling get()). A shut_down() or
  // shut_down_now() meanwhile ends the wait.
  virtual void shut_down_with_drain();
  // Stops accepting keys and stops handing them out: get() returns nullopt from now on, and
  // keys still queued are dropped (a controller's keys name objects whose state lives in the
  // API; the next start lists them again). Keys held by workers stay held until done(), which
  // no longer re-queues them.
  virtual void shut_down_now();
  // Waits until no key is held by a worker; false when `timeout` passes first.
  bool wait_until_idle(Duration timeout) const;
  bool shutting_down() const;

 protected:
  Clock& clock() const noexcept { return *clock_; }
  const std::shared_ptr<Clock>& clock_ptr() const noexcept { return clock_; }
  void record_retry() { metrics_.retried(); }

 private:
  std::shared_ptr<Clock> clock_;
  metrics::Registry* registry_ = nullptr;  // set when metrics are on
  std::uint64_t collect_callback_ = 0;

  mutable std::mutex mu_;
  std::condition_variable ready_cv_;    // a key was queued, or shutdown
  mutable std::condition_variable drained_cv_;  // a key was done(), or the drain was cancelled
  std::deque<std::string> queue_;
  std::unordered_set<std::string> dirty_;       // needs processing (queued, or re-added while processing)
  std::unordered_set<std::string> processing_;  // held by a worker
  bool shutting_down_ = false;
  bool drain_ = false;
  bool dropped_ = false;  // shut_down_now(): nothing is handed out any more
  QueueMetrics metrics_;
  std::function<void()> on_queued_;
};

}  // namespace capstan::workqueue
