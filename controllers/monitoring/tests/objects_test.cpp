// The objects of a Prometheus: prometheus-operator's names and labels, a gzipped configuration
// that reads back, the StatefulSet's pod template.
#include "controllers/monitoring/objects.h"

#include "controllers/monitoring/gzip.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/base64.h"

#include <gtest/gtest.h>

namespace capstan::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;

const json::Value& prometheus() {
  static const json::Value p = json::from_yaml(R"(
apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: main, namespace: monitoring, uid: p-uid}
spec:
  version: v2.53.0
  replicas: 2
  serviceAccountName: prometheus
  retention: 7d
  podMetadata: {labels: {team: obs}}
  resources: {requests: {memory: 400Mi}}
)");
  return p;
}

TEST(MonitoringObjects, NamesAndLabelsAsPrometheusOperator) {
  EXPECT_EQ(statefulset_name("main"), "prometheus-main");
  EXPECT_EQ(config_secret_name("main"), "prometheus-main");
  EXPECT_EQ(rule_configmap_name("main", 1), "prometheus-main-rulefiles-1");
  EXPECT_EQ(selector_string("main"),
            "app.kubernetes.io/instance=main,app.kubernetes.io/name=prometheus,operator.prometheus.io/name=main,"
            "operator.prometheus.io/shard=0,prometheus=main");
  auto svc = governing_service(prometheus());
  EXPECT_EQ(json::get_string(svc, {"metadata", "name"}), "prometheus-operated");
  EXPECT_EQ(json::get_string(svc, {"spec", "clusterIP"}), "None");
  EXPECT_FALSE(json::get_bool(svc.at("metadata").at("ownerReferences").at(0), {"controller"})) << "shared: not a controller";
}

TEST(MonitoringObjects, TheConfigSecretIsDeterministicGzip) {
  auto a = config_secret(prometheus(), "global: {}\n");
  auto b = config_secret(prometheus(), "global: {}\n");
  EXPECT_EQ(a, b);
  auto data = meta::base64_decode(json::get_string(a, {"data", "prometheus.yaml.gz"}));
  ASSERT_TRUE(data);
  EXPECT_EQ(gunzip(*data), "global: {}\n");
  EXPECT_EQ(json::get_string(a.at("metadata").at("ownerReferences").at(0), {"uid"}), "p-uid");
  EXPECT_THROW(gunzip("not gzip"), std::runtime_error);
}

// Incompressible configuration over what a Secret holds: refused naming the sizes.
TEST(MonitoringObjects, AConfigurationNoSecretHoldsIsRefusedNamingTheSizes) {
  std::string config;
  std::uint64_t x = 88172645463325252ull;  // xorshift: bytes gzip cannot shrink
  while (config.size() < 2 * kMaxConfigSecretBytes) {  // ~6.5 bits a byte: still over 1 MiB gzipped
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    config += static_cast<char>('!' + x % 90);
  }
  try {
    config_secret(prometheus(), config);
    FAIL() << "accepted";
  } catch (const std::length_error& e) {
    EXPECT_NE(std::string(e.what()).find("more than its Secret holds (1048576)"), std::string::npos) << e.what();
  }
}

TEST(MonitoringObjects, StatefulSetRunsPrometheusWithItsConfigAndRules) {
  auto spec = v1::Prometheus::from_json(prometheus()).spec;
  auto sts = statefulset(prometheus(), spec, {"prometheus-main-rulefiles-0"});
  EXPECT_EQ(json::get_string(sts, {"spec", "serviceName"}), "prometheus-operated");
  EXPECT_EQ(sts.at("spec").at("replicas").as_int64(), 2);
  const auto& pod = sts.at("spec").at("template");
  EXPECT_EQ(json::get_string(pod, {"metadata", "labels", "team"}), "obs");
  EXPECT_EQ(json::get_string(pod, {"metadata", "labels", "app.kubernetes.io/name"}), "prometheus");
  EXPECT_EQ(json::get_string(pod, {"spec", "serviceAccountName"}), "prometheus");
  const auto& prom = pod.at("spec").at("containers").at(0);
  EXPECT_EQ(json::get_string(prom, {"image"}), "quay.io/prometheus/prometheus:v2.53.0");
  std::string args = json::serialize(prom.at("args"));
  EXPECT_NE(args.find("--storage.tsdb.retention.time=7d"), std::string::npos) << args;
  EXPECT_NE(args.find("--config.file=/etc/prometheus/config_out/prometheus.env.yaml"), std::string::npos);
  EXPECT_EQ(json::get_string(prom, {"resources", "requests", "memory"}), "400Mi");
  std::string all = json::serialize(pod);
  EXPECT_NE(all.find(R"({"name":"prometheus-main-rulefiles-0","configMap":{"name":"prometheus-main-rulefiles-0"}})"), std::string::npos);
  EXPECT_NE(all.find(R"("secretName":"prometheus-main")"), std::string::npos);
  EXPECT_NE(all.find("--watched-dir=/etc/prometheus/rules/prometheus-main-rulefiles-0"), std::string::npos);
}

}  // namespace
}  // namespace capstan::monitoring
