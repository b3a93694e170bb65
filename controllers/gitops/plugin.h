// The gitops controller's plug-in (runtime/plugin), its flags, and the wiring behind it: Flux's source-controller (GitRepository) and kustomize-controller (Kustomization)
// under gitops.capstan.dev, sharing the manager's informers and a local Git mirror instead of
// an artifact server.
//
//   registry.add(gitops::plugin());                                   // "gitops" (alias "flux"), default on
//   auto env = gitops::wire_gitops(mgr, options);                     // tests: explicit options
#pragma once

#include "controllers/gitops/env.h"
#include "runtime/plugin/plugin.h"

#include <memory>

namespace capstan::controller {
class Manager;
}

namespace capstan::gitops {

// Flags: --gitops-storage-path, --gitops-default-service-account, --gitops-no-cross-namespace-refs,
// --gitops-url-schemes (also what the admission webhook allows).
plugin::Plugin plugin();

// Adds the "gitrepositories" and "kustomizations" controllers to `mgr`.
std::shared_ptr<Env> wire_gitops(controller::Manager& mgr, GitopsOptions options);

}  // namespace capstan::gitops
