// The Kustomization reconciler (Flux's kustomize-controller): waits for its dependencies, reads
// the revision its GitRepository published, builds the manifests (manifests.h), applies them
// (applier.h), prunes what left Git, and records the inventory and the applied revision in its
// status. It runs again every interval, which also sets back any drift from Git.
#pragma once

#include "runtime/controller/reconcile.h"

namespace capstan::gitops {

struct Env;

controller::Result reconcile_kustomization(Env& env, const controller::Request& request, controller::Context& ctx);

}  // namespace capstan::gitops
