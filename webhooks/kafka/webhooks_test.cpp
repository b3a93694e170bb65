// The kafka webhooks through AdmissionReviews: create, update against oldObject, status.
#include "webhooks/kafka/webhooks.h"

#include "webhooks/test_util.h"

namespace capstan::webhooks::kafka {
namespace {

using namespace webhooks::testing;

json::Value pool(const std::string& spec, const std::string& labels = "{kafka.capstan.dev/cluster: events}") {
  return json::from_yaml("apiVersion: kafka.capstan.dev/v1\nkind: KafkaNodePool\nmetadata: {name: brokers, namespace: data, labels: " + labels +
                         "}\nspec: " + spec);
}
json::Value kafka_obj(const std::string& kafka) {
  return json::from_yaml("apiVersion: kafka.capstan.dev/v1\nkind: Kafka\nmetadata: {name: events, namespace: data}\nspec: {kafka: " + kafka + "}");
}

TEST(KafkaWebhooks, CreateDeniesEveryErrorWithItsField) {
  auto h = kafka_validating_handler();
  auto ok = call(h, review("kafka.capstan.dev", "Kafka", "kafkas", "CREATE",
                           kafka_obj("{listeners: [{name: plain, port: 9092, type: internal, tls: false}]}")));
  EXPECT_TRUE(allowed(ok)) << message(ok);
  auto bad = call(h, review("kafka.capstan.dev", "Kafka", "kafkas", "CREATE",
                            kafka_obj("{listeners: [{name: plain, port: 9092, type: internal, tls: false}, "
                                      "{name: tls, port: 9092, type: internal, tls: false}], config: {broker.id: 1}}")));
  EXPECT_FALSE(allowed(bad));
  EXPECT_EQ(code(bad), 406);
  EXPECT_EQ(message(bad),
            "[spec.kafka.listeners[1].port: Duplicate value: 9092, spec.kafka.config[broker.id]: Forbidden: set by the operator (the "
            "broker. prefix is reserved)]");
  EXPECT_EQ(json::get_array(bad, {"response", "status", "details", "causes"})->size(), 2u);
}

TEST(KafkaWebhooks, UpdateUsesTheOldObject) {
  auto h = node_pool_validating_handler();
  auto old = pool("{replicas: 3, roles: [broker], storage: {type: persistent-claim, size: 10Gi}}");
  auto grown = pool("{replicas: 5, roles: [broker], storage: {type: persistent-claim, size: 20Gi}}");
  EXPECT_TRUE(allowed(call(h, review("kafka.capstan.dev", "KafkaNodePool", "kafkanodepools", "UPDATE", grown, old))));
  auto ephemeral = pool("{replicas: 3, roles: [broker], storage: {type: ephemeral}}");
  // The same object is fine on create: only the update compares.
  EXPECT_TRUE(allowed(call(h, review("kafka.capstan.dev", "KafkaNodePool", "kafkanodepools", "CREATE", ephemeral))));
  auto r = call(h, review("kafka.capstan.dev", "KafkaNodePool", "kafkanodepools", "UPDATE", ephemeral, old));
  EXPECT_FALSE(allowed(r));
  EXPECT_EQ(message(r), "spec.storage.type: Invalid value: \"ephemeral\": field is immutable: changing the storage type of a node pool is "
                        "not supported (was persistent-claim)");
  // A pool without the cluster label is admitted with a warning.
  auto unlabelled = call(h, review("kafka.capstan.dev", "KafkaNodePool", "kafkanodepools", "CREATE",
                                   pool("{replicas: 1, roles: [broker], storage: {type: ephemeral}}", "{}")));
  EXPECT_TRUE(allowed(unlabelled));
  EXPECT_EQ(json::get_array(unlabelled, {"response", "warnings"})->size(), 1u);
}

TEST(KafkaWebhooks, StatusUpdatesKeepTheClusterIdOnly) {
  auto h = kafka_validating_handler();
  // A spec the controller reports as invalid must not block its status writes.
  auto old = kafka_obj("{listeners: [{name: plain, port: 9092, type: internal, tls: false}], config: {node.id: 1}}");
  auto first = old;
  json::ensure_object(first, {"status"})["clusterId"] = "abc";
  EXPECT_TRUE(allowed(call(h, review("kafka.capstan.dev", "Kafka", "kafkas", "UPDATE", first, old, "status"))));
  auto changed = first;
  json::ensure_object(changed, {"status"})["clusterId"] = "xyz";
  auto r = call(h, review("kafka.capstan.dev", "Kafka", "kafkas", "UPDATE", changed, first, "status"));
  EXPECT_FALSE(allowed(r));
  EXPECT_NE(message(r).find("status.clusterId: Invalid value: \"xyz\": field is immutable"), std::string::npos) << message(r);
  // DELETE is never judged.
  EXPECT_TRUE(allowed(call(h, review("kafka.capstan.dev", "Kafka", "kafkas", "DELETE", nullptr, changed))));
}

TEST(KafkaWebhooks, TopicsNeedTheirClusterAndKeepTheirName) {
  auto h = topic_validating_handler();
  auto topic = [](const std::string& rest) { return json::from_yaml("apiVersion: kafka.capstan.dev/v1\nkind: KafkaTopic\n" + rest); };
  auto old = topic("metadata: {name: orders, namespace: data, labels: {kafka.capstan.dev/cluster: events}}\nspec: {partitions: 3}");
  EXPECT_TRUE(allowed(call(h, review("kafka.capstan.dev", "KafkaTopic", "kafkatopics", "CREATE", old))));
  auto orphan = call(h, review("kafka.capstan.dev", "KafkaTopic", "kafkatopics", "CREATE",
                               topic("metadata: {name: orders, namespace: data}\nspec: {partitions: 3}")));
  EXPECT_EQ(message(orphan),
            "metadata.labels[kafka.capstan.dev/cluster]: Required value: the name of the Kafka cluster the topic belongs to");
  auto renamed = topic("metadata: {name: orders, namespace: data, labels: {kafka.capstan.dev/cluster: events}}\n"
                       "spec: {topicName: orders-v2, partitions: 3}");
  auto r = call(h, review("kafka.capstan.dev", "KafkaTopic", "kafkatopics", "UPDATE", renamed, old));
  EXPECT_FALSE(allowed(r));
  EXPECT_NE(message(r).find("spec.topicName: Invalid value: \"orders-v2\": field is immutable"), std::string::npos) << message(r);
}

TEST(KafkaWebhooks, ConfigurationCoversEveryKindAndItsStatus) {
  auto cfgs = configurations(webhook::Endpoint{"", "capstan-system", "capstan-webhook-service", "", "capstan-system"});
  ASSERT_EQ(cfgs.size(), 1u);
  EXPECT_EQ(json::get_string(cfgs[0], {"kind"}), "ValidatingWebhookConfiguration");
  EXPECT_EQ(json::get_string(cfgs[0], {"metadata", "name"}), "capstan-kafka");
  const auto& hooks = *json::get_array(cfgs[0], {"webhooks"});
  ASSERT_EQ(hooks.size(), 4u);
  EXPECT_EQ(json::get_string(hooks[1], {"name"}), "vkafkanodepool.kafka.capstan.dev");
  EXPECT_EQ(json::get_string(hooks[2], {"name"}), "vkafkatopic.kafka.capstan.dev");
  EXPECT_EQ(json::get_string(hooks[3], {"name"}), "vkafkauser.kafka.capstan.dev");
  EXPECT_EQ(json::get_string(hooks[1], {"clientConfig", "service", "path"}), "/validate-kafka-capstan-dev-v1-kafkanodepool");
  EXPECT_EQ(json::serialize(*json::find(hooks[1], {"rules"})),
            R"([{"apiGroups":["kafka.capstan.dev"],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],)"
            R"("resources":["kafkanodepools","kafkanodepools/status"],"scope":"*"}])");
  for (const auto& hk : hooks) {
    EXPECT_EQ(json::get_string(hk, {"failurePolicy"}), "Fail");
    EXPECT_EQ(json::get_string(hk, {"sideEffects"}), "None");
    EXPECT_EQ(json::get_string(hk, {"matchPolicy"}), "Equivalent");
    EXPECT_EQ(json::get_int(hk, {"timeoutSeconds"}), 10);
    EXPECT_EQ(json::serialize(*json::find(hk, {"namespaceSelector"})),
              R"({"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["capstan-system"]}]})");
  }
}

}  // namespace
}  // namespace capstan::webhooks::kafka
