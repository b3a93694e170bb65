// The Prometheus reconciler (prometheus-operator's prometheus controller): selects the
// ServiceMonitors, PodMonitors and PrometheusRules of a Prometheus by label and namespace
// selectors, generates its configuration (promcfg.h) and rule files (rules.h), applies the
// config Secret, rule ConfigMaps, governing Service and StatefulSet (objects.h) with
// server-side apply, and reports the StatefulSet's readiness in status (Available,
// Reconciled, replicas).
#pragma once

#include "runtime/controller/reconcile.h"

namespace capstan::monitoring {

struct Env;

controller::Result reconcile_prometheus(Env& env, const controller::Request& request, controller::Context& ctx);
// A PrometheusAgent: the same, but no rules or alerting, under prom-agent-<name> (objects.h).
controller::Result reconcile_prometheus_agent(Env& env, const controller::Request& request, controller::Context& ctx);

}  // namespace capstan::monitoring
