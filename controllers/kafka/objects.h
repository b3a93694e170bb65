// The objects of a Kafka cluster "<c>", named and labelled as Strimzi names them:
//
//   Service    <c>-kafka-brokers     headless: every node's stable DNS name
//   Service    <c>-kafka-bootstrap   the brokers, for clients' bootstrap.servers
//   ConfigMap  <c>-<pool>-<id>       the node's server.config, and the cluster.id and
//                                    metadata.version its storage is formatted with
//   PVC        data-<c>-<pool>-<id>  persistent-claim storage (data-<vol>-<c>-<pool>-<id> for
//                                    each persistent JBOD volume, storage.h)
//   PDB        <c>-kafka             minAvailable = nodes - 1: voluntary evictions take one
//                                    node at a time (Strimzi's default maxUnavailable 1)
//   Pod        <c>-<pool>-<id>       the node (Strimzi's StrimziPodSet pods, made directly),
//                                    annotated with a revision hash of its spec, config and
//                                    certificate
//
// the listeners' own Services and Ingresses of listeners.h (cluster-ip, loadbalancer, nodeport,
// ingress), with TLS listeners the certificates of security.h, and with rack awareness the
// ServiceAccount <c>-kafka and the ClusterRoleBinding of rack.h.
//
// Each carries a controller reference to the Kafka, so deleting the Kafka deletes them (but the
// cluster-scoped ClusterRoleBinding, which the controller deletes: rack.h).
#pragma once

#include "apis/kafka/v1/types.h"
#include "controllers/kafka/nodes.h"
#include "runtime/json/json.h"

#include <string>

namespace capstan::kafka {

inline constexpr std::string_view kFieldManager = "capstan-kafka";

// The labels of every object of the cluster (kafka.capstan.dev/cluster, kind, name, managed-by);
// a node's add its pool, pod name and roles.
json::Object cluster_labels(std::string_view cluster);
json::Object node_labels(std::string_view cluster, const Node& node);
// metadata{name, namespace, labels, ownerReferences: the Kafka as controller}.
json::Object owned_metadata(const json::Value& kafka, std::string name, json::Object labels);

std::string brokers_service_name(std::string_view cluster);
std::string bootstrap_service_name(std::string_view cluster);
// "kafka.capstan.dev/cluster=<c>,kafka.capstan.dev/kind=Kafka,...": a pool's pods.
std::string pool_selector(std::string_view cluster, std::string_view pool);

json::Value brokers_service(const json::Value& kafka, const apis::kafka::v1::KafkaClusterSpec& spec);
json::Value bootstrap_service(const json::Value& kafka, const apis::kafka::v1::KafkaClusterSpec& spec);
// What the node's container reads from /opt/kafka/custom-config/ (Strimzi's keys): server.config,
// and cluster.id and metadata.version, which `kafka-storage format` writes into an unformatted
// data volume before the first start (a formatted one keeps its own).
struct NodeFiles {
  std::string server_config;
  std::string cluster_id;
  std::string metadata_version;
  std::string metrics_config;  // the JMX exporter's (metricsConfig's ConfigMap key), as metrics-config.json; "" = none
};

// The port of the nodes' metrics (Strimzi's tcp-prometheus).
inline constexpr std::int64_t kMetricsPort = 9404;
// Strimzi's PodDisruptionBudget: an absolute minAvailable (percentages do not work for pods
// made by a custom controller) of max(0, `nodes` - 1), over every node of the cluster.
json::Value disruption_budget(const json::Value& kafka, std::size_t nodes);
json::Value node_configmap(const json::Value& kafka, const Node& node, const NodeFiles& files);
// The claim of a persistent-claim `volume` of `node` (storage.h names it); without deleteClaim
// it has no owner reference and outlives the cluster.
json::Value node_claim(const json::Value& kafka, const Node& node, const DataVolume& volume);
// The PodMonitor <c>-kafka that scrapes every node's metrics port, the pods' kafka.capstan.dev/
// labels mapped onto the series (kafka_capstan_dev_cluster, ..._pool_name, ..._pod_name).
json::Value pod_monitor(const json::Value& kafka, const apis::kafka::v1::KafkaPodMonitor& settings);
std::string pod_monitor_name(std::string_view cluster);

// The pod, with kafka.capstan.dev/revision = a hash of everything in it and of `inputs` (its
// server.config and certificate: a change to either rolls it). A node that needs its certificate
// (security.h needs_certificate) mounts its Secret and the cluster CA's public Secret.
json::Value node_pod(const json::Value& kafka, const apis::kafka::v1::KafkaClusterSpec& spec, const apis::kafka::v1::KafkaNodePoolSpec& pool,
                     const Node& node, const std::string& inputs, bool internal_tls = false);

}  // namespace capstan::kafka
