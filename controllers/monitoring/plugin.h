// The monitoring controller's plug-in (runtime/plugin): prometheus-operator's Prometheus,
// ServiceMonitor, PodMonitor and PrometheusRule under monitoring.capstan.dev, with the group's
// admission webhooks (webhooks/monitoring).
//
//   registry.add(monitoring::plugin());                                      // "monitoring", default on
//   auto env = monitoring::wire_monitoring(mgr, options);                     // tests: explicit options
#pragma once

#include "controllers/monitoring/env.h"
#include "runtime/plugin/plugin.h"

#include <memory>

namespace capstan::controller {
class Manager;
}

namespace capstan::monitoring {

plugin::Plugin plugin();

// Adds the "prometheus" controller to `mgr`.
std::shared_ptr<Env> wire_monitoring(controller::Manager& mgr, MonitoringOptions options);

}  // namespace capstan::monitoring
