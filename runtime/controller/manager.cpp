#include "runtime/controller/manager.h"

#include "runtime/controller/metrics_tls.h"
#include "runtime/http/server.h"
#include "runtime/log/log.h"
#include "runtime/metrics/exposition.h"
#include "runtime/metrics/process_collector.h"
#include "runtime/metrics/registry.h"

#include <algorithm>
#include <cstdlib>
#include <future>

namespace capstan::controller {
namespace {

using SteadyClock = std::chrono::steady_clock;

// How often the wait for the caches looks at them (it wakes at once on a stop).
constexpr auto kCacheSyncPoll = std::chrono::milliseconds(50);
// The part of the shutdown deadline the watchdog keeps for releasing the lease.
constexpr auto kWatchdogReleaseBudget = std::chrono::milliseconds(500);

std::unique_ptr<http::Server> serve(const std::string& name, const std::string& bind, std::optional<http::ServerTls> tls,
                                    http::Handler handler) {
  if (bind.empty() || bind == "0") return nullptr;
  auto [host, port] = http::split_host_port(bind);
  http::ServerOptions o;
  o.name = name;
  o.address = host;  // ":8080": every interface, IPv6 and IPv4
  o.port = port;
  o.handler_threads = 2;
  o.tls = std::move(tls);
  auto s = std::make_unique<http::Server>(o, std::move(handler));
  s->start();
  return s;
}

std::string ms(std::chrono::milliseconds d) { return std::to_string(d.count()) + "ms"; }

}  // namespace

Manager::Manager(client::Client& client, ManagerOptions options)
    : client_(client), opts_(std::move(options)), informers_(client, cache::FactoryOptions{opts_.namespace_restriction}) {
  if (!opts_.exit_process) opts_.exit_process = [](int code) { std::_Exit(code); };
  metrics::register_process_collector(opts_.registry ? *opts_.registry : metrics::Registry::global());
  health_.add_liveness("ping", [] { return std::string(); });
  // Ready once the caches have synced - or once cache_sync_timeout has passed: a resource the
  // manager may not list then holds back only its controllers (logged), not the webhooks every
  // other controller's users need, which a Service sends only to ready pods.
  health_.add_readiness("informers", [this] {
    if (informers_.all_synced() || SteadyClock::now() - caches_started_ > opts_.cache_sync_timeout) return std::string();
    return std::string("caches not synced");
  });
}

Manager::~Manager() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_requested_ = true;
  }
  stop_leading(std::chrono::milliseconds(0));
  if (elector_) elector_->stop();
  informers_.stop();
  stop_http();
  // Joins the workers; reconciles still running were cancelled, so they return soon (the
  // watchdog covers one that does not).
  controllers_.clear();
  {
    std::lock_guard<std::mutex> l(watchdog_mu_);
    watchdog_done_ = true;
    watchdog_cv_.notify_all();
  }
  if (watchdog_.joinable()) watchdog_.join();
}

cache::Informer& Manager::informer(const ResourceType& type, std::string_view label_selector) {
  cache::InformerOptions o;
  o.gvr = type.gvr;
  o.label_selector = std::string(label_selector);
  return informers_.informer(std::move(o), type.namespaced);
}

Controller& Manager::add_controller(ControllerOptions o, Reconciler r) {
  if (!o.registry) o.registry = opts_.registry;
  if (o.reconcile_timeout.count() == 0) o.reconcile_timeout = opts_.reconcile_timeout;
  if (o.reconcile_memory_limit == 0) o.reconcile_memory_limit = opts_.reconcile_memory_limit;
  for (const auto& c : controllers_)
    if (c->name() == o.name) throw std::invalid_argument("a controller named \"" + o.name + "\" is already registered");
  controllers_.push_back(std::make_unique<Controller>(std::move(o), std::move(r)));
  return *controllers_.back();
}

void Manager::add_server(std::string name, std::function<void()> start, std::function<void()> stop) {
  servers_.push_back({std::move(name), std::move(start), std::move(stop)});
}

void Manager::add_leader_runnable(std::string name, std::function<void()> start, std::function<void()> stop) {
  leader_runnables_.push_back({std::move(name), std::move(start), std::move(stop)});
}

void Manager::start_http() {
  auto& registry = opts_.registry ? *opts_.registry : metrics::Registry::global();
  std::optional<http::ServerTls> metrics_tls;
  if (opts_.metrics_secure && opts_.metrics_bind_address != "0" && !opts_.metrics_bind_address.empty())
    metrics_tls = metrics_server_tls(opts_.metrics_cert_dir);
  metrics_server_ = serve("metrics", opts_.metrics_bind_address, std::move(metrics_tls), [&registry](http::Request& req, http::Reply& reply) {
    if (req.path() != "/metrics") return reply.send(http::Response(404, "404 page not found\n", "text/plain; charset=utf-8"));
    reply.send(http::Response(200, metrics::render(registry), metrics::kContentType));
  });
  if (metrics_server_)
    log::info("serving metrics", {{"address", metrics_server_->address()}, {"secure", opts_.metrics_secure ? "true" : "false"}});
  health_server_ = serve("health", opts_.health_probe_bind_address, std::nullopt, [this](http::Request& req, http::Reply& reply) {
    if (auto r = health_.handle(req)) return reply.send(std::move(*r));
    reply.send(http::Response(404, "404 page not found\n", "text/plain; charset=utf-8"));
  });
}

void Manager::stop_http() {
  if (metrics_server_) metrics_server_->stop();
  if (health_server_) health_server_->stop();
  metrics_server_.reset();
  health_server_.reset();
}

std::uint16_t Manager::metrics_port() const { return metrics_server_ ? metrics_server_->port() : 0; }
std::uint16_t Manager::health_port() const { return health_server_ ? health_server_->port() : 0; }

void Manager::start_leading() {
  std::lock_guard<std::mutex> l(mu_);
  if (controllers_running_ || stop_requested_) return;
  controllers_running_ = true;
  leading_ = true;
  log::info("leading: controllers start as their caches sync", {{"controllers", controllers_.size()}});
  for (auto& r : leader_runnables_) r.start();
  start_synced_controllers();
}

void Manager::start_synced_controllers() {
  if (!controllers_running_ || stop_requested_) return;
  bool late = SteadyClock::now() - caches_started_ > opts_.cache_sync_timeout;
  for (auto& c : controllers_) {
    if (c->started()) continue;
    auto waiting = c->unsynced_sources();
    if (waiting.empty()) {
      log::info("starting controller", {{"controller", c->name()}});
      c->start();
    } else if (late && std::find(sync_reported_.begin(), sync_reported_.end(), c.get()) == sync_reported_.end()) {
      std::string list;
      for (const auto& w : waiting) list += (list.empty() ? "" : ", ") + w;
      log::error("controller's caches have not synced; it waits for them while the other controllers run (may the manager "
                 "list and watch these resources, and are their CRDs installed?)",
                 {{"controller", c->name()}, {"resources", list}, {"timeout", ms(opts_.cache_sync_timeout)}});
      sync_reported_.push_back(c.get());
    }
  }
}

bool Manager::stop_leading(std::chrono::milliseconds grace) {
  std::vector<Controller*> cs;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (!controllers_running_) return true;
    controllers_running_ = false;
    for (auto& c : controllers_) cs.push_back(c.get());
  }
  leading_ = false;
  // No controller takes new work from here on (all of them at once: none works through its
  // queue while another drains).
  for (auto* c : cs) c->shut_down();
  if (grace.count() <= 0)
    for (auto* c : cs) c->cancel();
  for (auto it = leader_runnables_.rbegin(); it != leader_runnables_.rend(); ++it) it->stop();
  // Running reconciles finish within the grace period, shared by every controller; those
  // still running then are cancelled.
  auto deadline = SteadyClock::now() + grace;
  bool all = true;
  for (auto* c : cs) {
    if (!c->wait(deadline)) {
      all = false;
      if (grace.count() > 0)
        log::warn("controller's running reconciles did not finish within the grace period; cancelled them",
                  {{"controller", c->name()}, {"gracePeriod", ms(grace)}});
    }
  }
  return all;
}

void Manager::lost_leadership() {
  std::vector<Controller*> cs;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (stop_requested_) return;  // the lease was released on purpose
    log::error("leader election lost; stopping reconciles at once");
    lost_lease_ = true;
    stop_requested_ = true;
    cv_.notify_all();
    if (controllers_running_)
      for (auto& c : controllers_) cs.push_back(c.get());
  }
  // Another candidate may lead from now on: no reconcile of ours may act any more.
  for (auto* c : cs) {
    c->shut_down();
    c->cancel();
  }
  arm_watchdog();
}

int Manager::run() {
  caches_started_ = SteadyClock::now();
  start_http();
  for (auto& s : servers_) s.start();
  informers_.start();
  // Each controller starts once leading and once its own caches are warm.
  if (!opts_.leader_election.enabled) {
    start_leading();
  } else {
    if (!elector_) throw std::logic_error("leader election is enabled but no elector was set");
    elector_->start([this] { start_leading(); }, [this] { lost_leadership(); });
  }
  {
    std::unique_lock<std::mutex> l(mu_);
    while (!stop_requested_) {
      start_synced_controllers();
      cv_.wait_for(l, kCacheSyncPoll);
    }
  }
  return shut_down();
}

int Manager::shut_down() {
  bool lost;
  {
    std::lock_guard<std::mutex> l(mu_);
    lost = lost_lease_;
  }
  log::info("stopping", {{"gracePeriod", ms(lost ? std::chrono::milliseconds(0) : opts_.graceful_shutdown)}});
  bool finished = stop_leading(lost ? std::chrono::milliseconds(0) : opts_.graceful_shutdown);
  if (elector_) elector_->stop();  // releases the lease once the reconcilers are done
  informers_.stop();
  for (auto it = servers_.rbegin(); it != servers_.rend(); ++it) it->stop();
  stop_http();
  if (lost) return 1;
  log::info(finished ? "stopped" : "stopped; reconciles still running at the end of the grace period were cancelled");
  return 0;
}

void Manager::stop() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_requested_ = true;
    cv_.notify_all();
  }
  arm_watchdog();
}

void Manager::arm_watchdog() {
  if (opts_.shutdown_deadline.count() <= 0) return;
  std::lock_guard<std::mutex> l(watchdog_mu_);
  if (watchdog_.joinable() || watchdog_done_) return;
  auto deadline = SteadyClock::now() + opts_.shutdown_deadline;
  watchdog_ = std::thread([this, deadline] { watchdog(deadline); });
}

void Manager::watchdog(SteadyClock::time_point deadline) {
  auto budget = std::min<std::chrono::milliseconds>(kWatchdogReleaseBudget, opts_.shutdown_deadline / 4);
  {
    std::unique_lock<std::mutex> l(watchdog_mu_);
    if (watchdog_cv_.wait_until(l, deadline - budget, [&] { return watchdog_done_; })) return;
  }
  log::error("shutdown did not finish in time; exiting now", {{"deadline", ms(opts_.shutdown_deadline)}});
  if (elector_) {
    // On a thread of its own: the process exits at the deadline whether or not it is done.
    auto released = std::make_shared<std::promise<void>>();
    auto done = released->get_future();
    std::thread([e = elector_.get(), budget, released] {
      try {
        e->release_now(budget);
      } catch (const std::exception& ex) {
        log::error("releasing the lease before exiting failed", {{"error", ex.what()}});
      }
      released->set_value();
    }).detach();
    done.wait_until(deadline);
  }
  opts_.exit_process(1);
}

}  // namespace capstan::controller
