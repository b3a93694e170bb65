// Kafka at two versions on both API servers, through the manager's conversion webhook: a Kafka
// written at v1beta2 (with the fields v1 removed) reads at v1 without them and back at v1beta2
// unchanged, one written at v1 reads at v1beta2, `kubectl get kafkas.v1beta2...` and `.v1...`
// both work, and objects stored at v1beta2 are moved to v1 by the manager (storedVersions ends
// as [v1]) with nothing lost. A manager running kafka alone serves no other group's webhook.
#include "testing/controller_fixture.h"
#include "runtime/http/client.h"
#include "runtime/json/json.h"
#include "runtime/meta/base64.h"

#include <gtest/gtest.h>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const char* kBeta = R"(apiVersion: kafka.capstan.dev/v1beta2
kind: Kafka
metadata: {name: legacy, namespace: data, labels: {team: a}}
spec:
  kafka:
    version: 4.1.0
    replicas: 3
    storage: {type: persistent-claim, size: 10Gi, deleteClaim: false}
    resources: {requests: {memory: 2Gi}}
    listeners: [{name: plain, port: 9092, type: internal, tls: false}]
  zookeeper: {replicas: 3, storage: {type: ephemeral}}
)";

const char* kV1 = R"(apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: current, namespace: data}
spec:
  kafka:
    listeners: [{name: plain, port: 9092, type: internal, tls: false}]
)";

class KafkaConversionE2E : public ControllerFixture {
 protected:
  KafkaConversionE2E() : ControllerFixture({"kafka-conversion", false, "kafka,crd"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=kafka"}; }

  void SetUp() override {
    ControllerFixture::SetUp();
    if (HasFatalFailure()) return;
    kubectl_->ok({"create", "namespace", "data"});
    point_conversion_at_manager();
  }

  // The conversion webhooks of the kafkas and kafkausers CRDs at this test's manager (`capstan
  // crds` points them at a release's Service).
  void point_conversion_at_manager() {
    json::Value client_config = json::Object{
        {"url", "https://127.0.0.1:" + std::to_string(manager_->webhook_port()) + "/convert-kafka-capstan-dev"},
        {"caBundle", meta::base64_encode(manager_->ca_pem())}};
    json::Value patch = json::Array{json::Object{{"op", "replace"}, {"path", "/spec/conversion/webhook/clientConfig"}, {"value", client_config}}};
    for (const char* crd : {"kafkas.kafka.capstan.dev", "kafkausers.kafka.capstan.dev"})
      kubectl_->ok({"patch", "crd", crd, "--type=json", "-p", json::serialize(patch)});
  }

  json::Value read(const std::string& resource, const std::string& name) {
    auto r = (*kubectl_)({"get", resource, name, "-n", "data", "-o", "json"});
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? json::parse(r.out) : json::Value();
  }
  std::string stored_versions() {
    return get({"get", "crd", "kafkas.kafka.capstan.dev", "-o", "jsonpath={.status.storedVersions}"});
  }
};

TEST_P(KafkaConversionE2E, AKafkaWrittenAtOneVersionReadsAtTheOtherWithoutLoss) {
  // Conversion is the webhook's: until the API server reaches it, writes at v1beta2 may fail.
  ASSERT_TRUE(eventually([&] { return (*kubectl_)({"apply", "-f", "-"}, kBeta).code == 0; }, 30s)) << manager_->logs();
  json::Value v1 = read("kafkas.v1.kafka.capstan.dev", "legacy");
  EXPECT_EQ(json::get_string(v1, {"apiVersion"}), "kafka.capstan.dev/v1");
  EXPECT_EQ(json::find(v1, {"spec", "kafka", "replicas"}), nullptr);
  EXPECT_EQ(json::find(v1, {"spec", "zookeeper"}), nullptr);
  EXPECT_NE(json::get_string(v1, {"metadata", "annotations", "kafka.capstan.dev/v1beta2-fields"}), "");
  EXPECT_EQ(*json::find(v1, {"spec", "kafka", "listeners"}), json::parse(R"([{"name":"plain","port":9092,"type":"internal","tls":false}])"));

  json::Value beta = read("kafkas.v1beta2.kafka.capstan.dev", "legacy");
  EXPECT_EQ(json::get_string(beta, {"apiVersion"}), "kafka.capstan.dev/v1beta2");
  EXPECT_EQ(json::get_int(beta, {"spec", "kafka", "replicas"}), 3);
  EXPECT_EQ(json::get_string(beta, {"spec", "kafka", "storage", "size"}), "10Gi");
  EXPECT_EQ(json::get_string(beta, {"spec", "kafka", "resources", "requests", "memory"}), "2Gi");
  EXPECT_EQ(json::get_int(beta, {"spec", "zookeeper", "replicas"}), 3);
  EXPECT_EQ(json::find(beta, {"metadata", "annotations", "kafka.capstan.dev/v1beta2-fields"}), nullptr) << "the annotation is v1's alone";
  // Applying the same v1beta2 manifest again changes nothing: what it reads back is what it wrote
  // (the generation counts spec changes; the controller's status writes do not move it).
  const auto generation = json::get_int(beta, {"metadata", "generation"});
  EXPECT_NE(kubectl_->ok({"apply", "-f", "-"}, kBeta).find("unchanged"), std::string::npos);
  EXPECT_EQ(json::get_int(read("kafkas.v1beta2.kafka.capstan.dev", "legacy"), {"metadata", "generation"}), generation);

  // Written at v1, read at v1beta2: the same object.
  kubectl_->ok({"apply", "-f", "-"}, kV1);
  json::Value current = read("kafkas.v1beta2.kafka.capstan.dev", "current");
  EXPECT_EQ(json::get_string(current, {"apiVersion"}), "kafka.capstan.dev/v1beta2");
  EXPECT_EQ(*json::find(current, {"spec"}), json::parse(R"({"kafka":{"listeners":[{"name":"plain","port":9092,"type":"internal","tls":false}]}})"));
  // Lists at both versions.
  EXPECT_EQ(get({"get", "kafkas.v1beta2.kafka.capstan.dev", "-n", "data", "-o", "name"}), "kafka.kafka.capstan.dev/current\nkafka.kafka.capstan.dev/legacy\n");
  EXPECT_EQ(get({"get", "kafkas.v1.kafka.capstan.dev", "-n", "data", "-o", "name"}), "kafka.kafka.capstan.dev/current\nkafka.kafka.capstan.dev/legacy\n");
}

// Strimzi's v1beta2 KafkaUser may name one operation per ACL rule (removed in v1): it reads at v1
// with the operation in operations[], and back at v1beta2 as written. A KafkaTopic is the same at
// both versions.
TEST_P(KafkaConversionE2E, AKafkaUserNamingOneOperationAndAKafkaTopicWrittenAtV1beta2ReadAtV1) {
  const std::string user = R"(apiVersion: kafka.capstan.dev/v1beta2
kind: KafkaUser
metadata: {name: carol, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec:
  authentication: {type: tls}
  authorization:
    type: simple
    acls:
      - {resource: {type: topic, name: ledger}, operation: Read}
      - {resource: {type: group, name: readers}, operation: Read, operations: [Describe]}
)";
  ASSERT_TRUE(eventually([&] { return (*kubectl_)({"apply", "-f", "-"}, user).code == 0; }, 30s)) << manager_->logs();
  json::Value v1 = read("kafkausers.v1.kafka.capstan.dev", "carol");
  EXPECT_EQ(*json::find(v1, {"spec", "authorization", "acls"}),
            json::parse(R"([{"resource":{"type":"topic","name":"ledger"},"operations":["Read"]},{"resource":{"type":"group","name":"readers"},"operations":["Describe","Read"]}])"));
  json::Value beta = read("kafkausers.v1beta2.kafka.capstan.dev", "carol");
  EXPECT_EQ(*json::find(beta, {"spec", "authorization", "acls"}),
            json::parse(R"([{"resource":{"type":"topic","name":"ledger"},"operation":"Read"},{"resource":{"type":"group","name":"readers"},"operation":"Read","operations":["Describe"]}])"));
  EXPECT_EQ(json::find(beta, {"metadata", "annotations", "kafka.capstan.dev/v1beta2-fields"}), nullptr) << "the annotation is v1's alone";
  EXPECT_NE(kubectl_->ok({"apply", "-f", "-"}, user).find("unchanged"), std::string::npos);

  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: kafka.capstan.dev/v1beta2
kind: KafkaTopic
metadata: {name: ledger, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {partitions: 3, replicas: 1, config: {retention.ms: 7200000}}
)");
  json::Value topic = read("kafkatopics.v1.kafka.capstan.dev", "ledger");
  EXPECT_EQ(json::get_string(topic, {"apiVersion"}), "kafka.capstan.dev/v1");
  EXPECT_EQ(json::get_int(topic, {"spec", "partitions"}), 3);
}

TEST_P(KafkaConversionE2E, ObjectsStoredAtV1beta2AreMovedToV1) {
  // A cluster where v1beta2 was the storage version (Strimzi before 1.0): objects stored there.
  json::Value crd = json::parse(get({"get", "crd", "kafkas.kafka.capstan.dev", "-o", "json"}));
  auto swap_storage = [&](bool beta_stored) {
    json::Value patch = json::Array{
        json::Object{{"op", "replace"}, {"path", "/spec/versions/0/storage"}, {"value", !beta_stored}},
        json::Object{{"op", "replace"}, {"path", "/spec/versions/1/storage"}, {"value", beta_stored}}};
    kubectl_->ok({"patch", "crd", "kafkas.kafka.capstan.dev", "--type=json", "-p", json::serialize(patch)});
  };
  const auto& versions = json::find(crd, {"spec", "versions"})->as_array();
  ASSERT_EQ(versions.size(), 2u);
  ASSERT_EQ(versions.at(1).at("name").as_string(), "v1beta2") << "the patches below address the versions by index";
  swap_storage(true);
  ASSERT_TRUE(eventually([&] { return (*kubectl_)({"apply", "-f", "-"}, kBeta).code == 0; }, 30s)) << manager_->logs();
  kubectl_->ok({"apply", "-f", "-"}, kV1);
  std::string rv_before = get({"get", "kafkas.v1.kafka.capstan.dev", "legacy", "-n", "data", "-o", "jsonpath={.metadata.resourceVersion}"});
  swap_storage(false);
  EXPECT_TRUE(eventually([&] { return stored_versions().find("v1beta2") != std::string::npos; }, 10s)) << stored_versions();

  // The manager (restarted, as an upgrade does) rewrites them at v1 and records it.
  manager_->stop();
  manager_->set_webhook_port(manager_->webhook_port());
  manager_->start();
  EXPECT_TRUE(eventually([&] { return stored_versions() == R"(["v1"])"; }, 60s)) << stored_versions() << "\n" << manager_->logs();
  EXPECT_NE(get({"get", "kafkas.v1.kafka.capstan.dev", "legacy", "-n", "data", "-o", "jsonpath={.metadata.resourceVersion}"}), rv_before)
      << "the object was written back";
  json::Value beta = read("kafkas.v1beta2.kafka.capstan.dev", "legacy");
  EXPECT_EQ(json::get_int(beta, {"spec", "kafka", "replicas"}), 3) << "nothing lost on the way";
  EXPECT_EQ(json::get_int(beta, {"spec", "zookeeper", "replicas"}), 3);
}

// Only the enabled controllers' webhooks are served: this manager runs kafka alone, so the
// certificates group's paths answer 404 while kafka's validate and convert.
TEST_P(KafkaConversionE2E, OnlyTheEnabledGroupsWebhooksAreServed) {
  http::ClientOptions o;
  o.tls.ca_pem = manager_->ca_pem();
  http::Client client(o);
  const std::string base = "https://127.0.0.1:" + std::to_string(manager_->webhook_port());
  const http::Headers json_body{{"Content-Type", "application/json"}};
  const std::string review =
      R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"1","operation":"CREATE",)"
      R"("kind":{"group":"kafka.capstan.dev","version":"v1","kind":"Kafka"},"object":)" +
      json::serialize(json::Value(json::Object{{"apiVersion", "kafka.capstan.dev/v1"}, {"kind", "Kafka"}, {"metadata", json::Object{{"name", "a"}}},
                                               {"spec", json::Object{{"kafka", json::Object{{"listeners", json::Array{}}}}}}})) +
      "}}";
  auto kafka = client.request("POST", base + "/validate-kafka-capstan-dev-v1-kafka", json_body, review);
  EXPECT_EQ(kafka.status, 200) << kafka.body;
  EXPECT_NE(kafka.body.find(R"("allowed":false)"), std::string::npos) << "a Kafka without listeners is refused: " << kafka.body;
  for (const char* path : {"/validate-certs-capstan-dev-v1-certificate", "/mutate-certs-capstan-dev-v1-certificate",
                           "/validate-monitoring-capstan-dev-v1-prometheus", "/validate-gitops-capstan-dev-v1-kustomization"})
    EXPECT_EQ(client.request("POST", base + path, json_body, review).status, 404) << path;
  const std::string conversion =
      R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"2","desiredAPIVersion":"kafka.capstan.dev/v1beta2","objects":[)" +
      std::string(R"({"apiVersion":"kafka.capstan.dev/v1","kind":"Kafka","metadata":{"name":"a"},"spec":{}}]}})");
  auto converted = client.request("POST", base + "/convert-kafka-capstan-dev", json_body, conversion);
  EXPECT_EQ(converted.status, 200);
  EXPECT_NE(converted.body.find(R"("apiVersion":"kafka.capstan.dev/v1beta2")"), std::string::npos) << converted.body;
}

CAPSTAN_E2E_BACKENDS(KafkaConversionE2E);

}  // namespace
}  // namespace capstan::e2e
