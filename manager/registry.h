// The controllers this binary is built with: each controller library contributes one plug-in
// (runtime/plugin). The manager starts only the enabled ones; all share one informer cache.
#pragma once

#include "runtime/plugin/registry.h"
#include "runtime/webhook/configuration.h"

namespace capstan::manager {

// Where the manager's webhook server can be reached (for webhook configurations), and the
// manager's namespace every webhook leaves out.
using WebhookEndpoint = webhook::Endpoint;

// Where a Helm release named "capstan" in capstan-system serves the webhooks: what the CRDs
// `capstan crds` prints point their conversion webhooks at.
inline const WebhookEndpoint kReleaseEndpoint{"", "capstan-system", "capstan-webhook-service", "", "capstan-system"};

// Every controller, in the order `--controllers` help and the chart list them. Each call builds
// new plug-ins, whose flags parse into state of their own.
plugin::Registry all_controllers();

}  // namespace capstan::manager
