// The nodes of a Kafka cluster: which node IDs each KafkaNodePool's nodes have, and the KRaft
// configuration (server.config) of each node, as Strimzi makes them.
//
// Node IDs (Strimzi's NodeIdAssignor): a pool keeps the IDs in its status; scaling down removes
// its highest IDs, scaling up takes the lowest IDs no pool of the cluster uses (gaps first).
#pragma once

#include "apis/kafka/v1/types.h"
#include "controllers/kafka/storage.h"

#include <map>
#include <string>
#include <vector>

namespace capstan::kafka {

struct ListenerAddresses;

struct PoolNodes {
  std::string name;
  std::int32_t replicas = 0;
  std::vector<std::int32_t> current;  // status.nodeIds (ascending)
  bool broker = false, controller = false;
};

// Pool name -> its node IDs (ascending), for all `pools` together.
std::map<std::string, std::vector<std::int32_t>> assign_node_ids(const std::vector<PoolNodes>& pools);

struct Node {
  std::int32_t id = 0;
  std::string pool;
  bool broker = false, controller = false;
  std::vector<DataVolume> volumes = data_volumes({});  // its pool's storage

  // "<cluster>-<pool>-<id>": the pod, its ConfigMap and host name.
  std::string pod_name(std::string_view cluster) const;
};

// A new KRaft cluster ID as Kafka's Uuid.randomUuid() makes it: 16 random bytes in unpadded
// base64url (22 characters), never the reserved zero or metadata-topic IDs, and never starting
// with '-' (kafka-storage's --cluster-id would read such an ID as an option).
std::string new_cluster_id();

// "<cluster>-<pool>-<id>.<cluster>-kafka-brokers.<ns>.svc": the node's stable DNS name.
std::string node_host(std::string_view cluster, std::string_view ns, const Node& node);

// The server.config of `node` (Kafka properties, one per line, sorted within their group):
// node.id, process.roles, the controller quorum, the listeners (control plane 9090, replication
// 9091, the user's), advertised listeners, TLS settings, a broker's rack (rack.h), and the user's config. With
// `internal_tls` the control plane and replication listeners are mutual TLS with the cluster CA,
// as Strimzi's: every node serves and presents its own certificate (security.h) and accepts only
// peers whose certificate the cluster CA signed, names checked.
//
// Each listener is advertised at what `addresses` (listeners.h) says the node advertises on it;
// a listener it has no address for yet is left out of advertised.listeners (its port is still
// bound). Without `addresses`, every listener is advertised at the node's stable DNS name.
std::string server_config(const apis::kafka::v1::KafkaClusterSpec& spec, std::string_view cluster, std::string_view ns, const Node& node,
                          const std::vector<Node>& all, bool internal_tls = false, const ListenerAddresses* addresses = nullptr);

}  // namespace capstan::kafka
