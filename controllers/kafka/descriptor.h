// The kafka controller's entry in the manager registry (manager/registry.h): Strimzi's Kafka
// and KafkaNodePool (KRaft) under kafka.capstan.dev.
//
//   manager::ControllerDescriptor d = kafka::kafka_descriptor();  // "kafka", default on
#pragma once

#include "controllers/kafka/env.h"
#include "manager/registry.h"

#include <memory>

namespace capstan::controller {
class Manager;
}

namespace capstan::kafka {

manager::ControllerDescriptor kafka_descriptor();

// Adds the "kafka" controller to `mgr`.
std::shared_ptr<Env> wire_kafka(controller::Manager& mgr, KafkaOptions options);

}  // namespace capstan::kafka
