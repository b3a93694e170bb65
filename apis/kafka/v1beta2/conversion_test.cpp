// Property test of the v1beta2 <-> v1 conversion over generated Kafkas: every object makes the
// round trip unchanged in both directions, the v1 form carries none of the removed fields, and
// both forms pass their version's CRD schema as the API server checks it.
#include "apis/kafka/v1beta2/conversion.h"

#include "apis/kafka/v1/crds.h"
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1beta2/group.h"
#include "apiserver/schema/schema.h"

#include <gtest/gtest.h>

#include <random>

namespace capstan::apis::kafka::v1beta2 {
namespace {

// Generates Kafkas at v1beta2 with any mix of the fields both versions have and those only
// v1beta2 has.
class Generator {
 public:
  explicit Generator(unsigned seed) : rng_(seed) {}

  json::Value kafka() {
    json::Object metadata{{"name", word()}, {"namespace", word()}, {"uid", word() + "-" + word()}, {"generation", pick(1, 9)}};
    if (coin()) metadata["labels"] = strings_map(3);
    if (coin()) metadata["annotations"] = strings_map(3);
    json::Object kafka;
    if (coin()) kafka["version"] = pick_of({"4.0.0", "4.1.0"});
    if (coin()) kafka["metadataVersion"] = pick_of({"4.0-IV3", "4.1-IV1"});
    if (coin()) kafka["image"] = "registry.example/kafka:" + word();
    json::Array listeners;
    const int n = static_cast<int>(pick(1, 3));
    for (int i = 0; i < n; ++i) {
      json::Object l{{"name", "l" + std::to_string(i)},
                     {"port", 9092 + i},
                     {"type", pick_of({"internal", "cluster-ip", "loadbalancer", "nodeport", "ingress"})},
                     {"tls", false}};
      // The listener configuration (the same at both versions).
      if (coin())
        l["configuration"] = json::Object{
            {"bootstrap", json::Object{{"host", word() + ".example.com"}, {"nodePort", pick(30000, 32767)}}},
            {"brokers", json::Array{json::Object{{"broker", pick(0, 9)}, {"host", word() + ".example.com"}, {"advertisedHost", word()},
                                                 {"advertisedPort", pick(1, 65535)}, {"nodePort", pick(30000, 32767)}}}},
            {"externalTrafficPolicy", pick_of({"Local", "Cluster"})},
            {"loadBalancerSourceRanges", json::Array{"10.0.0.0/8"}},
            {"preferredNodePortAddressType", pick_of({"ExternalIP", "InternalDNS"})}};
      listeners.push_back(std::move(l));
    }
    kafka["listeners"] = std::move(listeners);
    if (coin()) kafka["config"] = json::Object{{"offsets.topic.replication.factor", pick(1, 3)}, {"auto.create.topics.enable", coin()}};
    if (coin()) kafka["rack"] = json::Object{{"topologyKey", pick_of({"topology.kubernetes.io/zone", "rack"})}};  // both versions
    // v1beta2 only.
    if (coin()) kafka["replicas"] = pick(0, 9);
    if (coin()) kafka["storage"] = storage();
    if (coin()) kafka["resources"] = json::Object{{"requests", json::Object{{"memory", std::to_string(pick(1, 8)) + "Gi"}}}};
    json::Object spec{{"kafka", std::move(kafka)}};
    if (coin()) spec["zookeeper"] = json::Object{{"replicas", pick(1, 5)}, {"storage", storage()}};
    json::Object obj{{"apiVersion", kApiVersion}, {"kind", "Kafka"}, {"metadata", std::move(metadata)}, {"spec", std::move(spec)}};
    if (coin()) obj["status"] = status(n);
    return obj;
  }

 private:
  json::Value status(int listeners) {
    json::Object s{{"observedGeneration", pick(1, 9)}};
    if (coin()) s["clusterId"] = word();
    if (coin()) {
      json::Array ls;
      for (int i = 0; i < listeners; ++i) {
        json::Object l{{"name", "l" + std::to_string(i)}, {"bootstrapServers", word() + ":" + std::to_string(9092 + i)}};
        if (coin()) l["type"] = pick_of({"internal", "cluster-ip"});  // v1beta2 only
        ls.push_back(std::move(l));
      }
      s["listeners"] = std::move(ls);
    }
    if (coin()) s["registeredNodeIds"] = json::Array{json::Value(pick(0, 3)), json::Value(pick(4, 9))};  // v1beta2 only
    if (coin()) s["kafkaMetadataState"] = "KRaft";                                                          // v1beta2 only
    return s;
  }
  json::Value storage() {
    if (coin()) return json::Object{{"type", "ephemeral"}};
    return json::Object{{"type", "persistent-claim"}, {"size", std::to_string(pick(1, 100)) + "Gi"}, {"deleteClaim", coin()}};
  }
  json::Object strings_map(int max) {
    json::Object m;
    for (std::int64_t i = 0, n = pick(1, max); i < n; ++i) m["example.com/" + word()] = word();
    return m;
  }
  std::int64_t pick(std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_); }
  bool coin() { return pick(0, 1) == 1; }
  std::string pick_of(std::initializer_list<const char*> options) { return options.begin()[pick(0, static_cast<std::int64_t>(options.size()) - 1)]; }
  std::string word() {
    std::string w;
    for (std::int64_t i = 0, n = pick(3, 8); i < n; ++i) w += static_cast<char>('a' + pick(0, 25));
    return w;
  }
  std::mt19937 rng_;
};

// The API server's verdict on `obj` against the `version` of the kafkas CRD (`crd_index` 0) or
// another of the group's (3: kafkausers).
std::vector<std::string> schema_errors(std::string_view version, const json::Value& obj, std::size_t crd_index = 0) {
  static const std::vector<json::Value> crds = v1::crds();
  for (const auto& v : crds.at(crd_index).at("spec").at("versions").as_array()) {
    if (v.at("name").as_string() != version) continue;
    auto parsed = apiserver::schema::parse(v.at("schema").at("openAPIV3Schema"));
    std::vector<std::string> out;
    for (const auto& e : parsed.errors) out.push_back("schema: " + e.error());
    if (parsed.schema)
      for (const auto& c : apiserver::schema::validate(obj, *parsed.schema)) out.push_back(c.error());
    return out;
  }
  return {"no version " + std::string(version)};
}

bool has_removed_fields(const json::Value& v1) {
  for (auto path : std::initializer_list<json::Path>{{"spec", "kafka", "replicas"}, {"spec", "kafka", "storage"}, {"spec", "kafka", "resources"},
                                                     {"spec", "zookeeper"}, {"status", "registeredNodeIds"}, {"status", "kafkaMetadataState"}})
    if (json::find(v1, path)) return true;
  if (const auto* ls = json::get_array(v1, {"status", "listeners"}))
    for (const auto& l : *ls)
      if (json::find(l, {"type"})) return true;
  return false;
}

TEST(KafkaConversion, EveryGeneratedObjectRoundTripsBothWaysAndFitsBothSchemas) {
  Generator gen(20261204);
  int with_removed = 0;
  for (int i = 0; i < 2000; ++i) {
    const json::Value beta = gen.kafka();
    SCOPED_TRACE(json::serialize(beta));
    ASSERT_EQ(schema_errors("v1beta2", beta), std::vector<std::string>{});
    const json::Value v1 = kafka_to_v1(beta);
    EXPECT_EQ(json::get_string(v1, {"apiVersion"}), v1::kApiVersion);
    EXPECT_FALSE(has_removed_fields(v1)) << json::serialize(v1);
    EXPECT_EQ(schema_errors("v1", v1), std::vector<std::string>{});
    if (json::find(v1, {"metadata", "annotations", kRemovedFieldsAnnotation})) ++with_removed;
    // v1beta2 -> v1 -> v1beta2, and v1 -> v1beta2 -> v1.
    ASSERT_EQ(kafka_from_v1(v1), beta) << json::serialize(kafka_from_v1(v1));
    ASSERT_EQ(kafka_to_v1(kafka_from_v1(v1)), v1);
  }
  EXPECT_GT(with_removed, 1500) << "the generator rarely made v1beta2-only fields";
}

TEST(KafkaConversion, AnObjectWithoutRemovedFieldsOnlyChangesItsApiVersion) {
  json::Value v1 = json::parse(R"({"apiVersion":"kafka.capstan.dev/v1","kind":"Kafka","metadata":{"name":"a","annotations":{"x":"y"}},
    "spec":{"kafka":{"listeners":[{"name":"plain","port":9092,"type":"internal","tls":false}]}}})");
  json::Value beta = kafka_from_v1(v1);
  EXPECT_EQ(json::get_string(beta, {"apiVersion"}), kApiVersion);
  beta.as_object()["apiVersion"] = v1::kApiVersion;
  EXPECT_EQ(beta, v1);
  EXPECT_EQ(kafka_to_v1(kafka_from_v1(v1)), v1);
}

TEST(KafkaConversion, AnAnnotationThatIsNotOursIsLeftAlone) {
  json::Value v1 = json::parse(R"({"apiVersion":"kafka.capstan.dev/v1","kind":"Kafka",
    "metadata":{"name":"a","annotations":{"kafka.capstan.dev/v1beta2-fields":"not json"}},
    "spec":{"kafka":{"listeners":[{"name":"plain","port":9092,"type":"internal","tls":false}]}}})");
  json::Value beta = kafka_from_v1(v1);
  EXPECT_EQ(json::get_string(beta, {"metadata", "annotations", kRemovedFieldsAnnotation}), "not json");
  EXPECT_EQ(kafka_to_v1(beta), v1);
}

json::Value beta_user(const std::string& acls) {
  return json::parse(R"({"apiVersion":"kafka.capstan.dev/v1beta2","kind":"KafkaUser","metadata":{"name":"carol","namespace":"data",
    "labels":{"kafka.capstan.dev/cluster":"events"}},"spec":{"authentication":{"type":"tls"},"authorization":{"type":"simple","acls":)" +
                     acls + "}}}");
}

TEST(KafkaUserConversion, ARuleNamingOneOperationReadsAtV1WithItInOperationsAndBackAsWritten) {
  const json::Value beta = beta_user(R"([
    {"resource":{"type":"topic","name":"a"},"operation":"Read"},
    {"resource":{"type":"topic","name":"b"},"operation":"Write","operations":["Describe"]},
    {"resource":{"type":"topic","name":"c"},"operation":"Read","operations":["Read","Describe"]},
    {"resource":{"type":"group","name":"d"},"operations":["Read"]}])");
  EXPECT_EQ(schema_errors("v1beta2", beta, 3), std::vector<std::string>{});
  EXPECT_NE(schema_errors("v1", beta, 3), std::vector<std::string>{}) << "v1 requires operations";
  const json::Value v1 = user_to_v1(beta);
  EXPECT_EQ(schema_errors("v1", v1, 3), std::vector<std::string>{}) << json::serialize(v1);
  std::vector<std::string> ops;
  for (const auto& rule : v1.at("spec").at("authorization").at("acls").as_array()) {
    EXPECT_FALSE(rule.as_object().contains("operation")) << json::serialize(rule);
    std::string joined;
    for (const auto& o : rule.at("operations").as_array()) joined += (joined.empty() ? "" : ",") + std::string(o.as_string());
    ops.push_back(joined);
  }
  EXPECT_EQ(ops, (std::vector<std::string>{"Read", "Describe,Write", "Read,Describe", "Read"}));
  EXPECT_EQ(user_from_v1(v1), beta) << json::serialize(user_from_v1(v1));
  EXPECT_EQ(user_to_v1(user_from_v1(v1)), v1);
}

TEST(KafkaUserConversion, AUserWithOperationsOnlyChangesItsApiVersion) {
  const json::Value beta = beta_user(R"([{"resource":{"type":"cluster"},"operations":["All"]}])");
  json::Value v1 = user_to_v1(beta);
  EXPECT_FALSE(json::find(v1, {"metadata", "annotations"}));
  v1.as_object()["apiVersion"] = kApiVersion;
  EXPECT_EQ(v1, beta);
}

}  // namespace
}  // namespace capstan::apis::kafka::v1beta2
