#include "apis/kafka/v1beta2/schema.h"

#include "apis/common/openapi.h"
#include "apis/kafka/v1/crds.h"
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"
#include "apis/kafka/v1beta2/group.h"

namespace capstan::apis::kafka::v1beta2 {
namespace {

using openapi::Schema;

json::Object& properties(json::Value& schema, std::initializer_list<std::string_view> path) {
  json::Value* at = &schema;
  for (auto p : path) at = &at->as_object()["properties"].as_object()[p];
  return at->as_object()["properties"].as_object();
}

// v1's root schema, describing itself as v1beta2.
json::Value at_v1beta2(json::Value schema) {
  properties(schema, {})["apiVersion"].as_object()["description"] =
      "The versioned schema of this object: " + std::string(kApiVersion) + " (deprecated; use " + std::string(v1::kApiVersion) + ").";
  return schema;
}

}  // namespace

json::Value kafka_schema() {
  json::Value schema = at_v1beta2(v1::kafka_schema());
  // The pool storage schema, stated once in v1.
  json::Value pool = v1::node_pool_schema();
  const json::Value storage = properties(pool, {"spec"})["storage"];
  auto& kafka = properties(schema, {"spec", "kafka"});
  kafka["replicas"] = Schema::integer("Removed in v1: the nodes come from KafkaNodePools; kept and ignored.", "int32")
                          .range(0, v1::kMaxNodes)
                          .json();
  kafka["storage"] = storage;
  kafka["storage"].as_object()["description"] = "Removed in v1: storage is the KafkaNodePools'; kept and ignored.";
  kafka["resources"] =
      Schema::open_object("Removed in v1: resources are the KafkaNodePools'; kept and ignored.").max_properties(8).json();
  properties(schema, {"spec"})["zookeeper"] =
      Schema::open_object("Removed in v1 (Strimzi runs KRaft only since 0.46): kept and ignored.").max_properties(64).json();
  auto& status = properties(schema, {"status"});
  status["registeredNodeIds"] =
      Schema::array(Schema::integer("A node ID.", "int32"), "Removed in v1: the node IDs registered in KRaft.").max_items(v1::kMaxNodes).json();
  status["kafkaMetadataState"] = Schema::string("Removed in v1: where the metadata lives (KRaft).").max_length(32).json();
  json::Value& listener = status["listeners"].as_object()["items"];
  listener.as_object()["properties"].as_object()["type"] = Schema::string("Removed in v1: the listener's type.").max_length(32).json();
  return schema;
}

json::Value node_pool_schema() { return at_v1beta2(v1::node_pool_schema()); }
json::Value topic_schema() { return at_v1beta2(v1::topic_schema()); }

json::Value user_schema() {
  json::Value schema = at_v1beta2(v1::user_schema());
  // An ACL rule names its operations, or (deprecated, removed in v1) its one operation.
  auto& rule = properties(schema, {"spec", "authorization"})["acls"].as_object()["items"].as_object();
  json::Value operations = rule["properties"].as_object()["operations"];
  rule["properties"].as_object()["operation"] = operations.as_object()["items"];
  rule["properties"].as_object()["operation"].as_object()["description"] = "Deprecated (removed in v1): the one operation; use operations.";
  json::Array required;
  for (const auto& r : rule["required"].as_array())
    if (r.as_string() != "operations") required.push_back(r);
  rule["required"] = std::move(required);
  return schema;
}

}  // namespace capstan::apis::kafka::v1beta2
