// The objects of a Kafka cluster "<c>", named and labelled as Strimzi names them:
//
//   Service    <c>-kafka-brokers     headless: every node's stable DNS name
//   Service    <c>-kafka-bootstrap   the brokers, for clients' bootstrap.servers
//   ConfigMap  <c>-<pool>-<id>       server.config of the node
//   PVC        data-<c>-<pool>-<id>  persistent-claim storage
//   Pod        <c>-<pool>-<id>       the node (Strimzi's StrimziPodSet pods, made directly),
//                                    annotated with a revision hash of its spec and config
//
// Each carries a controller reference to the Kafka, so deleting the Kafka deletes them.
#pragma once

#include "apis/kafka/v1/types.h"
#include "controllers/kafka/nodes.h"
#include "runtime/json/json.h"

#include <string>

namespace capstan::kafka {

inline constexpr std::string_view kFieldManager = "capstan-kafka";

std::string brokers_service_name(std::string_view cluster);
std::string bootstrap_service_name(std::string_view cluster);
std::string claim_name(std::string_view cluster, const Node& node);
// "kafka.capstan.dev/cluster=<c>,kafka.capstan.dev/kind=Kafka,...": a pool's pods.
std::string pool_selector(std::string_view cluster, std::string_view pool);

json::Value brokers_service(const json::Value& kafka, const apis::kafka::v1::KafkaClusterSpec& spec);
json::Value bootstrap_service(const json::Value& kafka, const apis::kafka::v1::KafkaClusterSpec& spec);
json::Value node_configmap(const json::Value& kafka, const Node& node, const std::string& server_config);
json::Value node_claim(const json::Value& kafka, const Node& node, const apis::kafka::v1::Storage& storage);
// The pod, with kafka.capstan.dev/revision = a hash of everything in it and of `server_config`.
json::Value node_pod(const json::Value& kafka, const apis::kafka::v1::KafkaClusterSpec& spec, const apis::kafka::v1::KafkaNodePoolSpec& pool,
                     const Node& node, const std::string& server_config);

}  // namespace capstan::kafka
