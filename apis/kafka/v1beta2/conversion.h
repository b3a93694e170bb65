// Converting kafka.capstan.dev Kafkas between v1beta2 and v1 without loss (the conversion
// webhook, webhooks/kafka, calls these; v1 is the hub).
//
// to_v1 moves the fields v1 removed (group.h) into the annotation kafka.capstan.dev/v1beta2-fields
// (a JSON object keyed by their paths; absent when there are none); from_v1 puts them back and
// drops the annotation. So an object written at v1beta2 reads back at v1beta2 unchanged, and a
// v1 object makes the same round trip. An annotation that is not such a JSON object is left as it
// is (nothing is restored from it).
//
//   json::Value v1 = kafka_to_v1(v1beta2_kafka);      // apiVersion kafka.capstan.dev/v1
//   json::Value back = kafka_from_v1(v1);              // equal to v1beta2_kafka
#pragma once

#include "runtime/json/json.h"

#include <string_view>

namespace capstan::apis::kafka::v1beta2 {

inline constexpr std::string_view kRemovedFieldsAnnotation = "kafka.capstan.dev/v1beta2-fields";

json::Value kafka_to_v1(const json::Value& kafka);
json::Value kafka_from_v1(const json::Value& kafka);

// A KafkaUser's rule naming `operation` reads at v1 with it in operations[] (added when not
// there already); the annotation remembers the rule's operation, and whether it was added, so
// that the user reads back at v1beta2 as written.
json::Value user_to_v1(const json::Value& user);
json::Value user_from_v1(const json::Value& user);

}  // namespace capstan::apis::kafka::v1beta2
