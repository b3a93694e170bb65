// The Alertmanager reconciler (prometheus-operator's alertmanager controller): reads the base
// configuration from the Alertmanager's Secret, merges the AlertmanagerConfigs it selects by label
// and namespace (amcfg.h; one that is invalid or names a Secret that cannot be read is left out
// alone, with an InvalidConfiguration event on it), applies the generated config Secret, the
// governing Service and the StatefulSet (alertmanager_objects.h), and reports the pods' readiness
// in status (Available, Reconciled, replicas). The base Secret is read at each reconcile and at
// least every resync.
#pragma once

#include "runtime/controller/reconcile.h"

namespace capstan::monitoring {

struct Env;

controller::Result reconcile_alertmanager(Env& env, const controller::Request& request, controller::Context& ctx);

}  // namespace capstan::monitoring
