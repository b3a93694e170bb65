// The generated Prometheus configuration and rule files: prometheus-operator's job names and
// relabelings, and the real `promtool check config` / `promtool check rules` accept them.
#include "controllers/monitoring/promcfg.h"

#include "controllers/monitoring/rules.h"
#include "testing/process.h"
#include "testing/prometheus.h"
#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;

json::Value Y(std::string_view text) { return json::from_yaml(text); }

// Runs `promtool check <what> FILE` on `text`; returns its output when it fails, "" when it passes.
std::string promtool(const std::string& what, const std::string& file_name, const std::string& text) {
  e2e::TempDir dir("promcfg");
  std::string path = dir.file(file_name);
  e2e::write_file(path, text);
  auto r = e2e::run({"promtool", "check", what, path});
  return r.code == 0 ? "" : r.out + r.err;
}

// `promtool check config` on `config`, with Kubernetes discovery swapped for static targets where
// Debian's promtool lacks it (testing/prometheus.h).
std::string promtool_config(json::Value config) {
  std::string result = promtool("config", "prometheus.yaml", json::to_yaml(config));
  if (result.find("field kubernetes_sd_configs not found") == std::string::npos) return result;
  return promtool("config", "prometheus.yaml", json::to_yaml(e2e::with_static_targets(std::move(config))));
}

const char* kServiceMonitor = R"(
apiVersion: monitoring.capstan.dev/v1
kind: ServiceMonitor
metadata: {name: web, namespace: shop, uid: u1}
spec:
  selector:
    matchLabels: {app.kubernetes.io/name: web, tier: front}
    matchExpressions:
    - {key: track, operator: In, values: [stable, canary]}
    - {key: legacy, operator: DoesNotExist}
  jobLabel: app.kubernetes.io/name
  targetLabels: [team]
  sampleLimit: 5000
  endpoints:
  - port: metrics
    interval: 15s
    path: /internal/metrics
    scheme: HTTPS
    tlsConfig: {insecureSkipVerify: true}
    relabelings: [{sourceLabels: [__meta_kubernetes_pod_node_name], targetLabel: node_name, action: Replace}]
    metricRelabelings: [{sourceLabels: [__name__], regex: 'go_.*', action: Drop}]
  - targetPort: 8081
)";

const char* kPodMonitor = R"(
apiVersion: monitoring.capstan.dev/v1
kind: PodMonitor
metadata: {name: jobs, namespace: batch, uid: u2}
spec:
  selector: {matchLabels: {role: worker}}
  namespaceSelector: {any: true}
  podMetricsEndpoints:
  - {port: http-metrics, honorLabels: true}
)";

ConfigInputs inputs(const v1::PrometheusSpec& spec) {
  ConfigInputs in;
  in.ns = "monitoring";
  in.name = "main";
  in.spec = &spec;
  in.service_monitors = {v1::ServiceMonitor::from_json(Y(kServiceMonitor))};
  in.pod_monitors = {v1::PodMonitor::from_json(Y(kPodMonitor))};
  in.rule_file_globs = {"/etc/prometheus/rules/prometheus-main-rulefiles-0/*.yaml"};
  return in;
}

TEST(Promcfg, JobsAndRelabelingsAsPrometheusOperator) {
  auto spec = v1::Prometheus::from_json(Y("spec: {externalLabels: {cluster: eu1}, scrapeTimeout: 10s}")).spec;
  auto config = generate_config(inputs(spec));
  EXPECT_EQ(json::get_string(config, {"global", "scrape_interval"}), "30s");
  EXPECT_EQ(json::get_string(config, {"global", "external_labels", "prometheus"}), "monitoring/main");
  EXPECT_EQ(json::get_string(config, {"global", "external_labels", "prometheus_replica"}), "$(POD_NAME)");
  EXPECT_EQ(json::get_string(config, {"global", "external_labels", "cluster"}), "eu1");

  const auto& jobs = config.at("scrape_configs").get_array();
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(json::get_string(jobs[0], {"job_name"}), "serviceMonitor/shop/web/0");
  EXPECT_EQ(json::get_string(jobs[1], {"job_name"}), "serviceMonitor/shop/web/1");
  EXPECT_EQ(json::get_string(jobs[2], {"job_name"}), "podMonitor/batch/jobs/0");
  EXPECT_EQ(json::serialize(jobs[0].at("kubernetes_sd_configs")), R"j([{"role":"endpoints","namespaces":{"names":["shop"]}}])j");
  EXPECT_EQ(json::serialize(jobs[2].at("kubernetes_sd_configs")), R"j([{"role":"pod"}])j") << "namespaceSelector.any";
  EXPECT_EQ(json::get_string(jobs[0], {"scheme"}), "https");
  EXPECT_EQ(json::get_string(jobs[0], {"metrics_path"}), "/internal/metrics");
  EXPECT_EQ(json::get_string(jobs[0], {"scrape_interval"}), "15s");
  EXPECT_EQ(jobs[0].at("sample_limit").as_int64(), 5000);
  EXPECT_TRUE(json::get_bool(jobs[2], {"honor_labels"}));

  // The selector's keep rules, sorted by label, then the port filter.
  const auto& r = jobs[0].at("relabel_configs").get_array();
  EXPECT_EQ(json::serialize(r[0]), R"j({"source_labels":["job"],"target_label":"__tmp_prometheus_job_name"})j");
  EXPECT_EQ(json::serialize(r[1]),
            R"j({"action":"keep","source_labels":["__meta_kubernetes_service_label_app_kubernetes_io_name","__meta_kubernetes_service_labelpresent_app_kubernetes_io_name"],"regex":"(web);true"})j");
  EXPECT_EQ(json::serialize(r[3]),
            R"j({"action":"keep","source_labels":["__meta_kubernetes_service_label_track","__meta_kubernetes_service_labelpresent_track"],"regex":"(stable|canary);true"})j");
  EXPECT_EQ(json::serialize(r[4]),
            R"j({"action":"drop","source_labels":["__meta_kubernetes_service_labelpresent_legacy"],"regex":"true"})j");
  EXPECT_EQ(json::serialize(r[5]), R"j({"action":"keep","source_labels":["__meta_kubernetes_endpoint_port_name"],"regex":"metrics"})j");
  std::string all = json::serialize(jobs[0].at("relabel_configs"));
  for (const char* part : {R"j("target_label":"namespace")j", R"j("target_label":"service")j", R"j("regex":"(Failed|Succeeded)")j",
                           R"j({"source_labels":["__meta_kubernetes_service_label_team"],"regex":"(.+)","target_label":"team","replacement":"${1}"})j",
                           R"j({"source_labels":["__meta_kubernetes_service_label_app_kubernetes_io_name"],"regex":"(.+)","target_label":"job","replacement":"${1}"})j",
                           R"j({"target_label":"endpoint","replacement":"metrics"})j",
                           R"j({"source_labels":["__meta_kubernetes_pod_node_name"],"target_label":"node_name","action":"replace"})j"})
    EXPECT_NE(all.find(part), std::string::npos) << part << " not in " << all;
  EXPECT_EQ(json::serialize(jobs[0].at("metric_relabel_configs")), R"j([{"source_labels":["__name__"],"regex":"go_.*","action":"drop"}])j");
  EXPECT_NE(json::serialize(jobs[1].at("relabel_configs")).find(R"j("source_labels":["__meta_kubernetes_pod_container_port_number"],"regex":"8081")j"),
            std::string::npos);
  EXPECT_NE(json::serialize(jobs[2].at("relabel_configs")).find(R"j({"target_label":"job","replacement":"batch/jobs"})j"), std::string::npos);
}

TEST(Promcfg, PromtoolAcceptsTheConfiguration) {
  auto spec = v1::Prometheus::from_json(Y(R"(
spec:
  scrapeInterval: 20s
  evaluationInterval: 1m
  remoteWrite: [{url: 'http://receiver:19291/api/v1/receive', name: thanos, remoteTimeout: 10s}]
)")).spec;
  auto config = generate_config(inputs(spec));
  EXPECT_EQ(promtool_config(config), "") << json::to_yaml(config);
  // With nothing selected, too.
  ConfigInputs empty;
  empty.ns = "m";
  empty.name = "p";
  empty.spec = &spec;
  EXPECT_EQ(promtool_config(generate_config(empty)), "");
}

// Sharded: every generated job keeps the targets whose address hashes to $(SHARD).
TEST(Promcfg, ShardsSplitTargetsByTheirAddress) {
  auto spec = v1::Prometheus::from_json(Y("spec: {shards: 3}")).spec;
  auto config = generate_config(inputs(spec));
  const auto& jobs = config.at("scrape_configs").as_array();
  ASSERT_FALSE(jobs.empty());
  for (const auto& job : jobs) {
    const auto& r = job.at("relabel_configs").as_array();
    ASSERT_GE(r.size(), 2u);
    EXPECT_EQ(json::serialize(r[r.size() - 2]),
              R"({"source_labels":["__address__"],"target_label":"__tmp_hash","modulus":3,"action":"hashmod"})");
    EXPECT_EQ(json::serialize(r.back()), R"j({"source_labels":["__tmp_hash"],"regex":"$(SHARD)","action":"keep"})j");
  }
  EXPECT_EQ(promtool_config(config), "") << json::to_yaml(config);
  auto single = generate_config(inputs(v1::Prometheus::from_json(Y("spec: {}")).spec));
  EXPECT_EQ(json::to_yaml(single).find("__tmp_hash"), std::string::npos) << "one shard: no hashing";
}

const char* kStaticProbe = R"(
apiVersion: monitoring.capstan.dev/v1
kind: Probe
metadata: {name: sites, namespace: shop}
spec:
  jobName: blackbox
  prober: {url: 'blackbox.monitoring.svc:9115', scheme: HTTPS}
  module: http_2xx
  interval: 20s
  params: [{name: module, values: [ignored]}, {name: debug, values: ['true']}]
  targets:
    staticConfig:
      static: ['https://example.com', 'https://shop.example.com/health']
      labels: {env: prod}
      relabelingConfigs: [{targetLabel: team, replacement: web}]
  metricRelabelings: [{sourceLabels: [__name__], regex: 'probe_http_.*', action: Keep}]
)";

const char* kIngressProbe = R"(
apiVersion: monitoring.capstan.dev/v1
kind: Probe
metadata: {name: ingresses, namespace: shop}
spec:
  prober: {url: '10.0.0.9:9115', path: /custom}
  targets:
    ingress:
      selector: {matchLabels: {probe: 'yes'}}
      namespaceSelector: {matchNames: [shop, web]}
)";

const char* kScrapeConfig = R"(
apiVersion: monitoring.capstan.dev/v1
kind: ScrapeConfig
metadata: {name: external, namespace: ops}
spec:
  jobName: external
  metricsPath: /metrics/federated
  scrapeInterval: 1m
  scrapeTimeout: 20s
  scheme: HTTPS
  honorLabels: true
  params:
    match[]: ['{job="node"}']
  tlsConfig: {serverName: metrics.example.com}
  sampleLimit: 100
  staticConfigs: [{targets: ['10.0.0.1:9100', '10.0.0.2:9100'], labels: {rack: r1}}]
  fileSDConfigs: [{files: ['/etc/prometheus/sd/*.json'], refreshInterval: 1m}]
  httpSDConfigs: [{url: 'https://sd.example.com/targets', refreshInterval: 30s}]
  kubernetesSDConfigs:
  - role: EndpointSlice
    namespaces: {names: [web], ownNamespace: true}
    selectors: [{role: Service, label: 'app=web'}]
    attachMetadata: {node: true}
  relabelings: [{sourceLabels: [__address__], targetLabel: host, regex: '(.*):.*', replacement: '$1'}]
)";

// serviceDiscoveryRole EndpointSlice (the Prometheus's, or a ServiceMonitor's own) discovers
// through EndpointSlices and reads their labels; attachMetadata asks for the node's labels.
TEST(Promcfg, EndpointSlicesAndNodeMetadata) {
  auto spec = v1::Prometheus::from_json(Y(R"(
spec:
  serviceDiscoveryRole: EndpointSlice
  alerting: {alertmanagers: [{name: alertmanager-operated, port: web}]}
)")).spec;
  auto in = inputs(spec);
  in.service_monitors.push_back(v1::ServiceMonitor::from_json(Y(R"(
metadata: {name: legacy, namespace: shop}
spec:
  serviceDiscoveryRole: Endpoints
  selector: {matchLabels: {app: legacy}}
  attachMetadata: {node: true}
  endpoints: [{port: metrics}]
)")));
  in.pod_monitors[0].spec.attach_metadata = v1::AttachMetadata{true};
  auto config = generate_config(in);
  const auto& jobs = config.at("scrape_configs").as_array();
  ASSERT_EQ(jobs.size(), 4u);
  EXPECT_EQ(json::serialize(jobs[0].at("kubernetes_sd_configs")), R"j([{"role":"endpointslice","namespaces":{"names":["shop"]}}])j");
  const std::string r0 = json::serialize(jobs[0].at("relabel_configs"));
  EXPECT_NE(r0.find(R"j({"action":"keep","source_labels":["__meta_kubernetes_endpointslice_port_name"],"regex":"metrics"})j"), std::string::npos) << r0;
  EXPECT_NE(r0.find(R"j("source_labels":["__meta_kubernetes_endpointslice_address_target_kind","__meta_kubernetes_endpointslice_address_target_name"])j"),
            std::string::npos)
      << r0;
  EXPECT_EQ(r0.find("__meta_kubernetes_endpoint_"), std::string::npos) << r0;
  EXPECT_EQ(json::serialize(jobs[2].at("kubernetes_sd_configs")),
            R"j([{"role":"endpoints","namespaces":{"names":["shop"]},"attach_metadata":{"node":true}}])j")
      << "the ServiceMonitor's own role wins";
  EXPECT_EQ(json::serialize(jobs[3].at("kubernetes_sd_configs")), R"j([{"role":"pod","attach_metadata":{"node":true}}])j");
  const std::string alerting = json::serialize(config.at("alerting"));
  EXPECT_NE(alerting.find(R"("role":"endpointslice")"), std::string::npos) << alerting;
  EXPECT_NE(alerting.find("__meta_kubernetes_endpointslice_port_name"), std::string::npos) << alerting;
  EXPECT_EQ(promtool_config(config), "") << json::to_yaml(config);
}

// Probes (static targets and Ingresses) and ScrapeConfigs, after the monitors, as
// prometheus-operator's generateProbeConfig and generateScrapeConfig write them.
TEST(Promcfg, ProbesAndScrapeConfigsAsPrometheusOperator) {
  auto spec = v1::Prometheus::from_json(Y("spec: {shards: 2}")).spec;
  auto in = inputs(spec);
  in.probes = {v1::Probe::from_json(Y(kStaticProbe)), v1::Probe::from_json(Y(kIngressProbe))};
  in.scrape_configs = {v1::ScrapeConfig::from_json(Y(kScrapeConfig))};
  auto config = generate_config(in);
  const auto& jobs = config.at("scrape_configs").as_array();
  ASSERT_EQ(jobs.size(), 6u);
  const json::Value& probe = jobs[3];
  EXPECT_EQ(json::get_string(probe, {"job_name"}), "probe/shop/sites");
  EXPECT_EQ(json::get_string(probe, {"metrics_path"}), "/probe");
  EXPECT_EQ(json::get_string(probe, {"scheme"}), "https");
  EXPECT_EQ(json::get_string(probe, {"scrape_interval"}), "20s");
  EXPECT_EQ(json::serialize(probe.at("params")), R"({"module":["http_2xx"],"debug":["true"]})") << "module wins over params.module";
  EXPECT_EQ(json::serialize(probe.at("static_configs")),
            R"([{"targets":["https://example.com","https://shop.example.com/health"],"labels":{"namespace":"shop","env":"prod"}}])");
  const auto& r = probe.at("relabel_configs").as_array();
  ASSERT_GE(r.size(), 8u);
  EXPECT_EQ(json::serialize(r[1]), R"({"target_label":"job","replacement":"blackbox"})");
  EXPECT_EQ(json::serialize(r[2]), R"({"source_labels":["__address__"],"target_label":"__param_target"})");
  EXPECT_EQ(json::serialize(r[3]), R"({"source_labels":["__param_target"],"target_label":"instance"})");
  EXPECT_EQ(json::serialize(r[4]), R"({"target_label":"__address__","replacement":"blackbox.monitoring.svc:9115"})");
  EXPECT_EQ(json::serialize(r[5]), R"({"target_label":"team","replacement":"web"})");
  EXPECT_EQ(json::serialize(r[6]), R"({"source_labels":["__param_target"],"target_label":"__tmp_hash","modulus":2,"action":"hashmod"})")
      << "a probe's shard follows its target, not the prober's address";
  EXPECT_EQ(json::serialize(probe.at("metric_relabel_configs")), R"j([{"source_labels":["__name__"],"regex":"probe_http_.*","action":"keep"}])j");

  const json::Value& ingress = jobs[4];
  EXPECT_EQ(json::get_string(ingress, {"job_name"}), "probe/shop/ingresses");
  EXPECT_EQ(json::get_string(ingress, {"metrics_path"}), "/custom");
  EXPECT_EQ(json::serialize(ingress.at("kubernetes_sd_configs")), R"j([{"role":"ingress","namespaces":{"names":["shop","web"]}}])j");
  const std::string ir = json::serialize(ingress.at("relabel_configs"));
  for (const char* part :
       {R"j({"action":"keep","source_labels":["__meta_kubernetes_ingress_label_probe","__meta_kubernetes_ingress_labelpresent_probe"],"regex":"(yes);true"})j",
        R"j({"action":"replace","source_labels":["__meta_kubernetes_ingress_scheme","__address__","__meta_kubernetes_ingress_path"],"separator":";","regex":"(.+);(.+);(.+)","target_label":"__param_target","replacement":"${1}://${2}${3}"})j",
        R"j({"source_labels":["__meta_kubernetes_ingress_name"],"target_label":"ingress"})j",
        R"j({"target_label":"__address__","replacement":"10.0.0.9:9115"})j"})
    EXPECT_NE(ir.find(part), std::string::npos) << part << " not in " << ir;

  const json::Value& sc = jobs[5];
  EXPECT_EQ(json::get_string(sc, {"job_name"}), "scrapeConfig/ops/external");
  EXPECT_EQ(json::get_string(sc, {"metrics_path"}), "/metrics/federated");
  EXPECT_EQ(json::get_string(sc, {"scheme"}), "https");
  EXPECT_TRUE(json::get_bool(sc, {"honor_labels"}));
  EXPECT_EQ(sc.at("sample_limit").as_int64(), 100);
  EXPECT_EQ(json::serialize(sc.at("static_configs")), R"([{"targets":["10.0.0.1:9100","10.0.0.2:9100"],"labels":{"rack":"r1"}}])");
  EXPECT_EQ(json::serialize(sc.at("file_sd_configs")), R"([{"files":["/etc/prometheus/sd/*.json"],"refresh_interval":"1m"}])");
  EXPECT_EQ(json::serialize(sc.at("http_sd_configs")), R"([{"url":"https://sd.example.com/targets","refresh_interval":"30s"}])");
  EXPECT_EQ(json::serialize(sc.at("kubernetes_sd_configs")),
            R"([{"role":"endpointslice","namespaces":{"names":["web"],"own_namespace":true},"selectors":[{"role":"service","label":"app=web"}],"attach_metadata":{"node":true}}])");
  const auto& sr = sc.at("relabel_configs").as_array();
  EXPECT_EQ(json::serialize(sr[1]), R"({"action":"replace","target_label":"job","replacement":"external"})");
  EXPECT_EQ(json::get_string(sr[2], {"target_label"}), "host");
  EXPECT_EQ(json::serialize(sr[3]), R"({"source_labels":["__address__"],"target_label":"__tmp_hash","modulus":2,"action":"hashmod"})");

  EXPECT_EQ(promtool_config(config), "") << json::to_yaml(config);
}

// Credentials and TLS: the values reach Prometheus as files of the assets Secret (assets.h), the
// configuration names the files; only a basic-auth username and an OAuth2 client id are inline.
// An optional value that is missing leaves its member out.
TEST(Promcfg, CredentialsAndTlsAreFilesOfTheAssetsSecret) {
  auto spec = v1::Prometheus::from_json(Y("spec: {}")).spec;
  ConfigInputs in;
  in.ns = "monitoring";
  in.name = "main";
  in.spec = &spec;
  in.service_monitors = {v1::ServiceMonitor::from_json(Y(R"(
metadata: {name: web, namespace: shop}
spec:
  selector: {}
  endpoints:
  - port: https
    scheme: https
    basicAuth: {username: {name: web-auth, key: user}, password: {name: web-auth, key: password}}
    tlsConfig:
      ca: {configMap: {name: web-ca, key: ca.crt}}
      cert: {secret: {name: web-client, key: tls.crt}}
      keySecret: {name: web-client, key: tls.key}
      serverName: web.shop.svc
      minVersion: TLS12
)"))};
  in.pod_monitors = {v1::PodMonitor::from_json(Y(R"(
metadata: {name: jobs, namespace: batch}
spec:
  podMetricsEndpoints:
  - {port: m, authorization: {credentials: {name: jobs-token, key: token}}}
  - {port: n, authorization: {credentials: {name: absent, key: token, optional: true}}}
)"))};
  in.probes = {v1::Probe::from_json(Y(R"(
metadata: {name: sites, namespace: shop}
spec:
  prober: {url: 'blackbox:9115'}
  bearerTokenSecret: {name: probe-token, key: token}
  targets: {staticConfig: {static: ['https://example.com']}}
)"))};
  in.scrape_configs = {v1::ScrapeConfig::from_json(Y(R"(
metadata: {name: cloud, namespace: ops}
spec:
  oauth2: {clientId: {secret: {name: oauth, key: id}}, clientSecret: {name: oauth, key: secret}, tokenUrl: 'https://auth.example.com/token', scopes: [read]}
  httpSDConfigs: [{url: 'https://sd.example.com/', authorization: {type: Token, credentials: {name: sd, key: token}}}]
)"))};
  const std::vector<std::vector<AssetRef>> refs = {asset_refs(in.service_monitors[0]), asset_refs(in.pod_monitors[0]), asset_refs(in.probes[0]),
                                                   asset_refs(in.scrape_configs[0])};
  std::vector<std::string> files;
  for (const auto& list : refs)
    for (const auto& r : list) files.push_back(r.file());
  EXPECT_EQ(files, (std::vector<std::string>{"secret_shop_web-auth_user", "secret_shop_web-auth_password", "configmap_shop_web-ca_ca.crt",
                                             "secret_shop_web-client_tls.crt", "secret_shop_web-client_tls.key", "secret_batch_jobs-token_token",
                                             "secret_batch_absent_token", "secret_shop_probe-token_token", "secret_ops_oauth_id",
                                             "secret_ops_oauth_secret", "secret_ops_sd_token"}));
  in.assets = {{"secret_shop_web-auth_user", "admin"},      {"secret_shop_web-auth_password", "s3cr3t-pw"},
               {"configmap_shop_web-ca_ca.crt", "CA PEM"},  {"secret_shop_web-client_tls.crt", "CERT PEM"},
               {"secret_shop_web-client_tls.key", "KEY PEM"}, {"secret_batch_jobs-token_token", "jobs-t0ken"},
               {"secret_shop_probe-token_token", "probe-t0ken"}, {"secret_ops_oauth_id", "client-1"},
               {"secret_ops_oauth_secret", "oauth-s3cret"},  {"secret_ops_sd_token", "sd-t0ken"}};
  auto config = generate_config(in);
  const std::string yaml = json::to_yaml(config);
  for (const char* secret : {"s3cr3t-pw", "KEY PEM", "jobs-t0ken", "probe-t0ken", "oauth-s3cret", "sd-t0ken"})
    EXPECT_EQ(yaml.find(secret), std::string::npos) << secret << " is in the configuration:\n" << yaml;
  const auto& jobs = config.at("scrape_configs").as_array();
  ASSERT_EQ(jobs.size(), 5u);
  EXPECT_EQ(json::serialize(jobs[0].at("basic_auth")),
            R"({"username":"admin","password_file":"/etc/prometheus/certs/secret_shop_web-auth_password"})");
  EXPECT_EQ(json::serialize(jobs[0].at("tls_config")),
            R"({"ca_file":"/etc/prometheus/certs/configmap_shop_web-ca_ca.crt","cert_file":"/etc/prometheus/certs/secret_shop_web-client_tls.crt",)"
            R"("key_file":"/etc/prometheus/certs/secret_shop_web-client_tls.key","server_name":"web.shop.svc","min_version":"TLS12"})");
  EXPECT_EQ(json::serialize(jobs[1].at("authorization")),
            R"({"type":"Bearer","credentials_file":"/etc/prometheus/certs/secret_batch_jobs-token_token"})");
  EXPECT_FALSE(jobs[2].as_object().contains("authorization")) << "the optional value is missing";
  EXPECT_EQ(json::get_string(jobs[3], {"bearer_token_file"}), "/etc/prometheus/certs/secret_shop_probe-token_token");
  EXPECT_EQ(json::serialize(jobs[4].at("oauth2")),
            R"({"client_id":"client-1","client_secret_file":"/etc/prometheus/certs/secret_ops_oauth_secret","token_url":"https://auth.example.com/token","scopes":["read"]})");
  EXPECT_EQ(json::serialize(jobs[4].at("http_sd_configs")),
            R"([{"url":"https://sd.example.com/","authorization":{"type":"Token","credentials_file":"/etc/prometheus/certs/secret_ops_sd_token"}}])");
  e2e::TempDir dir("assets");
  EXPECT_EQ(promtool_config(e2e::with_assets_in(config, dir.file("certs"), in.assets)), "") << yaml;
}

// Scrape classes: the default class for objects naming none, a named one for those naming it;
// its relabelings and metric relabelings before the object's, its TLS files filling in what the
// object's tlsConfig leaves out (all of it when the object has none), its authorization when the
// object has none, its attachMetadata when the object has none.
TEST(Promcfg, ScrapeClassesFillInWhatObjectsLeaveOut) {
  auto spec = v1::Prometheus::from_json(Y(R"(
spec:
  scrapeClasses:
  - name: cluster
    default: true
    tlsConfig: {caFile: /etc/prometheus/secrets/ca/ca.crt, certFile: /etc/prometheus/secrets/ca/tls.crt, keyFile: /etc/prometheus/secrets/ca/tls.key, serverName: kubernetes}
    authorization: {credentialsFile: /var/run/secrets/kubernetes.io/serviceaccount/token}
    relabelings: [{targetLabel: cluster, replacement: eu1}]
    metricRelabelings: [{sourceLabels: [__name__], regex: 'debug_.*', action: drop}]
    attachMetadata: {node: true}
  - name: plain
    relabelings: [{targetLabel: class, replacement: plain}]
)")).spec;
  ConfigInputs in;
  in.ns = "monitoring";
  in.name = "main";
  in.spec = &spec;
  in.service_monitors = {v1::ServiceMonitor::from_json(Y(R"(
metadata: {name: api, namespace: shop}
spec:
  selector: {}
  endpoints:
  - {port: https, scheme: https, tlsConfig: {serverName: api.shop.svc}, relabelings: [{targetLabel: own, replacement: x}]}
)")),
                         v1::ServiceMonitor::from_json(Y(R"(
metadata: {name: web, namespace: shop}
spec:
  scrapeClass: plain
  selector: {}
  endpoints: [{port: http}]
)"))};
  in.scrape_configs = {v1::ScrapeConfig::from_json(Y(R"(
metadata: {name: ext, namespace: ops}
spec:
  staticConfigs: [{targets: ['10.0.0.1:9100']}]
  authorization: {credentials: {name: t, key: token}}
)"))};
  in.assets = {{"secret_ops_t_token", "tok"}};
  auto config = generate_config(in);
  const auto& jobs = config.at("scrape_configs").as_array();
  ASSERT_EQ(jobs.size(), 3u);
  const json::Value& api = jobs[0];
  EXPECT_EQ(json::serialize(api.at("tls_config")),
            R"({"server_name":"api.shop.svc","ca_file":"/etc/prometheus/secrets/ca/ca.crt","cert_file":"/etc/prometheus/secrets/ca/tls.crt","key_file":"/etc/prometheus/secrets/ca/tls.key"})")
      << "the object's serverName stays; the class's files fill in";
  EXPECT_EQ(json::serialize(api.at("authorization")), R"({"type":"Bearer","credentials_file":"/var/run/secrets/kubernetes.io/serviceaccount/token"})");
  EXPECT_EQ(json::serialize(api.at("kubernetes_sd_configs")),
            R"j([{"role":"endpoints","namespaces":{"names":["shop"]},"attach_metadata":{"node":true}}])j");
  const auto& r = api.at("relabel_configs").as_array();
  ASSERT_GE(r.size(), 2u);
  EXPECT_EQ(json::serialize(r[r.size() - 2]), R"({"target_label":"cluster","replacement":"eu1"})") << "the class's, then the object's";
  EXPECT_EQ(json::serialize(r.back()), R"({"target_label":"own","replacement":"x"})");
  EXPECT_EQ(json::serialize(api.at("metric_relabel_configs")), R"j([{"source_labels":["__name__"],"regex":"debug_.*","action":"drop"}])j");

  const json::Value& web = jobs[1];
  EXPECT_FALSE(web.as_object().contains("tls_config")) << "the plain class has no TLS";
  EXPECT_FALSE(web.as_object().contains("authorization"));
  EXPECT_EQ(json::serialize(web.at("relabel_configs").as_array().back()), R"({"target_label":"class","replacement":"plain"})");

  const json::Value& ext = jobs[2];
  EXPECT_EQ(json::get_string(ext, {"authorization", "credentials_file"}), "/etc/prometheus/certs/secret_ops_t_token") << "its own wins";
  EXPECT_EQ(json::serialize(ext.at("tls_config")),
            R"({"ca_file":"/etc/prometheus/secrets/ca/ca.crt","cert_file":"/etc/prometheus/secrets/ca/tls.crt","key_file":"/etc/prometheus/secrets/ca/tls.key","server_name":"kubernetes"})")
      << "no TLS of its own: the class's whole";
  EXPECT_EQ(scrape_class(spec, "plain"), &spec.scrape_classes[1]);
  EXPECT_EQ(scrape_class(spec, ""), &spec.scrape_classes[0]);
  EXPECT_EQ(scrape_class(spec, "absent"), nullptr);
}

// A PrometheusAgent's configuration: the same jobs and remote write, without what agent mode
// refuses (rule files, alerting; `promtool check config --agent` says so).
TEST(Promcfg, AnAgentsConfigurationIsWhatAgentModeTakes) {
  auto spec = v1::PrometheusAgent::from_json(Y(R"(
spec:
  remoteWrite: [{url: 'http://receiver:9090/api/v1/write'}]
)")).spec;
  auto in = inputs(spec);
  in.agent = true;
  auto config = generate_config(in);
  EXPECT_FALSE(config.as_object().contains("rule_files"));
  EXPECT_FALSE(config.at("global").as_object().contains("evaluation_interval"));
  EXPECT_EQ(config.at("scrape_configs").as_array().size(), 3u);
  EXPECT_EQ(json::get_string(config.at("remote_write").at(0), {"url"}), "http://receiver:9090/api/v1/write");
  e2e::TempDir dir("agent");
  const std::string path = dir.write("agent.yaml", json::to_yaml(e2e::with_static_targets(config)));
  auto r = e2e::run({"promtool", "check", "config", "--agent", path});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  in.agent = false;  // the same inputs as a server's: its rule files, which agent mode refuses
  const std::string server = dir.write("server.yaml", json::to_yaml(e2e::with_static_targets(generate_config(in))));
  r = e2e::run({"promtool", "check", "config", "--agent", server});
  EXPECT_NE(r.code, 0);
  EXPECT_NE((r.out + r.err).find("field rule_files is not allowed in agent mode"), std::string::npos) << r.out << r.err;
}

// spec.additionalScrapeConfigs: a YAML list of jobs, appended after the generated ones; what is
// not such a list is refused naming why.
TEST(Promcfg, AdditionalScrapeConfigsAreAppendedAndCheckedForAJobName) {
  auto spec = v1::Prometheus::from_json(Y("spec: {}")).spec;
  auto in = inputs(spec);
  in.additional_scrape_configs = additional_scrape_configs("- job_name: extra\n  static_configs: [{targets: ['127.0.0.1:9100']}]\n");
  auto config = generate_config(in);
  const auto& jobs = config.at("scrape_configs").as_array();
  ASSERT_FALSE(jobs.empty());
  EXPECT_EQ(json::get_string(jobs.back(), {"job_name"}), "extra");
  EXPECT_EQ(promtool_config(config), "") << json::to_yaml(config);
  EXPECT_TRUE(additional_scrape_configs("").empty());
  auto refused = [](std::string_view yaml) {
    try {
      additional_scrape_configs(yaml);
      return std::string("accepted");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
  };
  EXPECT_EQ(refused("job_name: x"), "it is not a YAML list of scrape configurations");
  EXPECT_EQ(refused("- static_configs: []"), "item 0 has no job_name");
  EXPECT_EQ(refused("- {job_name: a}\n- {job_name: a}"), "job_name a is there twice");
  EXPECT_TRUE(refused("- [unclosed").starts_with("it is not YAML")) << refused("- [unclosed");
}

TEST(RuleFiles, PromtoolAcceptsThemAndTheyArePackedIntoConfigMaps) {
  auto rule = Y(R"(
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: web, namespace: shop, uid: u-1234}
spec:
  groups:
  - name: web
    interval: 1m
    rules:
    - record: job:http_requests:rate5m
      expr: sum by (job) (rate(http_requests_total[5m]))
    - alert: WebDown
      expr: up{job="web"} == 0
      for: 5m
      labels: {severity: page}
      annotations: {summary: 'web {{ $labels.instance }} is down'}
)");
  auto files = rule_files({rule}).files;
  ASSERT_EQ(files.size(), 1u);
  ASSERT_TRUE(files.contains("shop-web-u-1234.yaml"));
  EXPECT_EQ(promtool("rules", "shop-web-u-1234.yaml", files.at("shop-web-u-1234.yaml")), "") << files.at("shop-web-u-1234.yaml");

}

// Many rule files of about 500 bytes each, named as rule_files names them.
std::map<std::string, std::string> rule_file_set(std::size_t count, std::string_view ns = "team") {
  std::map<std::string, std::string> files;
  for (std::size_t i = 0; i < count; ++i)
    files[std::string(ns) + "-rules-" + std::to_string(i) + "-0f6c2a.yaml"] = std::string(480, static_cast<char>('a' + i % 26));
  return files;
}

std::size_t total_bytes(const std::vector<std::map<std::string, std::string>>& bins) {
  std::size_t total = 0;
  for (const auto& bin : bins)
    for (const auto& [name, content] : bin) total += name.size() + content.size();
  return total;
}

// How many ConfigMaps differ between two shardings (one missing on either side counts).
std::size_t changed_configmaps(const std::vector<std::map<std::string, std::string>>& a, const std::vector<std::map<std::string, std::string>>& b) {
  std::size_t changed = 0;
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) changed += i >= a.size() || i >= b.size() || a[i] != b[i];
  return changed;
}

TEST(RuleFiles, ShardingKeepsEveryFileInOneConfigMapOfBoundedSize) {
  EXPECT_EQ(shard_rule_files({}, 0).size(), 1u);  // Prometheus always mounts the first
  auto few = shard_rule_files(rule_file_set(20), 0);
  ASSERT_EQ(few.size(), 1u);
  EXPECT_EQ(few[0].size(), 20u);

  auto files = rule_file_set(2000);  // about 1 MB: sixteen ConfigMaps of about 64 KiB
  auto bins = shard_rule_files(files, 0);
  ASSERT_EQ(bins.size(), 16u);
  std::size_t held = 0;
  for (const auto& bin : bins) {
    held += bin.size();
    EXPECT_LE(total_bytes({bin}), kMaxRuleConfigMapBytes);
    EXPECT_GT(bin.size(), 60u) << "the hash spreads the files";
  }
  EXPECT_EQ(held, files.size());
  EXPECT_EQ(shard_rule_files(files, 16), bins) << "the same files land in the same ConfigMaps";

  EXPECT_THROW(shard_rule_files({{"huge.yaml", std::string(600, 'x')}}, 0, {.max_bytes = 512}), std::length_error);
  EXPECT_THROW(shard_rule_files(rule_file_set(100), 0, {.max_bytes = 2000, .target_bytes = 1000, .max_configmaps = 8}), std::length_error);
}

TEST(RuleFiles, OneRuleChangedAddedOrRemovedRewritesOneConfigMap) {
  auto files = rule_file_set(2000);
  auto before = shard_rule_files(files, 0);
  ASSERT_EQ(before.size(), 16u);

  auto changed = files;
  changed.begin()->second += "\n# changed";
  EXPECT_EQ(changed_configmaps(before, shard_rule_files(changed, before.size())), 1u);

  auto added = files;
  added["team-new-rule-1a2b3c.yaml"] = std::string(480, 'n');
  EXPECT_EQ(changed_configmaps(before, shard_rule_files(added, before.size())), 1u);

  auto removed = files;
  removed.erase(std::next(removed.begin(), 1000));
  EXPECT_EQ(changed_configmaps(before, shard_rule_files(removed, before.size())), 1u);

  // Unlike packing in name order, a file early in the order moves nothing else.
  auto first = files;
  first["aaa-first-000000.yaml"] = std::string(480, 'f');
  EXPECT_EQ(changed_configmaps(before, shard_rule_files(first, before.size())), 1u);
}

TEST(RuleFiles, TheConfigMapCountHoldsWithinItsRangeAndChangesOnlyBeyondIt) {
  auto files = rule_file_set(2000);
  // Half the rules gone: sixteen ConfigMaps still hold them within range, nothing moves.
  auto half = rule_file_set(1000);
  EXPECT_EQ(shard_rule_files(half, 16).size(), 16u);
  // A fresh start for those sizes them for the target instead.
  EXPECT_EQ(shard_rule_files(half, 0).size(), 8u);
  // Under a quarter of the target: fewer ConfigMaps.
  EXPECT_EQ(shard_rule_files(rule_file_set(400), 16).size(), 4u);
  // Beyond twice the target: more.
  EXPECT_EQ(shard_rule_files(rule_file_set(5000), 16).size(), 64u);
  // A count that is not a power of two (written by prometheus-operator's packing) is replaced.
  EXPECT_EQ(shard_rule_files(files, 3).size(), 16u);
  // A ConfigMap the hash overfills doubles the count until none does.
  auto bins = shard_rule_files(rule_file_set(64), 0, {.max_bytes = 4000, .target_bytes = 100000, .max_configmaps = 256});
  EXPECT_GT(bins.size(), 8u);
  for (const auto& bin : bins) EXPECT_LE(total_bytes({bin}), 4000u);
}

TEST(RuleFiles, AFileNoConfigMapHoldsRejectsThatRuleOnly) {
  auto rule = [](std::string name, std::size_t expr_bytes) {
    return json::Value(json::Object{
        {"metadata", json::Object{{"namespace", "shop"}, {"name", name}, {"uid", "u"}}},
        {"spec", json::Object{{"groups", json::Array{json::Object{
                                             {"name", "g"},
                                             {"rules", json::Array{json::Object{{"record", "r"}, {"expr", std::string(expr_bytes, '1')}}}}}}}}}});
  };
  auto out = rule_files({rule("small", 10), rule("huge", 1400 * 1024), rule("other", 10)});
  EXPECT_EQ(out.files.size(), 2u);
  EXPECT_TRUE(out.files.contains("shop-small-u.yaml"));
  EXPECT_TRUE(out.files.contains("shop-other-u.yaml"));
  ASSERT_EQ(out.rejected.size(), 1u);
  EXPECT_EQ(out.rejected[0].first, 1u);
  EXPECT_NE(out.rejected[0].second.find("more than a rule ConfigMap holds (524288)"), std::string::npos) << out.rejected[0].second;
}

// Written around the CRD schema, a PrometheusRule whose members have the wrong types costs only
// itself its place, with the field named.
TEST(RuleFiles, AnUnreadableRuleIsRejectedAloneNamingTheField) {
  auto good = Y("{metadata: {namespace: shop, name: good, uid: u}, spec: {groups: [{name: g, rules: [{record: r, expr: up}]}]}}");
  auto bad = Y("{metadata: {namespace: shop, name: bad, uid: u}, spec: {groups: [{name: g, rules: [{record: r, expr: up, labels: {a: [1]}}]}]}}");
  auto out = rule_files({bad, good});
  EXPECT_EQ(out.files.size(), 1u);
  EXPECT_TRUE(out.files.contains("shop-good-u.yaml"));
  ASSERT_EQ(out.rejected.size(), 1u);
  EXPECT_EQ(out.rejected[0].first, 0u);
  EXPECT_EQ(out.rejected[0].second, "it cannot be read: spec.groups[0].rules[0].labels[a]: expected a string, got array");
}

// One PrometheusRule whose expression (or duration) Prometheus cannot parse would stop every
// reload: it is left out alone, with the group and rule index and the parse error, and the rest
// still reaches the rule files (which promtool accepts).
TEST(RuleFiles, ARuleThatDoesNotParseRejectsThatRuleOnly) {
  auto rule = [](std::string name, std::string expr, std::string for_duration = "5m") {
    return json::Value(json::Object{
        {"metadata", json::Object{{"namespace", "shop"}, {"name", name}, {"uid", "u"}}},
        {"spec", json::Object{{"groups", json::Array{json::Object{
                                             {"name", "g"},
                                             {"rules", json::Array{json::Object{{"record", "ok"}, {"expr", "up"}},
                                                                   json::Object{{"alert", "A"}, {"expr", expr}, {"for", for_duration}}}}}}}}}});
  };
  std::vector<json::Value> rules{rule("good", "rate(x[5m]) > 1"), rule("bad", "rate(x) > 1"), rule("late", "up", "5"),
                                 rule("regex", "up{job=~\"(\"}")};
  auto out = rule_files(rules);
  ASSERT_EQ(out.files.size(), 1u);
  EXPECT_EQ(promtool("rules", "shop-good-u.yaml", out.files.at("shop-good-u.yaml")), "");
  ASSERT_EQ(out.rejected.size(), 3u);
  EXPECT_EQ(out.rejected[0].first, 1u);
  EXPECT_EQ(out.rejected[0].second,
            R"x(its rules are invalid: spec.groups[0].rules[1].expr: Invalid value: "rate(x) > 1": 1:6: parse error: expected type range vector in call to function "rate", got instant vector)x");
  EXPECT_EQ(out.rejected[1].second,
            R"x(its rules are invalid: spec.groups[0].rules[1].for: Invalid value: "5": not a valid duration string: "5")x");
  EXPECT_EQ(out.rejected[2].second,
            R"x(its rules are invalid: spec.groups[0].rules[1].expr: Invalid value: "up{job=~\"(\"}": 1:4: parse error: error parsing regexp: missing closing ): `^(?:()$`)x");
  // What we leave out, promtool refuses too.
  for (const auto& [index, why] : out.rejected) {
    std::string file = json::to_yaml(json::Object{{"groups", *json::find(rules[index], {"spec", "groups"})}});
    EXPECT_NE(promtool("rules", "x.yaml", file), "") << file;
  }
}

// spec.alerting: each Alertmanager Service's endpoints, kept to its name and port, the replica
// label dropped from alerts; promtool loads it.
TEST(PromConfig, AlertingPointsAtTheEndpointsOfEachAlertmanagerService) {
  auto spec = v1::PrometheusSpec::from_json(Y(R"(
alerting:
  alertmanagers:
  - {name: alertmanager-operated, port: web}
  - {namespace: ops, name: am, port: 9093, scheme: HTTPS, pathPrefix: /am, timeout: 5s}
)"), "spec");
  ConfigInputs in;
  in.ns = "monitoring";
  in.name = "k8s";
  in.spec = &spec;
  json::Value config = generate_config(in);
  EXPECT_EQ(promtool_config(config), "");
  EXPECT_EQ(json::serialize(*json::find(config, {"alerting"})),
            R"({"alertmanagers":[)"
            R"({"path_prefix":"/","scheme":"http","api_version":"v2","kubernetes_sd_configs":[{"role":"endpoints","namespaces":{"names":["monitoring"]}}],)"
            R"("relabel_configs":[{"action":"keep","source_labels":["__meta_kubernetes_service_name"],"regex":"alertmanager-operated"},)"
            R"({"action":"keep","source_labels":["__meta_kubernetes_endpoint_port_name"],"regex":"web"}]},)"
            R"({"path_prefix":"/am","scheme":"https","api_version":"v2","kubernetes_sd_configs":[{"role":"endpoints","namespaces":{"names":["ops"]}}],)"
            R"("relabel_configs":[{"action":"keep","source_labels":["__meta_kubernetes_service_name"],"regex":"am"},)"
            R"({"action":"keep","source_labels":["__meta_kubernetes_pod_container_port_number"],"regex":"9093"}],"timeout":"5s"}],)"
            R"("alert_relabel_configs":[{"action":"labeldrop","regex":"prometheus_replica"}]})");
}

}  // namespace
}  // namespace capstan::monitoring
