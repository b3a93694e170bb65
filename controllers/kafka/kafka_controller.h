// The Kafka reconciler (Strimzi's cluster operator, KRaft with node pools): validates the
// cluster, assigns node IDs to its KafkaNodePools, applies the Services, the per-node
// ConfigMaps and claims, creates each node's pod, rolls pods whose revision changed one at a
// time (controllers first, only while every other node is Ready), removes the nodes of a
// scale-down, and reports Strimzi's status (Ready / NotReady, listeners, cluster ID) on the Kafka
// and the node IDs on each pool.
#pragma once

#include "runtime/controller/reconcile.h"

namespace capstan::kafka {

struct Env;

controller::Result reconcile_kafka(Env& env, const controller::Request& request, controller::Context& ctx);

}  // namespace capstan::kafka
