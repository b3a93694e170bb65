// Wiring into a manager that never starts: no request reaches its (unroutable) API server, no
// server listens, no thread reconciles, and the metrics the wiring registers land in a registry
// of its own. Plugin::informers() records what a plug-in reads this way; tests wire into it too.
//
//   plugin::DryRun dry;
//   p.wire(dry.wiring());
//   dry.manager().informers().informers();  // what it created
#pragma once

#include "runtime/plugin/plugin.h"

#include <memory>

namespace capstan::client {
class Client;
}
namespace capstan::metrics {
class Registry;
}

namespace capstan::plugin {

class DryRun {
 public:
  DryRun();
  ~DryRun();
  DryRun(const DryRun&) = delete;
  DryRun& operator=(const DryRun&) = delete;

  Wiring& wiring() { return *wiring_; }
  controller::Manager& manager() { return wiring_->manager; }
  webhook::Server& webhooks() { return wiring_->webhooks; }

 private:
  std::unique_ptr<client::Client> client_;
  std::unique_ptr<metrics::Registry> registry_;
  std::unique_ptr<controller::Manager> manager_;
  std::unique_ptr<webhook::Server> server_;
  Environment env_;
  std::unique_ptr<Wiring> wiring_;
};

}  // namespace capstan::plugin
