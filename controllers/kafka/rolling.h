// Whether a broker may restart now (a roll to a new revision, a manual rolling update): Strimzi's
// availability check (KafkaRoller's canRoll) in the form "a roll never leaves a partition with
// more than one replica out of sync". A broker in the in-sync set of a partition that is already
// under-replicated waits until the others caught up (after the previous roll, the broker rolled
// before it), so producers with acks=all and min.insync.replicas = replicas - 1 never stall.
// Partitions the broker is not in sync for lose nothing when it restarts (a broker that cannot
// catch up is not held back by its own lag), and a partition of one replica is no reason to wait
// (it cannot be kept available whatever the order).
#pragma once

#include "controllers/kafka/cluster_admin.h"
#include "controllers/kafka/quorum.h"

#include <cstdint>
#include <string>
#include <vector>

namespace capstan::kafka {

// "" when `broker` may restart; else why not, naming up to three partitions ("2 partitions it
// keeps in sync are under-replicated: orders-0 (in sync [1,2] of replicas [0,1,2]), ...").
std::string roll_blocker(std::int32_t broker, const std::vector<PartitionReplicas>& partitions);

// "" when the controller `node` may restart now; else why not. Strimzi's quorum check
// (KafkaQuorumCheck): with `node` down, a majority of the voters must still be caught up with the
// leader: the leader, and each other voter whose last caught-up time is within `fetch_timeout_ms`
// (controller.quorum.fetch.timeout.ms) of the leader's. A quorum without a known leader waits. A
// quorum that cannot keep a majority without any one voter (one or two voters) is no reason to
// wait: no order keeps it available.
std::string controller_roll_blocker(std::int32_t node, const QuorumState& quorum, std::int64_t fetch_timeout_ms);

}  // namespace capstan::kafka
