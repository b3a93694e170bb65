// The gitops controller's entry in the manager registry (manager/registry.h), and the wiring
// behind it: Flux's source-controller (GitRepository) and kustomize-controller (Kustomization)
// under gitops.capstan.dev, sharing the manager's informers and a local Git mirror instead of
// an artifact server.
//
//   manager::ControllerDescriptor d = gitops::gitops_descriptor();  // name "gitops", default on
//   auto env = gitops::wire_gitops(mgr, options);                     // tests: explicit options
#pragma once

#include "controllers/gitops/env.h"
#include "manager/registry.h"

#include <memory>

namespace capstan::controller {
class Manager;
}

namespace capstan::gitops {

manager::ControllerDescriptor gitops_descriptor();

// Adds the "gitrepositories" and "kustomizations" controllers to `mgr`.
std::shared_ptr<Env> wire_gitops(controller::Manager& mgr, GitopsOptions options);

}  // namespace capstan::gitops
