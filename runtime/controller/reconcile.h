// What a reconciler sees and returns: controller-runtime's reconcile.Request / Result.
// Reconcilers are plain functions of (request, context) -> Result, level-triggered and
// idempotent; an exception is logged, counted and retried with per-item backoff.
#pragma once

#include "runtime/log/log.h"

#include <chrono>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>

namespace capstan::controller {

struct Request {
  std::string ns;
  std::string name;

  std::string key() const { return ns.empty() ? name : ns + "/" + name; }
  static Request from_key(std::string_view key);
  bool operator==(const Request&) const = default;
};

struct Result {
  bool requeue = false;                        // rate-limited requeue
  std::chrono::milliseconds requeue_after{0};  // requeue after this (wins over requeue)

  static Result done() { return {}; }
  static Result after(std::chrono::milliseconds d) { return {false, d}; }
  static Result again() { return {true, {}}; }
};

// Thrown by a reconciler for an error that retrying cannot fix: logged and counted,
// not requeued.
class TerminalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A reconcile that failed in a way its reconciler could not report itself: it ran past its
// time budget, past its memory budget, or threw something that is not a std::exception. The
// controller hands it to ControllerOptions::on_fault (the builder records it on the object as a
// condition and an event) besides its log line and metric.
struct Fault {
  enum class Kind { Timeout, MemoryBudget, Panic };
  Kind kind;
  std::string reason;   // ReconcileTimeout, ReconcileMemoryBudgetExceeded, ReconcilePanic
  std::string message;  // what happened and which budget, for humans
};

struct Context {
  std::string controller;
  std::string reconcile_id;  // unique per call, in every log line
  log::Logger log;
  // Stops when the controller cancels running reconciles (the shutdown grace period ran out,
  // or leadership was lost). The API calls the reconciler makes on its worker thread then fail
  // with http::Cancelled; long work of its own should check stop_requested() (or wait with a
  // std::condition_variable_any on it) and return.
  std::stop_token stop;
};

}  // namespace capstan::controller
