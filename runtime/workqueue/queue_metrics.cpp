#include "runtime/workqueue/queue_metrics.h"

#include <algorithm>

#include "runtime/metrics/registry.h"

namespace capstan::workqueue {
namespace {

// Help texts as controller-runtime registers them, so dashboards and `# HELP` lines match.
constexpr const char* kDepthHelp = "Current depth of workqueue by workqueue and priority";
constexpr const char* kAddsHelp = "Total number of adds handled by workqueue";
constexpr const char* kQueueDurationHelp = "How long in seconds an item stays in workqueue before being requested";
constexpr const char* kWorkDurationHelp = "How long in seconds processing an item from workqueue takes.";
constexpr const char* kUnfinishedHelp =
    "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. "
    "Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at "
    "which this increases.";
constexpr const char* kLongestHelp = "How many seconds has the longest running processor for workqueue been running.";
constexpr const char* kRetriesHelp = "Total number of retries handled by workqueue";

const std::vector<std::string> kLabels = {"name", "controller"};

std::vector<double> duration_buckets() { return metrics::exponential_buckets(1e-8, 10, 12); }

double seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

void register_workqueue_metrics(metrics::Registry& r) {
  r.gauge("workqueue_depth", kDepthHelp, {"name", "controller", "priority"});
  r.counter("workqueue_adds_total", kAddsHelp, kLabels);
  r.histogram("workqueue_queue_duration_seconds", kQueueDurationHelp, kLabels, duration_buckets());
  r.histogram("workqueue_work_duration_seconds", kWorkDurationHelp, kLabels, duration_buckets());
  r.gauge("workqueue_unfinished_work_seconds", kUnfinishedHelp, kLabels);
  r.gauge("workqueue_longest_running_processor_seconds", kLongestHelp, kLabels);
  r.counter("workqueue_retries_total", kRetriesHelp, kLabels);
}

QueueMetrics::QueueMetrics(metrics::Registry& r, const std::string& name) {
  const std::vector<std::string> values = {name, name};
  depth_ = &r.gauge("workqueue_depth", kDepthHelp, {"name", "controller", "priority"}).with({name, name, ""});
  adds_ = &r.counter("workqueue_adds_total", kAddsHelp, kLabels).with(values);
  queue_duration_ =
      &r.histogram("workqueue_queue_duration_seconds", kQueueDurationHelp, kLabels, duration_buckets()).with(values);
  work_duration_ =
      &r.histogram("workqueue_work_duration_seconds", kWorkDurationHelp, kLabels, duration_buckets()).with(values);
  unfinished_ = &r.gauge("workqueue_unfinished_work_seconds", kUnfinishedHelp, kLabels).with(values);
  longest_ = &r.gauge("workqueue_longest_running_processor_seconds", kLongestHelp, kLabels).with(values);
  retries_ = &r.counter("workqueue_retries_total", kRetriesHelp, kLabels).with(values);
}

void QueueMetrics::added(const std::string& key, TimePoint now) {
  if (!enabled()) return;
  adds_->inc();
  depth_->inc();
  added_at_.try_emplace(key, now);
}

void QueueMetrics::got(const std::string& key, TimePoint now) {
  if (!enabled()) return;
  depth_->dec();
  processing_since_[key] = now;
  if (auto it = added_at_.find(key); it != added_at_.end()) {
    queue_duration_->observe(seconds(now - it->second));
    added_at_.erase(it);
  }
}

void QueueMetrics::finished(const std::string& key, TimePoint now) {
  if (!enabled()) return;
  if (auto it = processing_since_.find(key); it != processing_since_.end()) {
    work_duration_->observe(seconds(now - it->second));
    processing_since_.erase(it);
  }
}

void QueueMetrics::dropped(const std::string& key) {
  if (!enabled()) return;
  depth_->dec();
  added_at_.erase(key);
}

void QueueMetrics::retried() {
  if (enabled()) retries_->inc();
}

void QueueMetrics::update_unfinished(TimePoint now) {
  if (!enabled()) return;
  double total = 0, longest = 0;
  for (const auto& [key, since] : processing_since_) {
    double s = seconds(now - since);
    total += s;
    longest = std::max(longest, s);
  }
  unfinished_->set(total);
  longest_->set(longest);
}

void QueueMetrics::reset_unfinished() {
  if (!enabled()) return;
  unfinished_->set(0);
  longest_->set(0);
}

}  // namespace capstan::workqueue
