// The monitoring controller's entry in the manager registry (manager/registry.h):
// prometheus-operator's Prometheus, ServiceMonitor, PodMonitor and PrometheusRule under
// monitoring.capstan.dev.
//
//   manager::ControllerDescriptor d = monitoring::monitoring_descriptor();  // "monitoring", default on
//   auto env = monitoring::wire_monitoring(mgr, options);                     // tests: explicit options
#pragma once

#include "controllers/monitoring/env.h"
#include "manager/registry.h"

#include <memory>

namespace capstan::controller {
class Manager;
}

namespace capstan::monitoring {

manager::ControllerDescriptor monitoring_descriptor();

// Adds the "prometheus" controller to `mgr`.
std::shared_ptr<Env> wire_monitoring(controller::Manager& mgr, MonitoringOptions options);

}  // namespace capstan::monitoring
