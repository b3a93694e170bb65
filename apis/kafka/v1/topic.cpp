// The fields of KafkaTopic: Strimzi's (kafka.strimzi.io KafkaTopic, the unidirectional topic
// operator's), with bounds.
#include "apis/kafka/v1/crds.h"
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"

namespace capstan::apis::kafka::v1 {
namespace {

using codec::field;
using openapi::Schema;

const auto& spec_fields() {
  static const auto table = codec::table<KafkaTopicSpec>(
      "A Kafka topic of the cluster named by the kafka.capstan.dev/cluster label.",
      field("topicName", &KafkaTopicSpec::topic_name,
            Schema::string("Name of the topic (default: metadata.name). Cannot be changed.").max_length(249)),
      field("partitions", &KafkaTopicSpec::partitions,
            Schema::integer("Number of partitions (default: the broker's num.partitions). It can only grow.", "int32")
                .range(1, kMaxTopicPartitions)),
      field("replicas", &KafkaTopicSpec::replicas,
            Schema::integer("Replicas of each partition (default: the broker's default.replication.factor).", "int32")
                .range(1, 32767)),
      field("config", &KafkaTopicSpec::config,
            Schema::open_object("Topic configuration (Kafka topic configs such as retention.ms); settings not listed are "
                                "the broker's defaults.")
                .max_properties(kMaxTopicConfigs)));
  return table;
}

const auto& status_fields() {
  static const auto table = codec::table<KafkaTopicStatus>(
      "The observed state of the topic.",
      field("conditions", &KafkaTopicStatus::conditions, openapi::conditions("Conditions: Ready.", "Ready", true)),
      field("observedGeneration", &KafkaTopicStatus::observed_generation, openapi::observed_generation()),
      field("topicName", &KafkaTopicStatus::topic_name, Schema::string("Name of the topic in Kafka.")));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(KafkaTopicSpec, spec_fields)
CAPSTAN_CODEC_FROM(KafkaTopicStatus, status_fields)

std::map<std::string, std::string> KafkaTopicSpec::configs() const {
  std::map<std::string, std::string> out;
  for (const auto& kv : config) {
    const json::Value& v = kv.value();
    std::string text;
    if (v.is_string()) {
      text = v.get_string();
    } else if (v.is_array()) {
      for (const auto& e : v.get_array()) text += (text.empty() ? "" : ",") + (e.is_string() ? std::string(e.get_string()) : json::serialize(e));
    } else {
      text = json::serialize(v);
    }
    out[std::string(kv.key())] = std::move(text);
  }
  return out;
}

json::Value topic_schema() {
  return openapi::root(kApiVersion, "A Kafka topic, created and kept as its spec says by the topic operator.", KafkaTopicSpec::schema(),
                       KafkaTopicStatus::schema())
      .json();
}

}  // namespace capstan::apis::kafka::v1
