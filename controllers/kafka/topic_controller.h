// The topic operator (Strimzi's unidirectional topic operator): a KafkaTopic labelled with its
// cluster becomes a topic in that Kafka cluster, kept as the spec says. Through the cluster's
// replication listener (<cluster>-kafka-bootstrap.<ns>.svc:9091, as Strimzi's operator uses):
//   - a missing topic is created with the spec's partitions, replicas and config (unset counts:
//     the broker's defaults);
//   - partitions grow to the spec's count; fewer is reported, never applied (Kafka cannot drop
//     partitions): Ready=False, reason NotSupported; so is a replicas change;
//   - the topic's settings are set to exactly spec.config (settings changed behind the
//     operator's back are set back at the next full reconciliation, every two minutes);
//   - a deleted KafkaTopic deletes its topic first (finalizer kafka.capstan.dev/topic-operator),
//     unless it is annotated kafka.capstan.dev/managed=false (then the topic is left alone);
//   - two KafkaTopics for one topic: the older one manages it, the newer gets ResourceConflict.
// Status: Ready True/False with Strimzi's reasons (InvalidResource, NotSupported, KafkaError,
// ResourceConflict), topicName and observedGeneration.
#pragma once

#include "controllers/kafka/cluster_admin.h"
#include "runtime/controller/reconcile.h"

#include <chrono>
#include <memory>

namespace capstan::client {
class Client;
}
namespace capstan::cache {
class Informer;
}

namespace capstan::kafka {

struct TopicOptions {
  // Each topic is compared with Kafka at least this often (Strimzi's fullReconciliationIntervalMs).
  std::chrono::milliseconds full_reconciliation{120'000};
};

struct TopicEnv {
  client::Client& client;
  cache::Informer& topics;
  cache::Informer& kafkas;
  std::shared_ptr<ClusterAdmins> admins;
  TopicOptions options;
};

controller::Result reconcile_topic(TopicEnv& env, const controller::Request& request, controller::Context& ctx);

}  // namespace capstan::kafka
