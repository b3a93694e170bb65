// The CustomResourceDefinitions of kafka.capstan.dev/v1 (kafkas, kafkanodepools, kafkatopics), generated from
// the OpenAPI schemas in schema.cpp: Strimzi's short names (k, knp) and printer columns.
#pragma once

#include "runtime/json/json.h"

#include <vector>

namespace capstan::apis::kafka::v1 {

json::Value kafka_schema();
json::Value node_pool_schema();
json::Value topic_schema();

// kafkas, kafkanodepools, kafkatopics.
std::vector<json::Value> crds();

}  // namespace capstan::apis::kafka::v1
