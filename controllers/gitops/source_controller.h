// The GitRepository reconciler (Flux's source-controller): resolves spec.ref on the remote
// every interval, fetches a new commit into the local mirror, and publishes it as
// status.artifact.revision ("main@sha1:<commit>") for the Kustomizations to apply. A ref whose
// commit is already local costs one ls-remote and no fetch.
#pragma once

#include "runtime/controller/reconcile.h"

namespace capstan::gitops {

struct Env;

controller::Result reconcile_git_repository(Env& env, const controller::Request& request, controller::Context& ctx);

}  // namespace capstan::gitops
