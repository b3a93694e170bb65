// What the Kafka reconciler shares: the client and the shared informers (Kafka, KafkaNodePool,
// and the pods it made, narrowed by label to those).
#pragma once

#include "apis/kafka/v1/group.h"
#include "controllers/kafka/cluster_admin.h"
#include "runtime/controller/builder.h"
#include "runtime/meta/core_types.h"

#include <chrono>
#include <memory>

namespace capstan::client {
class Client;
}
namespace capstan::cache {
class Informer;
}

namespace capstan::kafka {

using apis::kafka::v1::kKafkaType;
inline const meta::ResourceType& kNodePoolType = apis::kafka::v1::kKafkaNodePoolType;
using meta::core::kClaimType;
using meta::core::kConfigMapType;
using meta::core::kPodType;
using meta::core::kServiceType;

inline const meta::ResourceType kDisruptionBudgetType{{"policy", "v1", "poddisruptionbudgets"}, "PodDisruptionBudget", true};

// Only the pods of Kafka clusters are cached.
inline constexpr std::string_view kPodSelector = "kafka.capstan.dev/kind=Kafka";

struct KafkaOptions {
  int max_concurrent_reconciles = 2;
  // Full reconciliation of every cluster at least this often (Strimzi's
  // STRIMZI_FULL_RECONCILIATION_INTERVAL_MS).
  std::chrono::milliseconds full_reconciliation{120'000};
};

struct Env {
  client::Client& client;
  cache::Informer& kafkas;
  cache::Informer& pools;
  cache::Informer& pods;
  // The running clusters, for the broker scale-down check.
  std::shared_ptr<ClusterAdmins> admins;
  KafkaOptions options;
};

}  // namespace capstan::kafka
