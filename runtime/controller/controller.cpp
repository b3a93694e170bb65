#include "runtime/controller/controller.h"

#include "runtime/cache/informer.h"
#include "runtime/client/cancel.h"
#include "runtime/controller/memory_budget.h"
#include "runtime/controller/watchdog.h"
#include "runtime/metrics/registry.h"

#include <algorithm>
#include <optional>
#include <random>

namespace capstan::controller {
namespace {

std::string reconcile_id() {
  thread_local std::mt19937_64 rng(std::random_device{}());
  std::uint64_t a = rng(), b = rng();
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32), static_cast<unsigned>((a >> 16) & 0xffff),
                static_cast<unsigned>(a & 0xfff), static_cast<unsigned>(((b >> 48) & 0x3fff) | 0x8000),
                static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

std::vector<double> reconcile_buckets() {
  // controller-runtime: .005 .. 1.0 in growing steps, then 1.25 .. 60.
  return {0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
          1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60};
}

// 16 KiB .. 1 GiB in steps of 4.
std::vector<double> peak_memory_buckets() {
  std::vector<double> b;
  for (double v = 16384; v <= 1073741824.0; v *= 4) b.push_back(v);
  return b;
}

}  // namespace

Request Request::from_key(std::string_view key) {
  auto slash = key.find('/');
  if (slash == std::string_view::npos) return {"", std::string(key)};
  return {std::string(key.substr(0, slash)), std::string(key.substr(slash + 1))};
}

Controller::Controller(ControllerOptions options, Reconciler reconciler)
    : opts_(std::move(options)),
      reconciler_(std::move(reconciler)),
      queue_(workqueue::QueueConfig{opts_.name, opts_.registry, nullptr}) {
  queue_.set_on_queued([this] { add_worker_if_needed(); });
  auto& reg = opts_.registry ? *opts_.registry : metrics::Registry::global();
  auto& total = reg.counter("controller_runtime_reconcile_total", "Total number of reconciliations per controller",
                            {"controller", "result"});
  success_ = &total.with({opts_.name, "success"});
  error_ = &total.with({opts_.name, "error"});
  requeue_ = &total.with({opts_.name, "requeue"});
  requeue_after_ = &total.with({opts_.name, "requeue_after"});
  errors_total_ = &reg.counter("controller_runtime_reconcile_errors_total", "Total number of reconciliation errors per controller",
                               {"controller"})
                       .with({opts_.name});
  terminal_ = &reg.counter("controller_runtime_terminal_reconcile_errors_total",
                           "Total number of terminal reconciliation errors per controller", {"controller"})
                   .with({opts_.name});
  panics_ = &reg.counter("controller_runtime_reconcile_panics_total", "Total number of reconciliation panics per controller",
                         {"controller"})
                 .with({opts_.name});
  timeouts_ = &reg.counter("capstan_reconcile_timeouts_total", "Reconciles cancelled for running past their time budget per controller",
                           {"controller"})
                   .with({opts_.name});
  memory_exceeded_ = &reg.counter("capstan_reconcile_memory_exceeded_total",
                                  "Reconciles failed for running past their memory budget per controller", {"controller"})
                         .with({opts_.name});
  peak_memory_ = &reg.histogram("capstan_reconcile_peak_memory_bytes",
                                "Most bytes a reconcile held allocated at once (C++ allocations on its thread) per controller",
                                {"controller"}, peak_memory_buckets())
                     .with({opts_.name});
  time_ = &reg.histogram("controller_runtime_reconcile_time_seconds", "Length of time per reconciliation per controller",
                         {"controller"}, reconcile_buckets())
               .with({opts_.name});
  max_gauge_ = &reg.gauge("controller_runtime_max_concurrent_reconciles", "Maximum number of concurrent reconciles per controller",
                          {"controller"})
                    .with({opts_.name});
  active_gauge_ = &reg.gauge("controller_runtime_active_workers", "Number of currently used workers per controller", {"controller"})
                       .with({opts_.name});
  max_gauge_->set(opts_.max_concurrent_reconciles);
}

Controller::~Controller() {
  stop(std::chrono::seconds(5));
  cancel();
  std::lock_guard<std::mutex> l(workers_mu_);
  for (auto& w : workers_) w.join();
  workers_.clear();
}

void Controller::enqueue(const Request& r) { queue_.add(r.key()); }

void Controller::enqueue_after(const Request& r, std::chrono::milliseconds d) { queue_.add_after(r.key(), d); }

void Controller::start() {
  {
    std::lock_guard<std::mutex> l(workers_mu_);
    if (started_) return;
    started_ = true;
  }
  // Keys queued before the start (the initial list) get their workers now.
  for (int i = 0; i < std::max(1, opts_.max_concurrent_reconciles); ++i) add_worker_if_needed();
}

std::vector<std::string> Controller::unsynced_sources() const {
  std::vector<std::string> out;
  for (const auto* inf : sources_)
    if (!inf->has_synced()) {
      auto what = inf->options().gvr.str();
      if (std::find(out.begin(), out.end(), what) == out.end()) out.push_back(what);
    }
  return out;
}

bool Controller::started() const {
  std::lock_guard<std::mutex> l(workers_mu_);
  return started_;
}

void Controller::add_worker_if_needed() {
  if (static_cast<std::size_t>(idle_.load()) >= queue_.len()) return;
  // try_lock: a worker adding a key while stop() joins the workers under this lock must not
  // wait for it (and a worker is being started by whoever holds it anyway).
  std::unique_lock<std::mutex> l(workers_mu_, std::try_to_lock);
  if (!l.owns_lock() || !started_ || queue_.shutting_down()) return;
  if (static_cast<int>(workers_.size()) >= std::max(1, opts_.max_concurrent_reconciles) + std::min(stuck_.load(), kMaxExtraWorkers))
    return;
  ++idle_;  // counted from now, so the next add does not start another for the same key
  workers_.emplace_back([this] { worker(); });
}

void Controller::shut_down() { queue_.shut_down_now(); }

void Controller::cancel() { stop_.request_stop(); }

bool Controller::wait(std::chrono::steady_clock::time_point deadline) {
  auto left = deadline - std::chrono::steady_clock::now();
  if (!queue_.wait_until_idle(std::max<workqueue::Duration>(workqueue::Duration::zero(), left))) {
    cancel();
    return false;
  }
  // Nothing is held, and get() hands nothing out once shut down: the workers are returning.
  std::lock_guard<std::mutex> l(workers_mu_);
  if (queue_.shutting_down()) {
    for (auto& w : workers_) w.join();
    workers_.clear();
  }
  return true;
}

bool Controller::stop(std::chrono::milliseconds grace) {
  shut_down();
  if (grace.count() <= 0) cancel();
  return wait(std::chrono::steady_clock::now() + grace);
}

void Controller::worker() {
  for (;;) {  // idle_ was counted for this worker before it started
    auto key = queue_.get();
    --idle_;
    if (!key) return;
    process(*key);
    queue_.done(*key);
    ++idle_;
  }
}

void Controller::process(const std::string& key) {
  Request req = Request::from_key(key);
  Context ctx;
  ctx.controller = opts_.name;
  ctx.reconcile_id = reconcile_id();
  ctx.log = log::Logger({{"controller", opts_.name}, {"namespace", req.ns}, {"name", req.name}, {"reconcileID", ctx.reconcile_id}});
  active_gauge_->set(++active_);
  auto t0 = std::chrono::steady_clock::now();
  std::atomic<bool> timed_out{false};
  bool stuck = false, over_memory = false;
  Result res;
  enum { Ok, Failed, Terminal } outcome = Ok;
  std::optional<Fault> fault;
  {
    // This reconcile's own cancellation: the controller's stop, or its time budget running out.
    std::stop_source own;
    std::stop_callback follow_controller(stop_.get_token(), [&own] { own.request_stop(); });
    ctx.stop = own.get_token();
    // The reconciler's API calls on this thread end when the controller cancels it.
    client::CancelScope cancel_scope(ctx.stop);
    std::atomic<bool> stuck_now{false};
    Watchdog::Id budget = 0, grace = 0;
    if (opts_.reconcile_timeout.count() > 0) {
      budget = Watchdog::global().watch(t0 + opts_.reconcile_timeout, [&] {
        timed_out = true;
        ctx.log.error("reconcile ran past its time budget; cancelling it",
                      {{"budget", std::to_string(opts_.reconcile_timeout.count()) + "ms"}});
        own.request_stop();
      });
      grace = Watchdog::global().watch(t0 + opts_.reconcile_timeout + opts_.stuck_grace, [&] {
        stuck_now = true;
        ++stuck_;
        ctx.log.error("reconcile has not returned since it was cancelled; another worker takes the controller's other keys");
        add_worker_if_needed();
      });
    }
    MemoryBudget::Scope memory(opts_.reconcile_memory_limit);
    try {
      res = reconciler_(req, ctx);
    } catch (const TerminalError& e) {
      outcome = Terminal;
      if (!memory.exceeded()) ctx.log.error("reconcile failed terminally; not retrying", {{"error", e.what()}});
      else ctx.log.error("reconcile ran past its memory budget; will retry with backoff", {{"error", e.what()}});
    } catch (const std::exception& e) {
      outcome = Failed;
      if (timed_out) ctx.log.error("reconcile cancelled past its time budget; will retry with backoff", {{"error", e.what()}});
      else if (memory.exceeded()) ctx.log.error("reconcile ran past its memory budget; will retry with backoff", {{"error", e.what()}});
      else if (ctx.stop.stop_requested()) ctx.log.info("reconcile cancelled: the controller is stopping", {{"error", e.what()}});
      else ctx.log.error("reconcile failed; will retry with backoff", {{"error", e.what()}});
    } catch (...) {
      outcome = Failed;
      panics_->inc();
      ctx.log.error("reconcile threw a non-standard exception; will retry with backoff");
      fault = Fault{Fault::Kind::Panic, "ReconcilePanic", "the reconcile threw an exception that is not a std::exception"};
    }
    // The scope's record, not the exception: a reconciler may have caught the bad_alloc (as a
    // std::exception) and returned, or thrown something else in its place.
    over_memory = memory.exceeded();
    if (over_memory && outcome == Ok)
      ctx.log.error("reconcile ran past its memory budget (its own error handling caught it); will retry with backoff");
    peak_memory_->observe(static_cast<double>(std::max<std::int64_t>(0, memory.peak())));
    if (budget) {
      Watchdog::global().cancel(budget);
      Watchdog::global().cancel(grace);
    }
    stuck = stuck_now;
  }
  if (stuck) --stuck_;
  if (over_memory) {
    memory_exceeded_->inc();
    outcome = Failed;  // whatever it returned or threw (even a TerminalError), it did not finish its work: retry
    fault = Fault{Fault::Kind::MemoryBudget, "ReconcileMemoryBudgetExceeded",
                  "the reconcile needed more than its memory budget of " + std::to_string(opts_.reconcile_memory_limit >> 20) +
                      " MiB (--reconcile-memory-limit); retrying with backoff"};
  }
  if (timed_out) {
    timeouts_->inc();
    if (outcome == Ok) outcome = Failed;  // whatever it returned, it did not finish its work in time
    fault = Fault{Fault::Kind::Timeout, "ReconcileTimeout",
                  "the reconcile ran past its time budget of " + std::to_string(opts_.reconcile_timeout.count() / 1000) +
                      "s (--reconcile-timeout) and was cancelled; retrying with backoff"};
  }
  if (fault) report_fault(req, ctx, *fault);
  time_->observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  active_gauge_->set(--active_);
  ++reconciles_;
  switch (outcome) {
    case Terminal:
      errors_total_->inc();
      terminal_->inc();
      error_->inc();
      queue_.forget(key);
      return;
    case Failed:
      errors_total_->inc();
      error_->inc();
      queue_.add_rate_limited(key);
      return;
    case Ok:
      break;
  }
  if (res.requeue_after.count() > 0) {
    queue_.forget(key);
    queue_.add_after(key, res.requeue_after);
    requeue_after_->inc();
  } else if (res.requeue) {
    queue_.add_rate_limited(key);
    requeue_->inc();
  } else {
    queue_.forget(key);
    success_->inc();
  }
}

void Controller::report_fault(const Request& req, Context& ctx, const Fault& fault) {
  if (!opts_.on_fault || stop_.stop_requested()) return;
  try {
    opts_.on_fault(req, fault);
  } catch (const std::exception& e) {
    ctx.log.error("could not record the failed reconcile on its object", {{"reason", fault.reason}, {"error", e.what()}});
  } catch (...) {
    ctx.log.error("could not record the failed reconcile on its object", {{"reason", fault.reason}});
  }
}

}  // namespace capstan::controller
