// The objects of a Prometheus: prometheus-operator's names and labels, a gzipped configuration
// that reads back, the StatefulSet's pod template.
#include "controllers/monitoring/objects.h"

#include "controllers/monitoring/alertmanager_objects.h"

#include "runtime/gzip/gzip.h"
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
            "app.kubernetes.io/instance=main,app.kubernetes.io/name=prometheus,operator.prometheus.io/name=main,prometheus=main")
      << "every shard's pods";
  EXPECT_EQ(statefulset_name("main", 2), "prometheus-main-shard-2");
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
  EXPECT_EQ(gzip::decompress(*data), "global: {}\n");
  EXPECT_EQ(json::get_string(a.at("metadata").at("ownerReferences").at(0), {"uid"}), "p-uid");
  EXPECT_THROW(gzip::decompress("not gzip"), std::runtime_error);
}

// A PrometheusAgent's objects: prometheus-operator's prom-agent-<name> names, its own governing
// Service, Prometheus in agent mode (a feature flag before Prometheus 3), no TSDB retention.
TEST(MonitoringObjects, AnAgentRunsPrometheusInAgentModeUnderItsOwnNames) {
  const json::Value agent = json::from_yaml(R"(
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusAgent
metadata: {name: edge, namespace: monitoring, uid: a-uid}
spec: {shards: 2}
)");
  auto spec = v1::PrometheusAgent::from_json(agent).spec;
  EXPECT_EQ(statefulset_name("edge", 1, kAgent), "prom-agent-edge-shard-1");
  EXPECT_EQ(selector_string("edge", kAgent), "app.kubernetes.io/instance=edge,app.kubernetes.io/name=prometheus-agent,operator.prometheus.io/name=edge");
  EXPECT_EQ(json::get_string(config_secret(agent, "global: {}\n", kAgent), {"metadata", "name"}), "prom-agent-edge");
  EXPECT_EQ(json::get_string(assets_secret(agent, {}, kAgent), {"metadata", "name"}), "prom-agent-edge-tls-assets-0");
  auto svc = governing_service(agent, kAgent);
  EXPECT_EQ(json::get_string(svc, {"metadata", "name"}), "prometheus-agent-operated");
  EXPECT_EQ(json::get_string(svc, {"spec", "selector", "app.kubernetes.io/name"}), "prometheus-agent");
  auto sts = statefulset(agent, spec, {}, 1, kAgent);
  EXPECT_EQ(json::get_string(sts, {"metadata", "name"}), "prom-agent-edge-shard-1");
  EXPECT_EQ(json::get_string(sts, {"spec", "serviceName"}), "prometheus-agent-operated");
  EXPECT_EQ(json::get_string(sts, {"metadata", "labels", "operator.prometheus.io/mode"}), "agent");
  const std::string args = json::serialize(sts.at("spec").at("template").at("spec").at("containers").at(0).at("args"));
  EXPECT_NE(args.find(R"("--agent")"), std::string::npos) << args;
  EXPECT_NE(args.find("--storage.agent.path=/prometheus"), std::string::npos) << args;
  EXPECT_EQ(args.find("retention"), std::string::npos) << args;
  EXPECT_EQ(args.find("tsdb"), std::string::npos) << args;
  spec.version = "v2.53.0";
  const std::string v2 = json::serialize(statefulset(agent, spec, {}, 0, kAgent).at("spec").at("template").at("spec").at("containers").at(0).at("args"));
  EXPECT_NE(v2.find("--enable-feature=agent"), std::string::npos) << v2;
}

// The assets Secret holds the referenced values by file name; every pod mounts it read-only where
// the configuration names the files. What a Secret cannot hold is refused naming the sizes.
TEST(MonitoringObjects, TheAssetsSecretIsMountedWhereTheConfigurationNamesItsFiles) {
  auto secret = assets_secret(prometheus(), {{"secret_shop_web-auth_password", "pw"}});
  EXPECT_EQ(json::get_string(secret, {"metadata", "name"}), "prometheus-main-tls-assets-0");
  EXPECT_EQ(meta::base64_decode(json::get_string(secret, {"data", "secret_shop_web-auth_password"})), "pw");
  auto sts = statefulset(prometheus(), v1::Prometheus::from_json(prometheus()).spec, {});
  const auto& pod = sts.at("spec").at("template").at("spec");
  EXPECT_NE(json::serialize(pod.at("volumes")).find(R"({"name":"tls-assets","secret":{"secretName":"prometheus-main-tls-assets-0"}})"),
            std::string::npos)
      << json::serialize(pod.at("volumes"));
  EXPECT_NE(json::serialize(pod.at("containers").at(0).at("volumeMounts"))
                .find(R"({"name":"tls-assets","mountPath":"/etc/prometheus/certs","readOnly":true})"),
            std::string::npos);
  try {
    assets_secret(prometheus(), {{"big", std::string(kMaxConfigSecretBytes, 'x')}});
    ADD_FAILURE() << "accepted";
  } catch (const std::length_error& e) {
    EXPECT_NE(std::string(e.what()).find("more than the assets Secret holds (1048576)"), std::string::npos) << e.what();
  }
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

// A shard's StatefulSet: its own name, selector and $(SHARD) for the config reloader.
TEST(MonitoringObjects, EachShardHasItsStatefulSet) {
  auto spec = v1::Prometheus::from_json(prometheus()).spec;
  auto sts = statefulset(prometheus(), spec, {}, 1);
  EXPECT_EQ(json::get_string(sts, {"metadata", "name"}), "prometheus-main-shard-1");
  EXPECT_EQ(json::get_string(sts, {"spec", "selector", "matchLabels", "operator.prometheus.io/shard"}), "1");
  EXPECT_EQ(json::get_string(sts, {"spec", "template", "metadata", "labels", "operator.prometheus.io/shard"}), "1");
  std::string reloader = json::serialize(sts.at("spec").at("template").at("spec").at("containers").at(1).at("env"));
  EXPECT_NE(reloader.find(R"({"name":"SHARD","value":"1"})"), std::string::npos) << reloader;
}

// The pod settings users set: a claim per pod for the data, the pass-through knobs, and their
// own containers and volumes merged by name into the generated ones.
TEST(MonitoringObjects, StoragePodKnobsAndMergedContainers) {
  auto p = json::from_yaml(R"(
apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: main, namespace: monitoring, uid: p-uid}
spec:
  storage:
    volumeClaimTemplate:
      metadata: {labels: {tier: data}}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Retain, whenScaled: Delete}
  priorityClassName: critical
  securityContext: {runAsNonRoot: true, fsGroup: 2000}
  affinity: {podAntiAffinity: {}}
  imagePullSecrets: [{name: registry}]
  volumes: [{name: extra, configMap: {name: extra}}]
  volumeMounts: [{name: extra, mountPath: /etc/extra}]
  containers:
  - name: prometheus
    env: [{name: GOMEMLIMIT, value: 1GiB}]
    volumeMounts: [{name: config-out, mountPath: /etc/prometheus/config_out, readOnly: false}]
  - name: sidecar
    image: busybox
)");
  auto sts = statefulset(p, v1::Prometheus::from_json(p).spec, {});
  const auto& spec = sts.at("spec");
  const auto& claim = spec.at("volumeClaimTemplates").at(0);
  EXPECT_EQ(json::get_string(claim, {"metadata", "name"}), "prometheus-main-db");
  EXPECT_EQ(json::get_string(claim, {"metadata", "labels", "tier"}), "data");
  EXPECT_EQ(json::get_string(claim, {"spec", "resources", "requests", "storage"}), "10Gi");
  EXPECT_EQ(json::get_string(spec, {"persistentVolumeClaimRetentionPolicy", "whenDeleted"}), "Retain");
  const auto& pod = spec.at("template").at("spec");
  std::string volumes = json::serialize(pod.at("volumes"));
  EXPECT_EQ(volumes.find("prometheus-main-db"), std::string::npos) << "the claim is the volume: " << volumes;
  EXPECT_NE(volumes.find(R"({"name":"extra","configMap":{"name":"extra"}})"), std::string::npos) << volumes;
  EXPECT_EQ(json::get_string(pod, {"priorityClassName"}), "critical");
  EXPECT_TRUE(json::get_bool(pod, {"securityContext", "runAsNonRoot"}));
  EXPECT_EQ(json::get_string(pod.at("imagePullSecrets").at(0), {"name"}), "registry");
  const auto& containers = pod.at("containers").as_array();
  ASSERT_EQ(containers.size(), 3u) << "prometheus, config-reloader, sidecar";
  const auto& prom = containers.at(0);
  EXPECT_TRUE(json::get_string(prom, {"image"}).starts_with("quay.io/prometheus/prometheus:v")) << "fields not given stay";
  EXPECT_EQ(json::get_string(prom.at("env").at(0), {"name"}), "GOMEMLIMIT");
  std::string mounts = json::serialize(prom.at("volumeMounts"));
  EXPECT_NE(mounts.find(R"({"name":"prometheus-main-db","mountPath":"/prometheus","subPath":"prometheus-db"})"), std::string::npos) << mounts;
  EXPECT_NE(mounts.find(R"({"name":"extra","mountPath":"/etc/extra"})"), std::string::npos) << mounts;
  EXPECT_NE(mounts.find(R"({"name":"config-out","mountPath":"/etc/prometheus/config_out","readOnly":false})"), std::string::npos)
      << "merged by mountPath: " << mounts;
  EXPECT_EQ(json::get_string(containers.at(2), {"name"}), "sidecar");

  // Without storage: an emptyDir, mounted whole.
  auto plain = statefulset(prometheus(), v1::Prometheus::from_json(prometheus()).spec, {});
  EXPECT_EQ(json::find(plain, {"spec", "volumeClaimTemplates"}), nullptr);
  std::string all = json::serialize(plain);
  EXPECT_NE(all.find(R"({"name":"prometheus-main-db","emptyDir":{}})"), std::string::npos) << all;
  EXPECT_EQ(all.find("subPath"), std::string::npos);
}

// An Alertmanager's objects: prometheus-operator's names; one replica runs without clustering,
// several peer with each other; user containers and pod settings merge in.
TEST(AlertmanagerObjects, TheStatefulSetPeersItsReplicasAndTheSecretReadsBack) {
  const json::Value am = json::from_yaml(R"(
apiVersion: monitoring.capstan.dev/v1
kind: Alertmanager
metadata: {name: main, namespace: monitoring, uid: am-uid}
spec:
  replicas: 3
  retention: 240h
  externalUrl: https://alerts.example
  nodeSelector: {pool: ops}
  containers: [{name: alertmanager, resources: {limits: {memory: 100Mi}}}]
)");
  auto spec = v1::AlertmanagerSpec::from_json(*json::find(am, {"spec"}), "spec");
  json::Value sts = alertmanager_statefulset(am, spec);
  EXPECT_EQ(json::get_string(sts, {"metadata", "name"}), "alertmanager-main");
  EXPECT_EQ(json::get_string(json::get_array(sts, {"metadata", "ownerReferences"})->at(0), {"kind"}), "Alertmanager");
  EXPECT_EQ(json::get_string(sts, {"spec", "serviceName"}), "alertmanager-operated");
  const auto& pod = *json::find(sts, {"spec", "template", "spec"});
  const auto& container = json::get_array(pod, {"containers"})->at(0);
  EXPECT_EQ(json::get_string(container, {"image"}), "quay.io/prometheus/alertmanager:v0.28.1");
  const std::string args = json::serialize(*json::find(container, {"args"}));
  for (const char* want : {"--data.retention=240h", "--cluster.listen-address=[$(POD_IP)]:9094",
                           "--cluster.peer=alertmanager-main-0.alertmanager-operated:9094",
                           "--cluster.peer=alertmanager-main-2.alertmanager-operated:9094", "--web.external-url=https://alerts.example"})
    EXPECT_NE(args.find(want), std::string::npos) << want << " in " << args;
  EXPECT_EQ(json::serialize(*json::find(container, {"resources"})), R"({"limits":{"memory":"100Mi"}})");
  EXPECT_EQ(json::serialize(*json::find(pod, {"nodeSelector"})), R"({"pool":"ops"})");
  EXPECT_EQ(json::get_string(json::get_array(pod, {"containers"})->at(1), {"name"}), "config-reloader");

  spec.replicas = 1;
  const std::string single = json::serialize(*json::find(alertmanager_statefulset(am, spec), {"spec", "template", "spec", "containers"}));
  EXPECT_NE(single.find(R"("--cluster.listen-address=")"), std::string::npos) << single;
  EXPECT_EQ(single.find("--cluster.peer"), std::string::npos) << single;

  json::Value secret = alertmanager_config_secret(am, "route: {receiver: x}\n");
  EXPECT_EQ(json::get_string(secret, {"metadata", "name"}), "alertmanager-main-generated");
  auto gz = meta::base64_decode(json::get_string(secret, {"data", "alertmanager.yaml.gz"}));
  ASSERT_TRUE(gz);
  EXPECT_EQ(gzip::decompress(*gz), "route: {receiver: x}\n");
  EXPECT_EQ(alertmanager_base_secret_name("main", spec), "alertmanager-main");
}

// Alertmanager storage: silences and the notification log in an emptyDir by default, or a claim
// per pod (kept when the pod is replaced), mounted through the alertmanager-db subPath.
TEST(AlertmanagerObjects, StorageKeepsSilencesInAClaimPerPod) {
  const json::Value am = json::from_yaml(R"(
apiVersion: monitoring.capstan.dev/v1
kind: Alertmanager
metadata: {name: main, namespace: monitoring, uid: am-uid}
spec:
  storage:
    volumeClaimTemplate:
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Retain, whenScaled: Delete}
)");
  auto spec = v1::AlertmanagerSpec::from_json(*json::find(am, {"spec"}), "spec");
  json::Value sts = alertmanager_statefulset(am, spec);
  const auto& claims = *json::get_array(sts, {"spec", "volumeClaimTemplates"});
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(json::get_string(claims[0], {"metadata", "name"}), "alertmanager-main-db");
  EXPECT_EQ(json::get_string(sts, {"spec", "persistentVolumeClaimRetentionPolicy", "whenScaled"}), "Delete");
  const auto& pod = *json::find(sts, {"spec", "template", "spec"});
  EXPECT_EQ(json::serialize(*json::find(pod, {"volumes"})).find("alertmanager-main-db"), std::string::npos) << "the claim, not a volume";
  EXPECT_NE(json::serialize(json::get_array(pod, {"containers"})->at(0).at("volumeMounts"))
                .find(R"({"name":"alertmanager-main-db","mountPath":"/alertmanager","subPath":"alertmanager-db"})"),
            std::string::npos);
  spec.storage.reset();
  const std::string plain = json::serialize(*json::find(alertmanager_statefulset(am, spec), {"spec", "template", "spec", "volumes"}));
  EXPECT_NE(plain.find(R"({"name":"alertmanager-main-db","emptyDir":{}})"), std::string::npos) << plain;
}

}  // namespace
}  // namespace capstan::monitoring
