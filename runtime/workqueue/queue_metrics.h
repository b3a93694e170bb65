// The controller-runtime workqueue metrics for one queue (labels name = controller = the queue's name):
// workqueue_depth (also labelled priority="", as controller-runtime's non-priority queue does),
// workqueue_adds_total, workqueue_queue_duration_seconds, workqueue_work_duration_seconds,
// workqueue_unfinished_work_seconds, workqueue_longest_running_processor_seconds, workqueue_retries_total.
#pragma once

#include <string>
#include <unordered_map>

#include "runtime/workqueue/clock.h"

namespace capstan::metrics {
class Registry;
class Counter;
class Gauge;
class Histogram;
}  // namespace capstan::metrics

namespace capstan::workqueue {

// Registers the workqueue families in `registry` (idempotent) and returns nothing; QueueMetrics does it too.
void register_workqueue_metrics(metrics::Registry& registry);

// Everything except retried() must be called with the owning queue's lock held (this class has no lock).
// A default-constructed QueueMetrics records nothing.
class QueueMetrics {
 public:
  QueueMetrics() = default;
  QueueMetrics(metrics::Registry& registry, const std::string& name);

  bool enabled() const noexcept { return depth_ != nullptr; }
  void added(const std::string& key, TimePoint now);     // a key entered the dirty set
  void got(const std::string& key, TimePoint now);       // a worker took it
  void finished(const std::string& key, TimePoint now);  // the worker called done()
  void dropped(const std::string& key);                  // left the dirty set without being handed out
  void retried();                                        // added with a delay; lock-free
  // Sets unfinished_work_seconds (sum over keys in processing) and longest_running_processor_seconds.
  void update_unfinished(TimePoint now);
  void reset_unfinished();

 private:
  metrics::Gauge* depth_ = nullptr;
  metrics::Counter* adds_ = nullptr;
  metrics::Histogram* queue_duration_ = nullptr;
  metrics::Histogram* work_duration_ = nullptr;
  metrics::Gauge* unfinished_ = nullptr;
  metrics::Gauge* longest_ = nullptr;
  metrics::Counter* retries_ = nullptr;
  std::unordered_map<std::string, TimePoint> added_at_;       // first add since the last get
  std::unordered_map<std::string, TimePoint> processing_since_;
};

}  // namespace capstan::workqueue
