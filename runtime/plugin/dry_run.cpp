#include "runtime/plugin/dry_run.h"

#include "runtime/client/client.h"
#include "runtime/controller/manager.h"
#include "runtime/metrics/registry.h"
#include "runtime/webhook/server.h"

namespace capstan::plugin {

DryRun::DryRun() {
  client::Config config;
  config.server = "https://127.0.0.1:1";
  client_ = std::make_unique<client::Client>(config);
  registry_ = std::make_unique<metrics::Registry>();
  controller::ManagerOptions mo;
  mo.registry = registry_.get();
  mo.metrics_bind_address = "0";
  mo.health_probe_bind_address = "0";
  manager_ = std::make_unique<controller::Manager>(*client_, mo);
  webhook::ServerOptions wo;
  wo.port = 0;
  wo.registry = registry_.get();
  server_ = std::make_unique<webhook::Server>(wo);
  wiring_ = std::make_unique<Wiring>(Wiring{*manager_, *server_, env_});
}

// The manager goes first (its controllers hold what the wiring made), the server, then the
// registry they counted into and the client they would have called.
DryRun::~DryRun() {
  wiring_.reset();
  manager_.reset();
  server_.reset();
}

}  // namespace capstan::plugin
