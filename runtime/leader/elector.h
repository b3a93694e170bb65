// Lease-based leader election with client-go's semantics (tools/leaderelection with the
// LeaseLock):
//
//   leader::LeaderElector elector(client, {.lease_namespace = "capstan-system", .lease_name = "capstan-manager"},
//                                 {.on_started_leading = [&](std::stop_token t) { start_controllers(t); },
//                                  .on_stopped_leading = [&] { if (elector_ptr->lost()) std::exit(1); }});
//   elector.start();   // or elector.run(token) on a thread of your own
//   ...
//   elector.stop();    // stops leading and releases the lease (release_on_cancel)
//
// A candidate takes the lease when it is absent, held by nobody (""), held by itself, or
// expired: not seen to change for the holder's leaseDurationSeconds, timed from when this
// candidate last observed a change (client-go's observedTime, on the monotonic clock).
// Acquisition is retried every retry_period (+ up to 1.2x jitter). The leader renews every
// retry_period; when renewals keep failing for renew_deadline it stops leading and run()
// returns (it does not try to lead again: as with client-go, the process is expected to exit).
// Writes are optimistic (resourceVersion): a 409 means another candidate won the race.
//
// The lease requests use a dedicated client built from the given client's Config, with the
// request timeout controller-runtime uses for leases (max(renew_deadline/2, 1s)), no
// Retry-After retries (the election loop retries itself) and "/leader-election" appended to
// the user agent.
#pragma once

#include "runtime/leader/config.h"
#include "runtime/leader/lease_lock.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>

namespace capstan::client {
class Client;
}
namespace capstan::metrics {
class Registry;
class Gauge;
class Counter;
}  // namespace capstan::metrics

namespace capstan::leader {

class LeaderElector {
 public:
  // Fills in the default identity, then validates (std::invalid_argument, see validate()).
  // `registry` receives leader_election_master_status{name} and leader_election_slowpath_total{name}
  // (name = the lease name); nullptr = metrics::Registry::global().
  LeaderElector(client::Client& client, Config config, Callbacks callbacks = {}, metrics::Registry* registry = nullptr);
  ~LeaderElector();  // stop()
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;

  // Campaigns, leads, and returns when `stop` is requested or leadership is lost. On a stop
  // while leading: the leading token is stopped, on_started_leading is joined, then (with
  // release_on_cancel) the lease is released, then on_stopped_leading runs.
  void run(std::stop_token stop);
  // run() on a background thread. Throws std::logic_error when already started.
  void start();
  // Requests the stop and waits for run() to end (releasing the lease as configured). Idempotent.
  void stop();
  // Stops without releasing and without any further write, as if the process died: other
  // candidates take over once the lease expires. For tests and for a process that must exit fast.
  void abandon();
  // For a process that must exit now (a shutdown watchdog): this elector writes the lease no
  // more, and when this candidate holds it, releases it at once from the calling thread,
  // without waiting for run(), with requests bounded by `timeout` (a client of its own).
  // Returns whether it released the lease.
  bool release_now(std::chrono::milliseconds timeout);

  // Whether this candidate currently leads (between acquiring and the end of leadership).
  bool is_leader() const { return leading_.load(); }
  // The holder last observed in the lease ("" when unknown or released).
  std::string leader_identity() const;
  const std::string& identity() const { return config_.identity; }
  const Config& config() const { return config_; }
  // Whether leadership ended because renewals failed for renew_deadline (not by a stop).
  bool lost() const { return lost_.load(); }
  // Whether run() is executing.
  bool running() const { return running_.load(); }

 private:
  bool acquire(std::stop_token stop);
  // Returns when leadership ends; sets lost_ when renewals failed.
  void renew(std::stop_token stop);
  void release();
  // Releases the lease through `lock` if the fresh record still names this candidate.
  bool release_with(LeaseLock& lock);
  bool try_acquire_or_renew();
  void maybe_report_transition();
  void set_observed(const Record& r);
  bool holds_lease() const;  // client-go's IsLeader(): the observed holder is us
  bool lease_valid(std::chrono::steady_clock::time_point now) const;
  void record_event(const std::string& what);
  // Sleeps `d` unless `stop` is requested first; returns false when stopped.
  bool sleep_for(std::stop_token stop, std::chrono::steady_clock::duration d);

  Config config_;
  Callbacks callbacks_;
  std::unique_ptr<client::Client> lease_client_;
  std::unique_ptr<LeaseLock> lock_;
  metrics::Gauge* master_status_ = nullptr;
  metrics::Counter* slowpath_ = nullptr;

  mutable std::mutex mu_;  // observed state
  Record observed_;
  std::string observed_raw_;
  std::chrono::steady_clock::time_point observed_time_{};
  std::string reported_leader_;  // elector thread only

  std::atomic<bool> leading_{false};
  std::atomic<bool> lost_{false};
  std::atomic<bool> running_{false};
  std::atomic<bool> abandon_{false};

  std::mutex thread_mu_;
  std::jthread thread_;
};

}  // namespace capstan::leader
