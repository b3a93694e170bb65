// The OpenAPI schemas of kafka.capstan.dev/v1beta2: v1's (apis/kafka/v1/schema.cpp) plus the
// fields v1 removed (group.h).
#pragma once

#include "runtime/json/json.h"

namespace capstan::apis::kafka::v1beta2 {

json::Value kafka_schema();
json::Value node_pool_schema();
json::Value topic_schema();
json::Value user_schema();

}  // namespace capstan::apis::kafka::v1beta2
