// kafka.capstan.dev/v1beta2: Strimzi's v1beta2 Kafka, KafkaNodePool, KafkaTopic and KafkaUser
// (served until Strimzi 1.0 removed it), deprecated and served beside v1, which is stored. The differences are those
// Strimzi's move to v1 made for the fields this API has: v1beta2's Kafka also carries
// spec.kafka.replicas, spec.kafka.storage and spec.kafka.resources (nodes come from
// KafkaNodePools since KRaft; ignored, as Strimzi 0.48 ignores them with node pools),
// spec.zookeeper (ZooKeeper is gone since Strimzi 0.46; ignored), and in its status
// registeredNodeIds, kafkaMetadataState and listeners[].type. A KafkaUser's ACL rule at v1beta2
// may name its operation alone (spec.authorization.acls[].operation, which v1 removed for
// operations[]). KafkaNodePool and KafkaTopic are the same at both versions. conversion.h
// converts without loss.
#pragma once

#include "runtime/meta/gvk.h"

#include <string_view>

namespace capstan::apis::kafka::v1beta2 {

inline constexpr std::string_view kVersion = "v1beta2";
inline constexpr std::string_view kApiVersion = "kafka.capstan.dev/v1beta2";

inline const meta::ResourceType kKafkaType{{"kafka.capstan.dev", "v1beta2", "kafkas"}, "Kafka", true};
inline const meta::ResourceType kKafkaNodePoolType{{"kafka.capstan.dev", "v1beta2", "kafkanodepools"}, "KafkaNodePool", true};
inline const meta::ResourceType kKafkaTopicType{{"kafka.capstan.dev", "v1beta2", "kafkatopics"}, "KafkaTopic", true};
inline const meta::ResourceType kKafkaUserType{{"kafka.capstan.dev", "v1beta2", "kafkausers"}, "KafkaUser", true};

inline constexpr std::string_view kDeprecationWarning =
    "kafka.capstan.dev/v1beta2 is deprecated (as Strimzi's v1beta2); use kafka.capstan.dev/v1";

}  // namespace capstan::apis::kafka::v1beta2
