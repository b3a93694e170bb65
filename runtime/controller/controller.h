// A controller: a rate-limited work queue of object keys and MaxConcurrentReconciles worker
// threads calling the reconciler, with controller-runtime's result handling and metrics
// (controller_runtime_reconcile_total{controller,result}, ..._errors_total, ..._time_seconds,
// ..._max_concurrent_reconciles, ..._active_workers; workqueue_* from the queue).
#pragma once

#include "runtime/controller/reconcile.h"
#include "runtime/workqueue/rate_limiting_queue.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace capstan::metrics {
class Registry;
class Counter;
class Gauge;
class Histogram;
}  // namespace capstan::metrics

namespace capstan::controller {

using Reconciler = std::function<Result(const Request&, Context&)>;

struct ControllerOptions {
  std::string name;
  int max_concurrent_reconciles = 1;
  metrics::Registry* registry = nullptr;  // nullptr = the global registry
};

class Controller {
 public:
  Controller(ControllerOptions options, Reconciler reconciler);
  ~Controller();
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  void enqueue(const Request& r);
  void enqueue_after(const Request& r, std::chrono::milliseconds d);
  // Starts the workers (idempotent).
  void start();
  // Stops taking work and waits up to `grace` for running reconciles; returns whether they
  // all finished.
  bool stop(std::chrono::milliseconds grace);
  const std::string& name() const { return opts_.name; }
  workqueue::RateLimitingQueue& queue() { return queue_; }
  std::uint64_t reconciles() const { return reconciles_.load(); }

 private:
  void worker();
  void process(const std::string& key);

  ControllerOptions opts_;
  Reconciler reconciler_;
  workqueue::RateLimitingQueue queue_;
  std::vector<std::thread> workers_;
  std::atomic<int> active_{0};
  std::atomic<std::uint64_t> reconciles_{0};
  bool started_ = false;

  metrics::Counter *success_, *error_, *requeue_, *requeue_after_, *errors_total_, *terminal_, *panics_;
  metrics::Histogram* time_;
  metrics::Gauge *active_gauge_, *max_gauge_;
};

}  // namespace capstan::controller
