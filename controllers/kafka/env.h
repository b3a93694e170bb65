// What the Kafka reconciler shares: the client and the shared informers (Kafka, KafkaNodePool,
// and the pods it made, narrowed by label to those).
#pragma once

#include "runtime/controller/builder.h"

#include <chrono>

namespace capstan::client {
class Client;
}
namespace capstan::cache {
class Informer;
}

namespace capstan::kafka {

inline const controller::ResourceType kKafkaType{{"kafka.capstan.dev", "v1", "kafkas"}, "Kafka", true};
inline const controller::ResourceType kNodePoolType{{"kafka.capstan.dev", "v1", "kafkanodepools"}, "KafkaNodePool", true};
inline const controller::ResourceType kPodType{{"", "v1", "pods"}, "Pod", true};
inline const controller::ResourceType kServiceType{{"", "v1", "services"}, "Service", true};
inline const controller::ResourceType kConfigMapType{{"", "v1", "configmaps"}, "ConfigMap", true};
inline const controller::ResourceType kClaimType{{"", "v1", "persistentvolumeclaims"}, "PersistentVolumeClaim", true};

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
  KafkaOptions options;
};

}  // namespace capstan::kafka
