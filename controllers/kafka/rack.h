// Rack awareness (Strimzi's spec.kafka.rack, type topology-label): a broker learns its rack from
// the Node its pod runs on. Strimzi's way, object for object:
//
//   - an init container kafka-init (the Strimzi operator image, kafka_init_run.sh) with NODE_NAME
//     (the downward API's spec.nodeName) and RACK_TOPOLOGY_KEY reads the Node's label and writes
//     it to /opt/kafka/init/rack.id on the emptyDir rack-volume, which the kafka container mounts
//     too; brokers only (a controller has no rack);
//   - the broker's server.config says broker.rack=${strimzidir:/opt/kafka/init:rack.id} (Kafka's
//     DirectoryConfigProvider reads the file when the broker starts);
//   - every node of the cluster gets a required node affinity (the label exists on its Node) and
//     a preferred pod anti-affinity (weight 100) from the cluster's nodes over the label's values
//     (Strimzi 0.48's KafkaCluster.getMergedAffinity; Capstan has no pod template to merge with);
//   - reading Nodes takes a ServiceAccount <c>-kafka for the pods and a ClusterRoleBinding
//     capstan-<ns>-<c>-kafka-init of it to the broker ClusterRole (get nodes) that the chart and
//     config/rbac ship (--kafka-broker-cluster-role). Kubernetes lets the manager create that
//     binding because the manager holds every right of the role itself (its own get on nodes),
//     as Strimzi's operator holds strimzi-kafka-broker's.
//
// The ServiceAccount is the Kafka's (ownerReference). The binding is cluster-scoped and cannot be
// owned by a namespaced Kafka: it carries the cluster's labels and kafka.capstan.dev/namespace,
// and the controller deletes it when the Kafka goes or drops rack (rack_binding_owner maps a
// cached binding back to its Kafka, so one left behind by a manager that was down is found).
#pragma once

#include "apis/kafka/v1/types.h"
#include "controllers/kafka/nodes.h"
#include "runtime/json/json.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace capstan::kafka {

inline constexpr std::string_view kRackInitContainer = "kafka-init";
inline constexpr std::string_view kRackVolume = "rack-volume";
inline constexpr std::string_view kRackPath = "/opt/kafka/init";
// What broker.rack reads: the file the init container writes, through Strimzi's provider name.
inline constexpr std::string_view kRackPlaceholder = "${strimzidir:/opt/kafka/init:rack.id}";
// The init container's image: Strimzi's operator image of the release Capstan follows
// (Strimzi's STRIMZI_DEFAULT_KAFKA_INIT_IMAGE).
std::string rack_init_image();

// The label naming the namespace of the Kafka a cluster-scoped object belongs to.
inline constexpr std::string_view kNamespaceLabel = "kafka.capstan.dev/namespace";

// "<c>-kafka": the nodes' ServiceAccount (Strimzi's name).
std::string kafka_service_account_name(std::string_view cluster);
// "capstan-<ns>-<c>-kafka-init" (Strimzi's strimzi-<ns>-<c>-kafka-init).
std::string rack_binding_name(std::string_view ns, std::string_view cluster);

json::Value kafka_service_account(const json::Value& kafka);
// The ClusterRoleBinding of the cluster's ServiceAccount to `cluster_role`.
json::Value rack_binding(const json::Value& kafka, std::string_view cluster_role);
// The Kafka (namespace, name) a binding made by rack_binding belongs to; nullopt for another object.
std::optional<std::pair<std::string, std::string>> rack_binding_owner(const json::Value& binding);

// Adds rack awareness to a node's pod spec (node_pod's): the ServiceAccount, the affinity, and for
// a broker the init container, the volume and its mount in the kafka container.
void add_rack_awareness(json::Object& pod_spec, const apis::kafka::v1::Rack& rack, std::string_view cluster, const Node& node);

// The server.config lines of a broker of a cluster with rack awareness (none for a
// controller-only node): broker.rack and the strimzidir config provider, added to the providers
// `user_providers` (config.providers of spec.kafka.config, "" if none) names.
std::string rack_config(const Node& node, std::string_view user_providers);

}  // namespace capstan::kafka
