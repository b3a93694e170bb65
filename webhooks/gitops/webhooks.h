// Admission webhooks of gitops.capstan.dev (Flux checks these in its CRDs and controllers; here
// they are refused at `kubectl apply`): GitRepository URL schemes as the manager allows them
// (file:// only with --gitops-url-schemes including it), interval and timeout bounds, Git
// reference names; Kustomization interval/retryInterval/timeout bounds, a path that stays in
// the repository, and dependsOn without cycles — read through the other Kustomizations in the
// manager's shared informer cache (a Kustomization the cache has not seen yet is not followed).
// No defaulting webhook: the CRD schema and the controllers apply Flux's defaults.
#pragma once

#include "runtime/json/json.h"
#include "runtime/webhook/configuration.h"

#include <string>
#include <vector>

namespace capstan::webhook {
class Server;
}
namespace capstan::cache {
class Informer;
}

namespace capstan::webhooks::gitops {

struct Options {
  std::vector<std::string> url_schemes;  // empty = apis/gitops default_url_schemes()
  // The shared informer of Kustomizations (dependsOn cycles); nullptr: only self-references.
  const cache::Informer* kustomizations = nullptr;
};

const std::vector<webhook::Hook>& hooks();

webhook::Handler git_repository_validating_handler(const Options& options);
webhook::Handler kustomization_validating_handler(const Options& options);

void register_webhooks(webhook::Server& server, const Options& options);

// ValidatingWebhookConfiguration "capstan-gitops".
std::vector<json::Value> configurations(const webhook::Endpoint& endpoint);

}  // namespace capstan::webhooks::gitops
