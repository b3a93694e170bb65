// The CustomResourceDefinitions of kafka.capstan.dev/v1 (kafkas, kafkanodepools, kafkatopics, kafkausers), generated from
// the OpenAPI schemas in schema.cpp: Strimzi's short names (k, knp) and printer columns.
#pragma once

#include "runtime/json/json.h"

#include <vector>

namespace capstan::apis::kafka::v1 {

json::Value kafka_schema();
json::Value node_pool_schema();
json::Value topic_schema();
json::Value user_schema();

// kafkas, kafkanodepools, kafkatopics, kafkausers.
std::vector<json::Value> crds();

}  // namespace capstan::apis::kafka::v1
