#include "manager/run.h"

#include "manager/flags.h"
#include "manager/signals.h"
#include "runtime/client/client.h"
#include "runtime/leader/elector.h"
#include "runtime/log/log.h"
#include "runtime/webhook/cert_rotator.h"
#include "runtime/webhook/server.h"

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace capstan::manager {
namespace {

// The process exits within this of SIGTERM: the reconciles' grace period (8 s by default),
// then the lease, caches and servers; past it the manager's watchdog ends the process.
constexpr std::chrono::milliseconds kShutdownDeadline{9500};
// --reconcile-timeout's default, for `capstan dev` too.
constexpr std::chrono::milliseconds kReconcileTimeout{300000};
// --reconcile-memory-limit's default: far above what a reconcile of a valid object holds
// (capstan_reconcile_peak_memory_bytes), far below what takes a node down.
constexpr std::size_t kReconcileMemoryLimit = std::size_t{256} << 20;

// The manager's leader election over a coordination.k8s.io Lease.
class LeaseElection : public controller::LeaderElection {
 public:
  LeaseElection(client::Client& client, const controller::LeaderElectionOptions& o) : client_(client) {
    config_.lease_namespace = o.ns;
    config_.lease_name = o.id;
    config_.identity = o.identity;
    config_.lease_duration = o.lease_duration;
    config_.renew_deadline = o.renew_deadline;
    config_.retry_period = o.retry_period;
    config_.release_on_cancel = true;
    try {
      leader::validate(config_.identity.empty() ? with_identity(config_) : config_);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("leader election: ") + e.what());
    }
  }
  void start(std::function<void()> started, std::function<void()> stopped) override {
    leader::Callbacks cb;
    cb.on_started_leading = [started, stopped](std::stop_token leading) {
      started();
      // Leadership ends (renewals failed, or a stop): tell the manager before the elector
      // tries to release the lease, so reconciling stops at once.
      std::mutex m;
      std::condition_variable_any cv;
      std::unique_lock<std::mutex> l(m);
      cv.wait(l, leading, [] { return false; });
      stopped();
    };
    cb.on_stopped_leading = [stopped] { stopped(); };
    cb.on_new_leader = [](const std::string& who) {
      if (!who.empty()) log::info("leader observed", {{"identity", who}});
    };
    elector_ = std::make_unique<leader::LeaderElector>(client_, config_, std::move(cb));
    log::info("campaigning for leadership", {{"lease", config_.lease_namespace + "/" + config_.lease_name},
                                             {"identity", elector_->identity()}});
    elector_->start();
  }
  void stop() override {
    if (elector_) elector_->stop();
  }
  void release_now(std::chrono::milliseconds timeout) override {
    if (elector_) elector_->release_now(timeout);
  }

 private:
  static leader::Config with_identity(leader::Config c) {
    c.identity = leader::default_identity();
    return c;
  }
  client::Client& client_;
  leader::Config config_;
  std::unique_ptr<leader::LeaderElector> elector_;
};

}  // namespace

int run_controllers(client::Client& client, const RunOptions& o) {
  controller::ManagerOptions mo = o.manager;
  if (mo.shutdown_deadline.count() == 0) mo.shutdown_deadline = kShutdownDeadline;
  if (mo.reconcile_timeout.count() == 0) mo.reconcile_timeout = kReconcileTimeout;
  mo.reconcile_memory_limit = o.reconcile_memory_limit.value_or(kReconcileMemoryLimit);
  // Declared before the manager, which holds callbacks that stop it.
  std::unique_ptr<webhook::CertRotator> certs;
  // Events have a rate limiter of their own (Manager::event_client); declared before the manager,
  // which with its controllers holds the recorders that write through it.
  client::Client events(client.config());
  controller::Manager mgr(client, mo);
  mgr.set_event_client(events);
  if (o.manager.leader_election.enabled)
    mgr.set_leader_election(std::make_unique<LeaseElection>(client, o.manager.leader_election));
  webhook::ServerOptions wo;
  wo.host = o.webhook_host;
  wo.port = o.webhook_port;
  wo.cert_dir = o.webhook_cert_dir;
  if (!o.webhook_cert_secret.empty())  // a renewed certificate is served within a check
    wo.cert_reload_interval = std::min<std::chrono::seconds>(
        wo.cert_reload_interval, std::chrono::ceil<std::chrono::seconds>(o.webhook_cert_check_interval));
  webhook::Server webhooks(wo);
  if (!o.webhook_cert_secret.empty()) {
    webhook::CertRotatorOptions co;
    co.ns = o.env.pod_namespace;
    co.secret_name = o.webhook_cert_secret;
    co.hosts = o.webhook_cert_hosts;
    co.cert_dir = webhooks.options().cert_dir.empty() ? webhook::default_cert_dir() : webhooks.options().cert_dir;
    co.cert_validity = o.webhook_cert_validity;
    co.ca_validity = o.webhook_ca_validity;
    co.check_interval = o.webhook_cert_check_interval;
    certs = std::make_unique<webhook::CertRotator>(client, co);
    certs->ensure();  // the server needs the files before it starts,
    certs->inject();  // and every configuration its CA: none is served without it in between
    mgr.add_server("webhook-certificate", [&] { certs->start(); }, [&] { certs->stop(); });
  }
  std::string names;
  // Each controller's watches create the shared informers it reads (one per resource and
  // selector, whoever asks first); nothing starts before run().
  plugin::Environment env = o.env;
  for (const auto* p : o.controllers) env.enabled.push_back(p->name());
  plugin::Wiring wiring{mgr, webhooks, env};
  for (const auto* p : o.controllers) {
    p->wire(wiring);
    names += (names.empty() ? "" : ",") + p->name();
  }
  // Webhooks serve before the caches sync (conversion must answer the cache's lists).
  if (webhooks.has_paths()) {
    mgr.add_server("webhook", [&] { webhooks.start(); }, [&] { webhooks.stop(); });
    mgr.health().add_readiness("webhook", [&] { return webhooks.started() ? std::string() : std::string("webhook server not serving"); });
  }
  log::info("controllers enabled", {{"controllers", names.empty() ? "(none)" : names}, {"informers", mgr.informers().informers().size()}});
  // SIGTERM/SIGINT stop the manager; the thread is woken and joined however run() ends.
  std::thread signals([&] {
    int sig = wait_for_termination();
    log::info("signal received; shutting down", {{"signal", sig}});
    mgr.stop();
  });
  struct JoinSignals {
    std::thread& t;
    ~JoinSignals() {
      request_termination();
      t.join();
    }
  } join_signals{signals};
  if (o.on_ready) o.on_ready(mgr);
  int rc = mgr.run();
  return rc;
}

}  // namespace capstan::manager
