// What Pods say of themselves, read the one way every reader in Capstan needs it: the workload
// simulator's controllers (ReplicaSets, StatefulSets, Endpoints) and the Kafka controller's
// rolling of its nodes.
#pragma once

#include "runtime/json/json.h"

namespace capstan::meta {

// Whether the Pod is Ready: its condition Ready has status True (as kubectl, the endpoints
// controller and a StatefulSet's rollout read it).
bool pod_ready(const json::Value& pod);

}  // namespace capstan::meta
