// C++ views of kafka.capstan.dev/v1 Kafka and KafkaNodePool, read from their JSON.
//
// Implemented from Strimzi (the rest of its spec is not in the CRD schema, so `kubectl apply`,
// which asks for strict field validation, refuses a manifest using it):
//   Kafka          spec.kafka{version, metadataVersion, image, listeners[{name, port, type:
//                  internal|cluster-ip, tls}], config{}}
//   KafkaNodePool  spec{replicas, roles[controller|broker], storage{type: ephemeral (sizeLimit) |
//                  persistent-claim (size, class, deleteClaim)}, resources}
// validation.h applies Strimzi's rules (listener names and ports, forbidden config prefixes,
// storage and roles) and names the field at fault. Not yet implemented, and refused by it: TLS
// listeners (Strimzi's cluster and clients CAs); the control plane (9090) and replication
// (9091) listeners are plaintext inside the cluster, where Strimzi uses its cluster CA.
#pragma once

#include "runtime/json/json.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capstan::apis::kafka::v1 {

inline constexpr std::string_view kDefaultKafkaVersion = "4.1.0";
inline constexpr std::string_view kDefaultMetadataVersion = "4.1-IV1";
inline constexpr std::string_view kStrimziVersion = "0.48.0";

struct Listener {
  std::string name;
  std::int64_t port = 0;
  std::string type;
  bool tls = false;
};

struct KafkaSpec {
  std::string version;           // "" = kDefaultKafkaVersion
  std::string metadata_version;  // "" = kDefaultMetadataVersion
  std::string image;             // "" = Strimzi's image for the version
  std::vector<Listener> listeners;
  std::map<std::string, std::string> config;  // values rendered as Kafka properties

  std::string effective_version() const { return version.empty() ? std::string(kDefaultKafkaVersion) : version; }
  std::string effective_metadata_version() const {
    return metadata_version.empty() ? std::string(kDefaultMetadataVersion) : metadata_version;
  }
  std::string effective_image() const;
};

struct Storage {
  std::string type = "ephemeral";
  std::string size, size_limit, storage_class;
  bool delete_claim = false;
};

// A pool's and a cluster's node count at most (the CRD's maximum for spec.replicas): each node
// is a Pod, a ConfigMap and a claim, and its configuration lists every controller.
inline constexpr std::int64_t kMaxNodes = 1000;

struct NodePoolSpec {
  std::int64_t replicas = 0;  // as written (range-checked by validate_node_pool)
  bool broker = false, controller = false;
  Storage storage;
  std::optional<json::Value> resources;
};

KafkaSpec parse_kafka_spec(const json::Value& kafka);
NodePoolSpec parse_node_pool_spec(const json::Value& pool);

}  // namespace capstan::apis::kafka::v1
