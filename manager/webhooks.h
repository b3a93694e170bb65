// Attaches each controller's admission webhooks (webhooks/<group>) to its descriptor: the
// configurations it installs and the handlers it serves. Only enabled controllers are wired,
// so a disabled controller's webhooks are neither served nor configured.
#pragma once

#include "manager/registry.h"

namespace capstan::manager {

// Sets d.webhook_configurations and d.register_webhooks for the controllers that have webhooks
// ("certificates", "monitoring", "kafka", "gitops"); others are left as they are.
void attach_webhooks(ControllerDescriptor& d);

}  // namespace capstan::manager
