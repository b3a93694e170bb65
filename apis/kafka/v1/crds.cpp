#include "apis/kafka/v1/crds.h"

#include "apis/common/crd.h"
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1beta2/group.h"
#include "apis/kafka/v1beta2/schema.h"

namespace capstan::apis::kafka::v1 {

std::vector<json::Value> crds() {
  constexpr CrdGroupVersion gv{kGroup, kVersion};
  auto kafka = make_crd(gv, {kKafkaKind, "kafkas", "kafka", {"k"}}, true, kafka_schema(),
                        {{"Ready", "string", R"(.status.conditions[?(@.type=="Ready")].status)", 0, "The state of the custom resource"},
                         {"Warnings", "string", R"(.status.conditions[?(@.type=="Warning")].status)", 0,
                          "Warnings related to the custom resource"},
                         {"Kafka version", "string", ".status.kafkaVersion", 0, "The Kafka version"},
                         {"Metadata version", "string", ".status.kafkaMetadataVersion", 0, "The Kafka metadata version"}});
  auto pool = make_crd(gv, {kKafkaNodePoolKind, "kafkanodepools", "kafkanodepool", {"knp"}}, true, node_pool_schema(),
                       {{"Desired replicas", "integer", ".spec.replicas", 0, "The desired number of replicas"},
                        {"Roles", "string", ".status.roles", 0, "Roles of the nodes in the pool"},
                        {"NodeIds", "string", ".status.nodeIds", 0, "Node IDs used by Kafka nodes in this pool"}});
  // kubectl scale knp (Strimzi's scale subresource).
  add_scale_subresource(pool, ".spec.replicas", ".status.replicas", ".status.labelSelector");
  // Strimzi's v1beta2, deprecated, served beside v1 (stored). A KafkaNodePool is the same at
  // both (the API server only rewrites apiVersion); a Kafka's conversion is webhooks/kafka's.
  add_served_version(kafka, v1beta2::kVersion, v1beta2::kafka_schema(), v1beta2::kDeprecationWarning);
  add_served_version(pool, v1beta2::kVersion, v1beta2::node_pool_schema(), v1beta2::kDeprecationWarning);
  // Strimzi's KafkaTopic columns.
  auto topic = make_crd(gv, {kKafkaTopicKind, "kafkatopics", "kafkatopic", {"kt"}}, true, topic_schema(),
                        {{"Cluster", "string", R"(.metadata.labels.kafka\.capstan\.dev/cluster)", 0, "The name of the Kafka cluster this topic belongs to"},
                         {"Partitions", "integer", ".spec.partitions", 0, "The desired number of partitions in the topic"},
                         {"Replication factor", "integer", ".spec.replicas", 0, "The desired number of replicas of each partition"},
                         {"Ready", "string", R"(.status.conditions[?(@.type=="Ready")].status)", 0, "The state of the custom resource"}});
  // Strimzi's KafkaUser columns.
  auto user = make_crd(gv, {kKafkaUserKind, "kafkausers", "kafkauser", {"ku"}}, true, user_schema(),
                       {{"Cluster", "string", R"(.metadata.labels.kafka\.capstan\.dev/cluster)", 0, "The name of the Kafka cluster this user belongs to"},
                        {"Authentication", "string", ".spec.authentication.type", 0, "How the user is authenticated"},
                        {"Authorization", "string", ".spec.authorization.type", 0, "How the user is authorised"},
                        {"Ready", "string", R"(.status.conditions[?(@.type=="Ready")].status)", 0, "The state of the custom resource"}});
  // Strimzi's v1beta2 of both (served until Strimzi 1.0): a KafkaTopic is the same; a KafkaUser's
  // ACL rule may name one operation (webhooks/kafka converts it).
  add_served_version(topic, v1beta2::kVersion, v1beta2::topic_schema(), v1beta2::kDeprecationWarning);
  add_served_version(user, v1beta2::kVersion, v1beta2::user_schema(), v1beta2::kDeprecationWarning);
  return {std::move(kafka), std::move(pool), std::move(topic), std::move(user)};
}

}  // namespace capstan::apis::kafka::v1
