// Installing what the enabled controllers need into a cluster: the manager's own namespace,
// their CRDs (waiting until they are Established) and their webhook configurations.
// Server-side apply, so repeating it is harmless.
#pragma once

#include "manager/registry.h"

#include <string>
#include <vector>

namespace capstan::client {
class Client;
}

namespace capstan::manager {

// Creates the namespace if it is missing (as a Helm install creates the release namespace).
void ensure_namespace(client::Client& c, const std::string& name, const std::string& field_manager);
// The CRDs' conversion webhooks at `endpoint`.
void install_crds(client::Client& c, const std::vector<const plugin::Plugin*>& controllers, const WebhookEndpoint& endpoint,
                  const std::string& field_manager);
void install_webhooks(client::Client& c, const std::vector<const plugin::Plugin*>& controllers, const WebhookEndpoint& endpoint,
                      const std::string& field_manager);

}  // namespace capstan::manager
