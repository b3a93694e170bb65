// The kafka controller's plug-in (runtime/plugin): Strimzi's Kafka, KafkaNodePool (KRaft) and KafkaTopic
// under kafka.capstan.dev, with the group's admission webhooks (webhooks/kafka).
//
//   registry.add(kafka::plugin());  // "kafka" (alias "strimzi"), default on
#pragma once

#include "controllers/kafka/env.h"
#include "controllers/kafka/topic_controller.h"
#include "runtime/plugin/plugin.h"

#include <memory>

namespace capstan::controller {
class Manager;
}

namespace capstan::kafka {

plugin::Plugin plugin();

// Adds the "kafka" controller to `mgr`.
std::shared_ptr<Env> wire_kafka(controller::Manager& mgr, std::shared_ptr<ClusterAdmins> admins, KafkaOptions options);
// Adds the "kafkatopic" controller (the topic operator) to `mgr`.
std::shared_ptr<TopicEnv> wire_topics(controller::Manager& mgr, std::shared_ptr<ClusterAdmins> admins, TopicOptions options);

}  // namespace capstan::kafka
