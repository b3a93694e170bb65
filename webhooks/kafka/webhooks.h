// Admission and conversion webhooks of kafka.capstan.dev. Conversion: a Kafka between v1beta2 and
// v1 (apis/kafka/v1beta2/conversion.h), at conversion_path(); a KafkaNodePool needs none (the
// same at both versions). Admission (Strimzi has none; its operator refuses a bad Kafka
// in the status instead): validation of Kafka and KafkaNodePool with apis/kafka's rules — on
// create, on update against AdmissionReview's oldObject (immutable storage type and class,
// cluster label and controller role; no claim shrink, no metadata downgrade), and on the status
// subresource (the KRaft cluster ID is set once). No defaulting webhook: the controller applies
// the defaults (version, metadata version, image) when it reads the object, as Strimzi does, so
// a manifest keeps meaning "the operator's default" across upgrades. KafkaTopic: its cluster
// label, name and bounds, and the topic name and cluster kept on update. KafkaUser: its cluster
// label (kept on update), name length and ACL resources.
#pragma once

#include "runtime/json/json.h"
#include "runtime/webhook/configuration.h"

#include <string>
#include <vector>

namespace capstan::webhook {
class Server;
}

namespace capstan::webhooks::kafka {

const std::vector<webhook::Hook>& hooks();

webhook::Handler kafka_validating_handler();
webhook::Handler node_pool_validating_handler();
webhook::Handler topic_validating_handler();
webhook::Handler user_validating_handler();

// The Kafka conversion webhook ("/convert-kafka-capstan-dev").
std::string conversion_path();
webhook::Handler conversion_handler();

// The validating handlers and the conversion handler.
void register_webhooks(webhook::Server& server);

// ValidatingWebhookConfiguration "capstan-kafka".
std::vector<json::Value> configurations(const webhook::Endpoint& endpoint);

}  // namespace capstan::webhooks::kafka
