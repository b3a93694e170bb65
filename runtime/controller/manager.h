// The manager: one client, one shared informer cache, many controllers, the metrics and
// health endpoints, extra servers (webhooks), and optional leader election. Starts in
// controller-runtime's order (servers, caches, then - as leader - controllers) and stops in
// reverse: controllers take no new work and their running reconciles get the grace period
// (then are cancelled), the lease is released, caches and servers stop.
//
// A lost lease stops reconciling at once (running reconciles are cancelled, nothing queued is
// started) and run() returns 1. Each controller starts once the informers it reads have synced,
// whatever the others' do (a resource the manager may not list holds back only the controllers
// reading it; after cache_sync_timeout an error names them and the resources). With
// shutdown_deadline set, a watchdog ends the process if the manager has not been
// destroyed that long after the stop began (releasing the lease first if held).
#pragma once

#include "runtime/cache/factory.h"
#include "runtime/controller/builder.h"
#include "runtime/controller/controller.h"
#include "runtime/health/health.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace capstan::client {
class Client;
}
namespace capstan::http {
class Server;
}
namespace capstan::metrics {
class Registry;
}

namespace capstan::controller {

struct LeaderElectionOptions {
  bool enabled = false;
  std::string id = "capstan-manager";   // the Lease name
  std::string ns = "default";           // the Lease namespace
  std::string identity;                 // default: hostname_<uuid>
  std::chrono::milliseconds lease_duration{15000};
  std::chrono::milliseconds renew_deadline{10000};
  std::chrono::milliseconds retry_period{2000};
};

// What the manager needs from a leader elector (runtime/leader provides the Lease one).
class LeaderElection {
 public:
  virtual ~LeaderElection() = default;
  // Campaigns in the background; `started` runs when this process leads, `stopped` when it
  // no longer does (lease lost, or after stop()).
  virtual void start(std::function<void()> started, std::function<void()> stopped) = 0;
  // Stops campaigning and releases the lease if held.
  virtual void stop() = 0;
  // For a process that must exit now (the shutdown watchdog): releases the lease if held,
  // from any thread, without waiting for the campaign to stop; bounded by `timeout`.
  virtual void release_now(std::chrono::milliseconds timeout) {}
};

struct ManagerOptions {
  std::string namespace_restriction;              // every namespaced watch narrowed to this
  std::string metrics_bind_address = ":8080";     // "0" disables
  // Serve /metrics over HTTPS: with <metrics_cert_dir>/tls.crt and tls.key (re-read when they
  // change) when the directory is set, else with a self-signed certificate made at start.
  bool metrics_secure = false;
  std::string metrics_cert_dir;
  std::string health_probe_bind_address = ":8081";
  // How long running reconciles may take to finish after a stop before they are cancelled.
  std::chrono::milliseconds graceful_shutdown{8000};
  // After this, an error is logged (the wait goes on until the caches sync or a stop).
  std::chrono::milliseconds cache_sync_timeout{120000};
  // Last resort: once a stop begins, the process is ended with exit_process(1) if the manager
  // has not been destroyed within this time (the lease is released first if held). 0 = off.
  std::chrono::milliseconds shutdown_deadline{0};
  std::function<void(int code)> exit_process;     // default: std::_Exit
  LeaderElectionOptions leader_election;
  metrics::Registry* registry = nullptr;          // nullptr = the global registry
  // Every controller's time budget per reconcile unless its options set one (0 = none).
  std::chrono::milliseconds reconcile_timeout{0};
  // Every controller's memory budget per reconcile unless its options set one (0 = none).
  std::size_t reconcile_memory_limit = 0;
};

class Manager {
 public:
  Manager(client::Client& client, ManagerOptions options);
  ~Manager();
  Manager(const Manager&) = delete;
  Manager& operator=(const Manager&) = delete;

  client::Client& client() { return client_; }
  // The client Events are written through: by default the manager's own; run_controllers gives
  // it one of the same server and credentials with its own rate limiter, as client-go's event
  // broadcaster has its own clientset, so a burst of Events never holds back a reconcile's
  // writes, nor the reverse. `events` must outlive the manager and whatever records through it.
  client::Client& event_client() { return event_client_ ? *event_client_ : client_; }
  void set_event_client(client::Client& events) { event_client_ = &events; }
  cache::InformerFactory& informers() { return informers_; }
  // The shared informer of `type`, narrowed by `label_selector` ("" = every object).
  cache::Informer& informer(const ResourceType& type, std::string_view label_selector = {});
  health::Checks& health() { return health_; }
  metrics::Registry* metrics_registry() { return opts_.registry; }
  const ManagerOptions& options() const { return opts_; }

  Builder controller(std::string name) { return Builder(*this, std::move(name)); }
  Controller& add_controller(ControllerOptions o, Reconciler r);

  // A server started before the caches (webhooks must serve before conversion is needed)
  // and stopped after everything else.
  void add_server(std::string name, std::function<void()> start, std::function<void()> stop);
  // Work that runs only while this manager leads, next to the controllers.
  void add_leader_runnable(std::string name, std::function<void()> start, std::function<void()> stop);

  // With leader_election.enabled, the elector to campaign with (required then).
  void set_leader_election(std::unique_ptr<LeaderElection> e) { elector_ = std::move(e); }

  // Runs until stop() (returns 0) or until leadership is lost (returns 1).
  int run();
  // Makes run() stop (from any thread, e.g. on SIGTERM); arms the shutdown watchdog.
  void stop();
  bool is_leader() const { return leading_.load(); }
  bool caches_synced() const { return informers_.all_synced(); }
  std::uint16_t metrics_port() const;
  std::uint16_t health_port() const;

 private:
  struct Runnable {
    std::string name;
    std::function<void()> start, stop;
  };
  void start_http();
  void stop_http();
  void start_leading();
  // While leading: starts every controller whose sources have synced and has not started yet;
  // past cache_sync_timeout logs, once per controller, the sources it still waits for.
  // Called with mu_ held.
  void start_synced_controllers();
  // Stops every controller taking work, then gives running reconciles `grace` (0: cancels
  // them at once). Returns whether they all finished in time.
  bool stop_leading(std::chrono::milliseconds grace);
  void lost_leadership();
  int shut_down();
  void arm_watchdog();
  void watchdog(std::chrono::steady_clock::time_point deadline);

  client::Client& client_;
  client::Client* event_client_ = nullptr;
  ManagerOptions opts_;
  cache::InformerFactory informers_;
  health::Checks health_;
  std::vector<std::unique_ptr<Controller>> controllers_;
  std::vector<Runnable> servers_, leader_runnables_;
  std::unique_ptr<http::Server> metrics_server_, health_server_;
  std::unique_ptr<LeaderElection> elector_;

  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_requested_ = false;
  bool lost_lease_ = false;
  std::atomic<bool> leading_{false};
  bool controllers_running_ = false;
  std::chrono::steady_clock::time_point caches_started_;
  std::vector<const Controller*> sync_reported_;  // controllers whose slow caches were logged

  std::mutex watchdog_mu_;
  std::condition_variable watchdog_cv_;
  bool watchdog_done_ = false;  // the manager is gone: the watchdog stands down
  std::thread watchdog_;
};

}  // namespace capstan::controller
