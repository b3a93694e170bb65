// A controller: a rate-limited work queue of object keys and up to MaxConcurrentReconciles
// worker threads calling the reconciler, with controller-runtime's result handling and metrics
// (controller_runtime_reconcile_total{controller,result}, ..._errors_total, ..._time_seconds,
// ..._max_concurrent_reconciles, ..._active_workers; workqueue_* from the queue).
//
// Stopping, as controller-runtime does with its context and graceful shutdown timeout: the
// workers take no new key (keys still queued are dropped: the objects' state lives in the API
// and the next start or leader lists them again), running reconciles get a grace period to
// finish, and then are cancelled (Context::stop fires and their API calls fail at once).
//
// A time budget per reconcile (reconcile_timeout): past it the reconcile is cancelled the
// same way and counted as failed (backoff, capstan_reconcile_timeouts_total). One that does not
// return even then (a loop that makes no API call) keeps its key, but after the grace the
// controller gets a further worker, so its other keys go on being reconciled; at most
// kMaxExtraWorkers such stuck reconciles are covered. An extra worker stays once started (the
// workqueue still never hands one key to two workers): after a stuck reconcile returns, up to
// MaxConcurrentReconciles + the most reconciles ever stuck at once may run together.
//
// A memory budget per reconcile (reconcile_memory_limit, see memory_budget.h): an allocation
// past it throws inside the reconcile, which fails and is retried with backoff
// (capstan_reconcile_memory_exceeded_total); capstan_reconcile_peak_memory_bytes shows what
// reconciles hold at their peak, to size the budget by.
#pragma once

#include "runtime/controller/reconcile.h"
#include "runtime/workqueue/rate_limiting_queue.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

namespace capstan::cache {
class Informer;
}
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
  std::chrono::milliseconds reconcile_timeout{0};  // 0 = no budget
  // How long past its budget a cancelled reconcile may take to return before it counts as stuck.
  std::chrono::milliseconds stuck_grace{10000};
  // Bytes a reconcile may hold allocated at once (memory_budget.h); 0 = no budget.
  std::size_t reconcile_memory_limit = 0;
  // Told about a reconcile that timed out, ran out of memory budget or panicked, after it
  // returned and outside its cancellation (so it may call the API). Not called while stopping.
  std::function<void(const Request&, const Fault&)> on_fault;
};

inline constexpr int kMaxExtraWorkers = 4;

class Controller {
 public:
  Controller(ControllerOptions options, Reconciler reconciler);
  // stop() with a short grace period, then waits for the (cancelled) workers to return.
  ~Controller();
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  void enqueue(const Request& r);
  void enqueue_after(const Request& r, std::chrono::milliseconds d);
  // Starts handing keys to workers (idempotent). Workers are threads started when there is
  // work and no idle worker to take it, up to MaxConcurrentReconciles, and kept afterwards: a
  // controller that never had work holds no thread (an idle manager with every controller
  // enabled would otherwise keep dozens of sleeping threads, ~32 KiB of stack and TLS each).
  void start();
  // The informers the controller reads (the builder's For/Owns/Watches): the manager starts it
  // once they have synced, independently of every other controller's.
  void set_sources(std::vector<const cache::Informer*> sources) { sources_ = std::move(sources); }
  // The sources that have not synced yet ("group/version/resource" each).
  std::vector<std::string> unsynced_sources() const;
  bool started() const;
  // Stops taking work, at once and without waiting: queued keys are dropped, enqueues are
  // ignored, and each worker exits once its current reconcile returns.
  void shut_down();
  // Cancels the running reconciles (Context::stop fires; their API calls fail with
  // http::Cancelled). Reconciles that start later are cancelled from the start.
  void cancel();
  // Waits until no reconcile runs, then joins the workers and returns true; at `deadline`
  // cancels the reconciles still running and returns false without waiting for them (the
  // destructor does).
  bool wait(std::chrono::steady_clock::time_point deadline);
  // shut_down(), then wait(now + grace): running reconciles get `grace` to finish (0: they
  // are cancelled at once). Returns whether they all finished in time.
  bool stop(std::chrono::milliseconds grace);
  bool cancelled() const { return stop_.stop_requested(); }
  const std::string& name() const { return opts_.name; }
  workqueue::RateLimitingQueue& queue() { return queue_; }
  std::uint64_t reconciles() const { return reconciles_.load(); }

 private:
  void worker();
  void process(const std::string& key);
  // Tells opts_.on_fault, containing whatever it throws.
  void report_fault(const Request& req, Context& ctx, const Fault& fault);
  // Starts a worker when keys wait and none is idle (below the maximum, once started).
  void add_worker_if_needed();

  ControllerOptions opts_;
  Reconciler reconciler_;
  std::vector<const cache::Informer*> sources_;
  workqueue::RateLimitingQueue queue_;
  std::stop_source stop_;  // cancels running reconciles
  mutable std::mutex workers_mu_;
  std::vector<std::thread> workers_;
  std::atomic<int> active_{0};
  std::atomic<int> idle_{0};  // workers waiting in get()
  std::atomic<int> stuck_{0};  // reconciles past budget and grace: each allows one more worker
  std::atomic<std::uint64_t> reconciles_{0};
  bool started_ = false;

  metrics::Counter *success_, *error_, *requeue_, *requeue_after_, *errors_total_, *terminal_, *panics_, *timeouts_,
      *memory_exceeded_;
  metrics::Histogram *time_, *peak_memory_;
  metrics::Gauge *active_gauge_, *max_gauge_;
};

}  // namespace capstan::controller
