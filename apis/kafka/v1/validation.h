// Admission validation of kafka.capstan.dev/v1 objects, shared by the kafka webhook (refusal at
// `kubectl apply`) and the Kafka controller (the NotReady condition of an object admitted
// without the webhook). Strimzi's rules (KafkaSpecChecker, the listener and node pool
// validators, StorageDiff) where Capstan implements the feature, as field.Error causes naming
// the field path; every error of an object is reported at once:
//   spec.kafka.listeners[1].port: Duplicate value: 9092
//   spec.storage.type: Invalid value: "persistent-claim": field is immutable: changing the storage type of a node pool is not supported
//
// `old` is the stored object on UPDATE (AdmissionReview's oldObject), nullptr on CREATE. Members of
// an unexpected type read as absent (the CRD schema has checked types).
#pragma once

#include "runtime/json/json.h"
#include "runtime/validation/field.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apis::kafka::v1 {

// Kafka: listeners (names ^[a-z0-9]{1,11}$ and unique, ports 9092-65535 and unique, 9090/9091
// the operator's, TLS not yet supported), version and metadataVersion (formats; the metadata
// version not above the Kafka version; no metadata downgrade on update), config keys the operator
// owns (Strimzi's forbidden prefixes), rack.topologyKey (a label key). The status is not judged here (validate_status_update).
std::vector<validation::Cause> validate_kafka(const json::Value& obj, const json::Value* old = nullptr);

// KafkaNodePool: replicas 0..kMaxNodes, roles (at least one of controller/broker, no repeats),
// storage (validate_node_pool_storage), and on update: the cluster label and the controller role
// are immutable (the KRaft quorum is static).
std::vector<validation::Cause> validate_kafka_node_pool(const json::Value& obj, const json::Value* old = nullptr);

// A node pool's spec.storage at `path` (`old`: the stored one on update, else nullptr): a single
// volume (persistent-claim needs a size; sizes are quantities; members of the other type refused)
// or jbod volumes (1..kMaxJbodVolumes, ids required and unique, one kraftMetadata volume at
// most, no nested jbod); on update the storage type, each volume's type and StorageClass and the
// KRaft metadata volume are kept, and no claim shrinks. Adding and removing JBOD volumes is allowed.
void validate_node_pool_storage(const json::Value* storage, const json::Value* old, const validation::FieldPath& path,
                                std::vector<validation::Cause>& out);
// The id of the volume holding the KRaft metadata log: the jbod volume marked kraftMetadata:
// shared, else the lowest id; -1 for a single volume; nullopt for no volume.
std::optional<std::int64_t> kraft_metadata_volume(const json::Value* storage);

// KafkaTopic: the kafka.capstan.dev/cluster label (required, immutable), the topic name
// (spec.topicName, else metadata.name: Kafka's legal characters, at most 249; immutable),
// partitions 1..kMaxTopicPartitions, replicas 1..32767, config (at most kMaxTopicConfigs
// entries of strings, numbers, booleans or lists of those). Decreasing partitions is not refused
// here: Kafka's count is what matters, and the topic operator reports it (NotSupported).
std::vector<validation::Cause> validate_kafka_topic(const json::Value& obj, const json::Value* old = nullptr);

// KafkaUser: the kafka.capstan.dev/cluster label (required, immutable), a name of at most 64
// characters (its certificate's common name), ACL resources named unless they are the cluster.
std::vector<validation::Cause> validate_kafka_user(const json::Value& obj, const json::Value* old = nullptr);

// An update of the status subresource (Kafka or KafkaNodePool): status.clusterId, once set, is
// kept (nodes formatted with a cluster ID refuse another). The spec is not judged here (the
// controller reports a bad spec in the status). A spec update cannot change the status: the
// API server keeps the stored one.
std::vector<validation::Cause> validate_status_update(const json::Value& obj, const json::Value& old);

// Warnings for an admitted KafkaNodePool (e.g. no kafka.capstan.dev/cluster label: no Kafka uses it).
std::vector<std::string> kafka_node_pool_warnings(const json::Value& obj);


}  // namespace capstan::apis::kafka::v1
