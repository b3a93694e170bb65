#include "runtime/controller/manager.h"

#include "runtime/http/server.h"
#include "runtime/log/log.h"
#include "runtime/metrics/exposition.h"
#include "runtime/metrics/process_collector.h"
#include "runtime/metrics/registry.h"

namespace capstan::controller {
namespace {

std::unique_ptr<http::Server> serve(const std::string& name, const std::string& bind, http::Handler handler) {
  if (bind.empty() || bind == "0") return nullptr;
  auto [host, port] = http::split_host_port(bind);
  http::ServerOptions o;
  o.name = name;
  o.address = host;  // ":8080": every interface, IPv6 and IPv4
  o.port = port;
  o.handler_threads = 2;
  auto s = std::make_unique<http::Server>(o, std::move(handler));
  s->start();
  return s;
}

}  // namespace

Manager::Manager(client::Client& client, ManagerOptions options)
    : client_(client), opts_(std::move(options)), informers_(client, cache::FactoryOptions{opts_.namespace_restriction}) {
  metrics::register_process_collector(opts_.registry ? *opts_.registry : metrics::Registry::global());
  health_.add_liveness("ping", [] { return std::string(); });
  health_.add_readiness("informers", [this] { return informers_.all_synced() ? std::string() : std::string("caches not synced"); });
}

Manager::~Manager() {
  stop();
  stop_leading();
  informers_.stop();
  stop_http();
}

Controller& Manager::add_controller(ControllerOptions o, Reconciler r) {
  if (!o.registry) o.registry = opts_.registry;
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
  metrics_server_ = serve("metrics", opts_.metrics_bind_address, [&registry](http::Request& req, http::Reply& reply) {
    if (req.path() != "/metrics") return reply.send(http::Response(404, "404 page not found\n", "text/plain; charset=utf-8"));
    reply.send(http::Response(200, metrics::render(registry), metrics::kContentType));
  });
  health_server_ = serve("health", opts_.health_probe_bind_address, [this](http::Request& req, http::Reply& reply) {
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
  log::info("starting controllers", {{"controllers", controllers_.size()}});
  for (auto& c : controllers_) c->start();
  for (auto& r : leader_runnables_) r.start();
}

void Manager::stop_leading() {
  std::vector<Controller*> cs;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (!controllers_running_) return;
    controllers_running_ = false;
    for (auto& c : controllers_) cs.push_back(c.get());
  }
  leading_ = false;
  for (auto it = leader_runnables_.rbegin(); it != leader_runnables_.rend(); ++it) it->stop();
  // Running reconciles finish within the grace period, shared by every controller.
  auto deadline = std::chrono::steady_clock::now() + opts_.graceful_shutdown;
  for (auto* c : cs) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (!c->stop(std::max(left, std::chrono::milliseconds(0))))
      log::warn("controller did not finish its running reconciles within the grace period", {{"controller", c->name()}});
  }
}

int Manager::run() {
  start_http();
  for (auto& s : servers_) s.start();
  informers_.start();
  // Reconcilers start once caches are warm (and, with leader election, once leading).
  if (!informers_.wait_for_sync(opts_.cache_sync_timeout)) {
    std::lock_guard<std::mutex> l(mu_);
    if (!stop_requested_) log::error("caches did not sync in time; continuing to wait", {{"timeout", std::to_string(opts_.cache_sync_timeout.count()) + "ms"}});
  }
  while (true) {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (stop_requested_) break;
    }
    if (informers_.wait_for_sync(std::chrono::milliseconds(200))) break;
  }
  if (!opts_.leader_election.enabled) {
    start_leading();
  } else {
    if (!elector_) throw std::logic_error("leader election is enabled but no elector was set");
    elector_->start([this] { start_leading(); },
                    [this] {
                      // Lost the lease (or released it on stop): stop reconciling at once.
                      std::lock_guard<std::mutex> l(mu_);
                      if (!stop_requested_) {
                        log::error("leader election lost; stopping");
                        lost_lease_ = true;
                        stop_requested_ = true;
                        cv_.notify_all();
                      }
                    });
  }
  {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return stop_requested_; });
  }
  log::info("stopping");
  stop_leading();
  if (elector_) elector_->stop();  // releases the lease after the reconcilers finished
  informers_.stop();
  for (auto it = servers_.rbegin(); it != servers_.rend(); ++it) it->stop();
  stop_http();
  return lost_lease_ ? 1 : 0;
}

void Manager::stop() {
  std::lock_guard<std::mutex> l(mu_);
  stop_requested_ = true;
  cv_.notify_all();
}

}  // namespace capstan::controller
