// The monitoring controller against `capstan apiserver`, `capstan manager
// --controllers=monitoring`, kubectl and the real promtool: a Prometheus selecting a
// ServiceMonitor and a PrometheusRule gets prometheus-operator's objects (config Secret with
// prometheus.yaml.gz, rule ConfigMap, prometheus-operated Service, StatefulSet), becomes
// Available when its pods are Ready, and follows changes to what it selects.
#include "runtime/gzip/gzip.h"
#include "testing/controller_fixture.h"
#include "testing/prometheus.h"
#include "runtime/http/server.h"
#include "runtime/meta/base64.h"
#include "runtime/json/yaml.h"
#include "runtime/pki/sign.h"

#include <gtest/gtest.h>

#include <mutex>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const char* kManifests = R"(apiVersion: v1
kind: Namespace
metadata: {name: obs}
---
apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: main, namespace: obs}
spec:
  replicas: 2
  version: v2.53.0
  serviceMonitorSelector: {matchLabels: {team: shop}}
  serviceMonitorNamespaceSelector: {}
  ruleSelector: {}
  externalLabels: {cluster: e2e}
---
apiVersion: monitoring.capstan.dev/v1
kind: ServiceMonitor
metadata: {name: web, namespace: obs, labels: {team: shop}}
spec:
  selector: {matchLabels: {app: web}}
  endpoints: [{port: metrics, interval: 15s}]
---
apiVersion: monitoring.capstan.dev/v1
kind: ServiceMonitor
metadata: {name: other, namespace: obs, labels: {team: billing}}
spec:
  selector: {matchLabels: {app: billing}}
  endpoints: [{port: metrics}]
---
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: web, namespace: obs}
spec:
  groups:
  - name: web
    rules:
    - alert: WebDown
      expr: up{job="web"} == 0
      for: 5m
      labels: {severity: page}
)";

class MonitoringE2E : public ControllerFixture {
 protected:
  MonitoringE2E() : ControllerFixture({"monitoring", /*simulate_workloads=*/true, "prometheus,statefulsets"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=monitoring"}; }

  // The gzipped configuration `key` ("prometheus.yaml.gz") of Secret obs/<secret>, or "".
  std::string config(const std::string& secret = "prometheus-main", const std::string& key = "prometheus.yaml.gz") {
    std::string escaped;
    for (char c : key) escaped += c == '.' ? std::string("\\.") : std::string(1, c);
    auto b64 = get({"get", "secret", secret, "-n", "obs", "-o", "jsonpath={.data." + escaped + "}"});
    auto gz = b64.empty() ? std::nullopt : meta::base64_decode(b64);
    return gz ? gzip::decompress(*gz) : "";
  }
};

TEST_P(MonitoringE2E, APrometheusGetsItsObjectsBecomesAvailableAndFollowsItsMonitors) {
  kubectl_->ok({"apply", "-f", "-"}, kManifests);

  // The objects prometheus-operator makes, under its names.
  ASSERT_TRUE(eventually([&] { return config().find("serviceMonitor/obs/web/0") != std::string::npos; }, 30s)) << config();
  std::string cfg = config();
  EXPECT_EQ(cfg.find("serviceMonitor/obs/other/0"), std::string::npos) << "not selected (label team=billing)";
  EXPECT_NE(cfg.find("cluster: e2e"), std::string::npos) << cfg;
  EXPECT_NE(cfg.find("/etc/prometheus/rules/prometheus-main-rulefiles-0/*.yaml"), std::string::npos) << cfg;
  EXPECT_EQ(get({"get", "service", "prometheus-operated", "-n", "obs", "-o", "jsonpath={.spec.clusterIP}"}), "None");
  EXPECT_EQ(get({"get", "statefulset", "prometheus-main", "-n", "obs", "-o", "jsonpath={.spec.template.spec.containers[0].image}"}),
            "quay.io/prometheus/prometheus:v2.53.0");
  EXPECT_EQ(get({"get", "statefulset", "prometheus-main", "-n", "obs", "-o", "jsonpath={.metadata.ownerReferences[0].kind}"}),
            "Prometheus");

  // The rule file is what promtool accepts.
  std::string rules = get({"get", "configmap", "prometheus-main-rulefiles-0", "-n", "obs", "-o", "jsonpath={.data}"});
  EXPECT_NE(rules.find("obs-web-"), std::string::npos) << rules;
  std::string uid = get({"get", "prometheusrule", "web", "-n", "obs", "-o", "jsonpath={.metadata.uid}"});
  std::string file_key = "obs-web-" + uid + ".yaml";
  std::string escaped;
  for (char c : file_key) escaped += c == '.' ? std::string("\\.") : std::string(1, c);
  std::string rule_file = get({"get", "configmap", "prometheus-main-rulefiles-0", "-n", "obs", "-o", "jsonpath={.data." + escaped + "}"});
  ASSERT_FALSE(rule_file.empty());
  write_file(dir_->file(file_key), rule_file);
  auto check = run({"promtool", "check", "rules", dir_->file(file_key)});
  EXPECT_EQ(check.code, 0) << check.out << check.err << rule_file;

  // The simulated pods turn Ready: the Prometheus is Available with 2 ready replicas.
  auto available = [&] { return condition("prometheus", "main", "obs", "Available"); };
  EXPECT_TRUE(eventually([&] { return available() == "True"; }, 30s)) << available();
  EXPECT_EQ(get({"get", "prometheus", "main", "-n", "obs", "-o", "jsonpath={.status.availableReplicas}"}), "2");
  std::string table = get({"get", "prometheus", "-n", "obs"});
  EXPECT_NE(table.find("VERSION"), std::string::npos) << table;
  EXPECT_NE(table.find("v2.53.0"), std::string::npos) << table;

  // Relabelled into the selection: the other monitor's job appears; deleted: the first goes.
  kubectl_->ok({"label", "--overwrite", "servicemonitor", "other", "-n", "obs", "team=shop"});
  EXPECT_TRUE(eventually([&] { return config().find("serviceMonitor/obs/other/0") != std::string::npos; }, 20s)) << config();
  kubectl_->ok({"delete", "servicemonitor", "web", "-n", "obs"});
  EXPECT_TRUE(eventually([&] { return config().find("serviceMonitor/obs/web/0") == std::string::npos; }, 20s)) << config();

  // Scaled: the StatefulSet follows.
  kubectl_->ok({"patch", "prometheus", "main", "-n", "obs", "--type=merge", "-p", R"({"spec":{"replicas":1}})"});
  EXPECT_TRUE(eventually([&] {
    return get({"get", "statefulset", "prometheus-main", "-n", "obs", "-o", "jsonpath={.spec.replicas}"}) == "1";
  }, 20s));
}

const char* kBindingManifests = R"yaml(apiVersion: v1
kind: Namespace
metadata: {name: obs}
---
apiVersion: v1
kind: Namespace
metadata: {name: team, labels: {env: prod}}
---
apiVersion: v1
kind: Namespace
metadata: {name: other}
---
apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: main, namespace: obs}
spec:
  serviceMonitorSelector: {matchLabels: {team: shop}}
  serviceMonitorNamespaceSelector: {matchLabels: {env: prod}}
  ruleSelector: {}
---
apiVersion: monitoring.capstan.dev/v1
kind: ServiceMonitor
metadata: {name: good, namespace: team, labels: {team: shop}}
spec:
  selector: {matchLabels: {app: web}}
  endpoints: [{port: metrics}]
---
apiVersion: monitoring.capstan.dev/v1
kind: ServiceMonitor
metadata: {name: bad-regex, namespace: team, labels: {team: shop}}
spec:
  selector: {matchLabels: {app: api}}
  endpoints:
  - port: metrics
    relabelings: [{sourceLabels: [__meta_kubernetes_pod_name], regex: "(", targetLabel: pod}]
---
apiVersion: monitoring.capstan.dev/v1
kind: ServiceMonitor
metadata: {name: elsewhere, namespace: other, labels: {team: shop}}
spec:
  selector: {matchLabels: {app: web}}
  endpoints: [{port: metrics}]
---
apiVersion: monitoring.capstan.dev/v1
kind: ServiceMonitor
metadata: {name: unlabelled, namespace: team}
spec:
  selector: {matchLabels: {app: web}}
  endpoints: [{port: metrics}]
---
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: local, namespace: obs}
spec:
  groups: [{name: g, rules: [{record: "job:up:sum", expr: "sum by (job) (up)"}]}]
---
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: remote, namespace: team}
spec:
  groups: [{name: g, rules: [{record: "job:up:sum", expr: "sum by (job) (up)"}]}]
)yaml";

// "Why isn't my ServiceMonitor picked up?" answered on the object: each monitor and rule a
// Prometheus selects names it in status.bindings with Accepted and the reason when not; an
// invalid monitor is left out of the configuration alone; bindings follow namespace labels and
// go with a deleted Prometheus.
TEST_P(MonitoringE2E, MonitorsAndRulesSayWhichPrometheusTookThemAndWhyNot) {
  kubectl_->ok({"apply", "-f", "-"}, kBindingManifests);
  auto accepted = [&](const std::string& resource, const std::string& name, const std::string& ns, const std::string& field = "status") {
    return get({"get", resource, name, "-n", ns, "-o",
                "jsonpath={.status.bindings[?(@.name==\"main\")].conditions[?(@.type==\"Accepted\")]." + field + "}"});
  };
  ASSERT_TRUE(eventually([&] { return accepted("servicemonitor", "good", "team") == "True"; }, 30s)) << accepted("servicemonitor", "good", "team");
  EXPECT_EQ(get({"get", "servicemonitor", "good", "-n", "team", "-o", "jsonpath={.status.bindings[0].namespace}/{.status.bindings[0].resource}"}),
            "obs/prometheuses");

  EXPECT_TRUE(eventually([&] { return accepted("servicemonitor", "bad-regex", "team", "reason") == "InvalidConfiguration"; }, 20s));
  std::string why = accepted("servicemonitor", "bad-regex", "team", "message");
  EXPECT_NE(why.find("spec.endpoints[0].relabelings[0].regex"), std::string::npos) << why;
  EXPECT_EQ(accepted("servicemonitor", "bad-regex", "team"), "False");

  EXPECT_TRUE(eventually([&] { return accepted("servicemonitor", "elsewhere", "other", "reason") == "NamespaceNotSelected"; }, 20s));
  why = accepted("servicemonitor", "elsewhere", "other", "message");
  EXPECT_NE(why.find("namespace other is not chosen by spec.serviceMonitorNamespaceSelector of Prometheus obs/main"), std::string::npos) << why;
  EXPECT_TRUE(eventually([&] { return accepted("prometheusrule", "remote", "team", "reason") == "NamespaceNotSelected"; }, 20s));
  EXPECT_NE(accepted("prometheusrule", "remote", "team", "message").find("looks only in its own namespace obs"), std::string::npos);
  EXPECT_TRUE(eventually([&] { return accepted("prometheusrule", "local", "obs") == "True"; }, 20s));
  EXPECT_EQ(get({"get", "servicemonitor", "unlabelled", "-n", "team", "-o", "jsonpath={.status.bindings}"}), "");

  // The bad monitor costs only itself its place in the configuration.
  auto cfg = [&] { return config(); };
  ASSERT_TRUE(eventually([&] { return cfg().find("serviceMonitor/team/good/0") != std::string::npos; }, 20s)) << cfg();
  EXPECT_EQ(cfg().find("serviceMonitor/team/bad-regex/0"), std::string::npos) << cfg();

  // kubectl shows it in columns.
  std::string table = get({"get", "servicemonitors", "-n", "team"});
  EXPECT_NE(table.find("PROMETHEUS"), std::string::npos) << table;
  EXPECT_NE(table.find("ACCEPTED"), std::string::npos) << table;

  // The namespace labelled into the selector: accepted; the Prometheus deleted: no bindings.
  kubectl_->ok({"label", "namespace", "other", "env=prod"});
  EXPECT_TRUE(eventually([&] { return accepted("servicemonitor", "elsewhere", "other") == "True"; }, 20s))
      << accepted("servicemonitor", "elsewhere", "other", "message");
  kubectl_->ok({"delete", "prometheus", "main", "-n", "obs"});
  EXPECT_TRUE(eventually([&] { return get({"get", "servicemonitor", "good", "-n", "team", "-o", "jsonpath={.status.bindings}"}).empty(); }, 20s))
      << get({"get", "servicemonitor", "good", "-n", "team", "-o", "jsonpath={.status}"});
}

// A real Prometheus (Debian's) loads what the controller generated: the configuration from the
// config Secret and the rule files from the rule ConfigMap, as its pods would mount them; its
// API then serves the generated jobs and the PrometheusRule's alert.
TEST_P(MonitoringE2E, ARealPrometheusLoadsTheGeneratedConfigurationAndRules) {
  kubectl_->ok({"apply", "-f", "-"}, kManifests);
  ASSERT_TRUE(eventually([&] { return config().find("serviceMonitor/obs/web/0") != std::string::npos; }, 30s)) << config();

  // Hand-written jobs from a Secret: a missing one fails the reconcile, naming it (the last
  // configuration stays); once it is there, its jobs follow the generated ones.
  kubectl_->ok({"patch", "prometheus", "main", "-n", "obs", "--type=merge", "-p",
                R"({"spec":{"additionalScrapeConfigs":{"name":"extra-jobs","key":"jobs.yaml"}}})"});
  auto reconciled = [&] { return condition("prometheus", "main", "obs", "Reconciled", "message"); };
  EXPECT_TRUE(eventually([&] { return reconciled().find("spec.additionalScrapeConfigs: Secret obs/extra-jobs not found") != std::string::npos; }, 20s))
      << reconciled();
  EXPECT_NE(config().find("serviceMonitor/obs/web/0"), std::string::npos) << "the last configuration stays";
  kubectl_->ok({"create", "secret", "generic", "extra-jobs", "-n", "obs",
                "--from-literal=jobs.yaml=- job_name: node\n  static_configs: [{targets: ['127.0.0.1:9100']}]\n"});
  // (the failed reconcile is retried with backoff, and reads the Secret again)
  ASSERT_TRUE(eventually([&] { return config().find("job_name: node") != std::string::npos; }, 20s)) << config() << reconciled();
  EXPECT_TRUE(eventually([&] { return condition("prometheus", "main", "obs", "Reconciled") == "True"; }, 20s)) << reconciled();
  auto rule_data = [&] { return get({"get", "configmap", "prometheus-main-rulefiles-0", "-n", "obs", "-o", "json"}); };
  ASSERT_TRUE(eventually([&] { return rule_data().find("WebDown") != std::string::npos; }, 30s));
  std::map<std::string, std::string> files;
  const json::Value configmap = json::parse(rule_data());
  for (const auto& kv : configmap.at("data").as_object()) files[std::string(kv.key())] = std::string(kv.value().as_string());

  PrometheusServer prometheus(*dir_, config(), files);
  std::string loaded = prometheus.get("/api/v1/status/config");
  EXPECT_NE(loaded.find("serviceMonitor/obs/web/0"), std::string::npos) << loaded;
  EXPECT_NE(loaded.find("cluster: e2e"), std::string::npos) << "external labels: " << loaded;
  EXPECT_NE(loaded.find("job_name: node"), std::string::npos) << "additionalScrapeConfigs: " << loaded;
  std::string rules = prometheus.get("/api/v1/rules");
  EXPECT_NE(rules.find(R"("name":"WebDown")"), std::string::npos) << rules;
  EXPECT_EQ(rules.find(R"("health":"err")"), std::string::npos) << rules;
  EXPECT_NE(rules.find(R"("query":"up{job=\"web\"} == 0")"), std::string::npos) << rules;
}

// Probes and ScrapeConfigs: the jobs generated from them, run by a real Prometheus — a site
// probed through a real blackbox exporter, and an exporter found both by a static config and by
// HTTP discovery. A Probe naming its prober with a scheme is left out, and its status says why.
TEST_P(MonitoringE2E, ProbesAndScrapeConfigsAreRunByARealPrometheus) {
  http::Server site({.name = "site"}, [](http::Request&, http::Reply& reply) { reply.send(http::Response(200, "ok", "text/plain")); });
  site.start();
  std::string exporter_address;
  http::Server exporter({.name = "exporter"}, [&](http::Request& req, http::Reply& reply) {
    if (req.path() == "/sd")
      reply.send(http::Response(200, R"([{"targets":[")" + exporter_address + R"("],"labels":{"found_by":"http"}}])"));
    else
      reply.send(http::Response(200, "# TYPE capstan_e2e_up gauge\ncapstan_e2e_up 1\n", "text/plain; version=0.0.4"));
  });
  exporter.start();
  exporter_address = exporter.address();
  TempDir bb_dir("blackbox");
  BlackboxExporter blackbox(bb_dir);

  kubectl_->ok({"create", "namespace", "obs"});
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: probing, namespace: obs}
spec:
  scrapeInterval: 1s
  probeSelector: {}
  scrapeConfigSelector: {}
---
apiVersion: monitoring.capstan.dev/v1
kind: Probe
metadata: {name: site, namespace: obs}
spec:
  jobName: site-probe
  prober: {url: ')" + blackbox.address() + R"('}
  module: http_2xx
  interval: 1s
  targets:
    staticConfig:
      static: ['http://)" + site.address() + R"(/']
      labels: {env: e2e}
---
apiVersion: monitoring.capstan.dev/v1
kind: Probe
metadata: {name: schemed, namespace: obs}
spec:
  prober: {url: 'http://)" + blackbox.address() + R"('}
  targets: {staticConfig: {static: ['http://)" + site.address() + R"(/']}}
---
apiVersion: monitoring.capstan.dev/v1
kind: ScrapeConfig
metadata: {name: exporter, namespace: obs}
spec:
  scrapeInterval: 1s
  staticConfigs: [{targets: [')" + exporter.address() + R"('], labels: {from: static}}]
  httpSDConfigs: [{url: 'http://)" + exporter.address() + R"(/sd', refreshInterval: 5s}]
)");
  auto cfg = [&] { return config("prometheus-probing"); };
  ASSERT_TRUE(eventually([&] { return cfg().find("scrapeConfig/obs/exporter") != std::string::npos; }, 30s)) << cfg();
  EXPECT_NE(cfg().find("probe/obs/site"), std::string::npos) << cfg();
  EXPECT_EQ(cfg().find("probe/obs/schemed"), std::string::npos) << "refused by validation: left out\n" << cfg();

  auto binding = [&](const std::string& resource, const std::string& name, const std::string& field) {
    return get({"get", resource, name, "-n", "obs", "-o",
                "jsonpath={.status.bindings[?(@.name==\"probing\")].conditions[?(@.type==\"Accepted\")]." + field + "}"});
  };
  EXPECT_TRUE(eventually([&] { return binding("probe", "site", "status") == "True"; }, 20s)) << binding("probe", "site", "message");
  EXPECT_TRUE(eventually([&] { return binding("scrapeconfig", "exporter", "status") == "True"; }, 20s));
  EXPECT_TRUE(eventually([&] { return binding("probe", "schemed", "reason") == "InvalidConfiguration"; }, 20s));
  EXPECT_NE(binding("probe", "schemed", "message").find("spec.prober.url: Invalid value"), std::string::npos)
      << binding("probe", "schemed", "message");
  const std::string table = get({"get", "probes", "-n", "obs"});
  EXPECT_NE(table.find("probing"), std::string::npos) << "the Prometheus column\n" << table;

  // The real servers: the probe succeeds through the blackbox exporter; the exporter is scraped
  // as found by both discoveries.
  TempDir prom_dir("prometheus");
  PrometheusServer prometheus(prom_dir, cfg(), {});
  auto query = [&](const std::string& q) { return prometheus.get("/api/v1/query?query=" + q); };
  const bool probed = eventually([&] {
    const std::string r = query("probe_success");
    return r.find(R"("job":"site-probe")") != std::string::npos && r.find(R"("1"])") != std::string::npos;
  }, 30s);
  EXPECT_TRUE(probed) << query("probe_success") << "\ntargets:\n" << prometheus.get("/api/v1/targets") << "\n" << blackbox.logs();
  const std::string success = query("probe_success");
  EXPECT_NE(success.find(R"("instance":"http://)" + site.address() + R"(/")"), std::string::npos) << success;
  EXPECT_NE(success.find(R"("env":"e2e")"), std::string::npos) << success;
  EXPECT_NE(success.find(R"("namespace":"obs")"), std::string::npos) << success;
  const bool scraped = eventually([&] {
    const std::string r = query("capstan_e2e_up");
    return r.find(R"("found_by":"http")") != std::string::npos && r.find(R"("from":"static")") != std::string::npos;
  }, 30s);
  EXPECT_TRUE(scraped) << query("capstan_e2e_up") << "\ntargets:\n" << prometheus.get("/api/v1/targets");
  EXPECT_NE(query("capstan_e2e_up").find(R"("job":"scrapeConfig/obs/exporter")"), std::string::npos) << query("capstan_e2e_up");
  exporter.stop();
  site.stop();
}

// Credentials and TLS from Secrets and ConfigMaps: a real Prometheus scrapes an https exporter
// that asks for basic auth, trusting the CA of a ConfigMap, with the files of the assets Secret
// (the password never in the configuration). A ScrapeConfig whose Secret is missing is left out,
// and its status names the Secret. The Prometheus's default scrape class labels what it scrapes;
// a ScrapeConfig naming a class the Prometheus has not is left out, its status saying so.
TEST_P(MonitoringE2E, ScrapesAuthenticateWithValuesFromSecretsAndConfigMaps) {
  auto ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  auto ca = pki::self_signed_ca("exporter test CA", std::chrono::hours(1), ca_key);
  auto serving = pki::serving_certificate({"127.0.0.1"}, ca, ca_key, std::chrono::hours(1));
  http::ServerOptions options;
  options.name = "secure-exporter";
  options.address = "127.0.0.1";
  http::ServerTls tls;
  tls.cert_pem = serving.certificate.to_pem();
  tls.key_pem = serving.key.to_pem();
  options.tls = tls;
  std::mutex mu;
  int refused = 0;
  http::Server exporter(options, [&](http::Request& req, http::Reply& reply) {
    if (req.headers.get_or("Authorization", "") != "Basic " + meta::base64_encode("admin:pa55word")) {
      std::lock_guard l(mu);
      ++refused;
      return reply.send(http::Response(401, "who are you?\n", "text/plain"));
    }
    reply.send(http::Response(200, "# TYPE capstan_e2e_secure gauge\ncapstan_e2e_secure 1\n", "text/plain; version=0.0.4"));
  });
  exporter.start();

  kubectl_->ok({"create", "namespace", "obs"});
  kubectl_->ok({"create", "secret", "generic", "exporter-auth", "-n", "obs", "--from-literal=user=admin", "--from-literal=password=pa55word"});
  kubectl_->ok({"create", "configmap", "exporter-ca", "-n", "obs", "--from-literal=ca.crt=" + ca.to_pem()});
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: secure, namespace: obs}
spec:
  scrapeInterval: 1s
  scrapeConfigSelector: {}
  scrapeClasses: [{name: tagged, default: true, relabelings: [{targetLabel: scrape_class, replacement: tagged}]}]
---
apiVersion: monitoring.capstan.dev/v1
kind: ScrapeConfig
metadata: {name: exporter, namespace: obs}
spec:
  scheme: HTTPS
  staticConfigs: [{targets: [')" + exporter.address() + R"(']}]
  basicAuth: {username: {name: exporter-auth, key: user}, password: {name: exporter-auth, key: password}}
  tlsConfig: {ca: {configMap: {name: exporter-ca, key: ca.crt}}}
---
apiVersion: monitoring.capstan.dev/v1
kind: ScrapeConfig
metadata: {name: locked, namespace: obs}
spec:
  staticConfigs: [{targets: ['127.0.0.1:1']}]
  authorization: {credentials: {name: absent, key: token}}
---
apiVersion: monitoring.capstan.dev/v1
kind: ScrapeConfig
metadata: {name: unclassed, namespace: obs}
spec:
  scrapeClass: gold
  staticConfigs: [{targets: ['127.0.0.1:1']}]
)");
  auto cfg = [&] { return config("prometheus-secure"); };
  ASSERT_TRUE(eventually([&] { return cfg().find("scrapeConfig/obs/exporter") != std::string::npos; }, 30s)) << cfg();
  const std::string generated = cfg();
  EXPECT_EQ(generated.find("pa55word"), std::string::npos) << generated;
  EXPECT_NE(generated.find("password_file: /etc/prometheus/certs/secret_obs_exporter-auth_password"), std::string::npos) << generated;
  EXPECT_EQ(generated.find("scrapeConfig/obs/locked"), std::string::npos) << "its Secret is missing: left out\n" << generated;
  auto binding = [&](const std::string& name, const std::string& field) {
    return get({"get", "scrapeconfig", name, "-n", "obs", "-o",
                "jsonpath={.status.bindings[0].conditions[?(@.type==\"Accepted\")]." + field + "}"});
  };
  EXPECT_TRUE(eventually([&] { return binding("exporter", "status") == "True"; }, 20s)) << binding("exporter", "message");
  EXPECT_TRUE(eventually([&] { return binding("locked", "message") == "Secret obs/absent not found"; }, 20s)) << binding("locked", "message");
  EXPECT_TRUE(eventually([&] { return get({"get", "events", "-n", "obs"}).find("Secret obs/absent not found") != std::string::npos; }, 20s));
  EXPECT_EQ(generated.find("scrapeConfig/obs/unclassed"), std::string::npos) << generated;
  EXPECT_TRUE(eventually(
      [&] {
        return binding("unclassed", "message") ==
               R"(spec.scrapeClass: Invalid value: "gold": Prometheus obs/secure has no such scrape class (spec.scrapeClasses))";
      },
      20s))
      << binding("unclassed", "message");

  // The assets Secret, as the pods mount it, and the real Prometheus.
  std::map<std::string, std::string> assets;
  const json::Value secret = json::parse(get({"get", "secret", "prometheus-secure-tls-assets-0", "-n", "obs", "-o", "json"}));
  for (const auto& kv : secret.at("data").as_object())
    assets[std::string(kv.key())] = meta::base64_decode(kv.value().as_string()).value_or("");
  EXPECT_EQ(assets.at("secret_obs_exporter-auth_password"), "pa55word");
  EXPECT_EQ(assets.at("configmap_obs_exporter-ca_ca.crt"), ca.to_pem());
  TempDir prom_dir("prometheus");
  PrometheusServer prometheus(prom_dir, generated, {}, {.assets = assets});
  auto query = [&] { return prometheus.get("/api/v1/query?query=capstan_e2e_secure"); };
  EXPECT_TRUE(eventually([&] { return query().find(R"("job":"scrapeConfig/obs/exporter")") != std::string::npos; }, 30s))
      << query() << "\ntargets:\n" << prometheus.get("/api/v1/targets");
  EXPECT_NE(query().find(R"("scrape_class":"tagged")"), std::string::npos) << "the default class's relabeling: " << query();
  {
    std::lock_guard l(mu);
    EXPECT_EQ(refused, 0) << "every scrape authenticated";
  }
  exporter.stop();

  // A rotated password reaches the assets Secret, and a missing Secret that appears lets its
  // ScrapeConfig in, within seconds: the manager watches the values it read (no resync wait).
  kubectl_->ok({"patch", "secret", "exporter-auth", "-n", "obs", "-p", R"({"stringData":{"password":"n3w-pa55"}})"});
  auto asset = [&](const std::string& key) {
    return meta::base64_decode(get({"get", "secret", "prometheus-secure-tls-assets-0", "-n", "obs", "-o",
                                    "jsonpath={.data." + key + "}"}))
        .value_or("");
  };
  EXPECT_TRUE(eventually([&] { return asset("secret_obs_exporter-auth_password") == "n3w-pa55"; }, 10s))
      << asset("secret_obs_exporter-auth_password");
  kubectl_->ok({"create", "secret", "generic", "absent", "-n", "obs", "--from-literal=token=s3cret"});
  EXPECT_TRUE(eventually([&] { return cfg().find("scrapeConfig/obs/locked") != std::string::npos; }, 10s)) << cfg();
  EXPECT_TRUE(eventually([&] { return binding("locked", "status") == "True"; }, 10s)) << binding("locked", "message");
  EXPECT_EQ(asset("secret_obs_absent_token"), "s3cret");
}

// A PrometheusAgent: prometheus-operator's prom-agent-<name> objects, a configuration agent mode
// takes, bindings naming the agent; a real Prometheus in agent mode scrapes what the agent selects
// and remote-writes it to a real receiving Prometheus, where it can be queried. kubectl scale sets
// the shards.
TEST_P(MonitoringE2E, APrometheusAgentScrapesAndRemoteWrites) {
  http::Server exporter({.name = "exporter"}, [](http::Request&, http::Reply& reply) {
    reply.send(http::Response(200, "# TYPE capstan_e2e_agent gauge\ncapstan_e2e_agent 7\n", "text/plain; version=0.0.4"));
  });
  exporter.start();
  TempDir receiver_dir("receiver");
  PrometheusServer receiver(receiver_dir, "global: {scrape_interval: 1m}\n", {}, {.remote_write_receiver = true});

  kubectl_->ok({"create", "namespace", "obs"});
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: monitoring.capstan.dev/v1
kind: PrometheusAgent
metadata: {name: edge, namespace: obs}
spec:
  version: v2.53.0
  scrapeInterval: 1s
  scrapeConfigSelector: {matchLabels: {agent: edge}}
  externalLabels: {site: e2e}
  remoteWrite: [{url: 'http://)" + receiver.address() + R"(/api/v1/write'}]
---
apiVersion: monitoring.capstan.dev/v1
kind: ScrapeConfig
metadata: {name: exporter, namespace: obs, labels: {agent: edge}}
spec:
  staticConfigs: [{targets: [')" + exporter.address() + R"(']}]
)");
  auto cfg = [&] { return config("prom-agent-edge"); };
  ASSERT_TRUE(eventually([&] { return cfg().find("scrapeConfig/obs/exporter") != std::string::npos; }, 30s)) << cfg();
  const std::string generated = cfg();
  EXPECT_EQ(generated.find("rule_files"), std::string::npos) << generated;
  const std::string path = dir_->write("agent.yaml", json::to_yaml(with_static_targets(json::from_yaml(generated))));
  auto check = run({"promtool", "check", "config", "--agent", path});
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  const std::string args = get({"get", "statefulset", "prom-agent-edge", "-n", "obs", "-o", "jsonpath={.spec.template.spec.containers[0].args}"});
  EXPECT_NE(args.find("--enable-feature=agent"), std::string::npos) << args;
  EXPECT_EQ(get({"get", "service", "prometheus-agent-operated", "-n", "obs", "-o", "jsonpath={.spec.selector}"}),
            R"({"app.kubernetes.io/name":"prometheus-agent"})");
  EXPECT_TRUE(eventually([&] { return condition("prometheusagent", "edge", "obs", "Available") == "True"; }, 30s))
      << condition("prometheusagent", "edge", "obs", "Available", "message");
  EXPECT_TRUE(eventually([&] { return get({"get", "scrapeconfig", "exporter", "-n", "obs", "-o", "jsonpath={.status.bindings[0].resource}"}) == "prometheusagents"; },
                         20s));
  EXPECT_EQ(get({"get", "scrapeconfig", "exporter", "-n", "obs", "-o", "jsonpath={.status.bindings[0].conditions[0].message}"}),
            "loaded by PrometheusAgent obs/edge");

  TempDir agent_dir("agent");
  PrometheusServer agent(agent_dir, generated, {}, {.agent = true});
  auto query = [&] { return receiver.get("/api/v1/query?query=capstan_e2e_agent"); };
  EXPECT_TRUE(eventually([&] { return query().find(R"("job":"scrapeConfig/obs/exporter")") != std::string::npos; }, 60s))
      << query() << "\nagent:\n" << agent.logs();
  EXPECT_NE(query().find(R"("site":"e2e")"), std::string::npos) << "the agent's external labels: " << query();

  kubectl_->ok({"scale", "prometheusagent", "edge", "-n", "obs", "--replicas=2"});
  EXPECT_TRUE(eventually([&] { return !get({"get", "statefulset", "prom-agent-edge-shard-1", "-n", "obs", "--ignore-not-found"}).empty(); }, 30s));
  exporter.stop();
}

// Persistent TSDB: spec.storage.volumeClaimTemplate gives each pod a claim of its own, bound by
// the workload simulation, and a replaced pod gets the same claim back (the data survives).
TEST_P(MonitoringE2E, APersistentVolumeClaimSurvivesThePodsReplacement) {
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: v1
kind: Namespace
metadata: {name: obs}
---
apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: main, namespace: obs}
spec:
  retention: 15d
  retentionSize: 9GB
  storage:
    volumeClaimTemplate:
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
)");
  const std::string claim = "prometheus-main-db-prometheus-main-0";
  auto claim_phase = [&] { return get({"get", "pvc", claim, "-n", "obs", "-o", "jsonpath={.status.phase}"}); };
  ASSERT_TRUE(eventually([&] { return claim_phase() == "Bound"; }, 30s)) << claim_phase();
  const std::string claim_uid = get({"get", "pvc", claim, "-n", "obs", "-o", "jsonpath={.metadata.uid}"});
  auto pod_uid = [&] { return get({"get", "pod", "prometheus-main-0", "-n", "obs", "-o", "jsonpath={.metadata.uid}"}); };
  ASSERT_TRUE(eventually([&] { return !pod_uid().empty(); }, 30s));
  const std::string first_pod = pod_uid();
  std::string args = get({"get", "statefulset", "prometheus-main", "-n", "obs", "-o", "jsonpath={.spec.template.spec.containers[0].args}"});
  EXPECT_NE(args.find("--storage.tsdb.retention.size=9GB"), std::string::npos) << args;
  EXPECT_NE(args.find("--storage.tsdb.retention.time=15d"), std::string::npos) << args;

  kubectl_->ok({"delete", "pod", "prometheus-main-0", "-n", "obs", "--wait=false"});
  ASSERT_TRUE(eventually([&] {
    std::string uid = pod_uid();
    return !uid.empty() && uid != first_pod;
  }, 30s)) << "the StatefulSet did not replace its pod";
  EXPECT_EQ(get({"get", "pod", "prometheus-main-0", "-n", "obs", "-o",
                 "jsonpath={.spec.volumes[?(@.name==\"prometheus-main-db\")].persistentVolumeClaim.claimName}"}),
            claim);
  EXPECT_EQ(get({"get", "pvc", claim, "-n", "obs", "-o", "jsonpath={.metadata.uid}"}), claim_uid) << "the same claim, not a new one";
  EXPECT_EQ(claim_phase(), "Bound");
}

// Shards: one StatefulSet per shard, each reloader told its $(SHARD); `kubectl scale` (the scale
// subresource on spec.shards, as with prometheus-operator) removes the shards scaled away.
TEST_P(MonitoringE2E, ShardsAreStatefulSetsAndKubectlScaleSetsThem) {
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: v1
kind: Namespace
metadata: {name: obs}
---
apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: main, namespace: obs}
spec:
  shards: 2
  serviceMonitorSelector: {}
---
apiVersion: monitoring.capstan.dev/v1
kind: ServiceMonitor
metadata: {name: web, namespace: obs}
spec:
  selector: {matchLabels: {app: web}}
  endpoints: [{port: metrics}]
)");
  auto shard_env = [&](const std::string& sts) {
    return get({"get", "statefulset", sts, "-n", "obs", "-o", "jsonpath={.spec.template.spec.containers[1].env[?(@.name==\"SHARD\")].value}"});
  };
  ASSERT_TRUE(eventually([&] { return shard_env("prometheus-main-shard-1") == "1"; }, 30s));
  EXPECT_EQ(shard_env("prometheus-main"), "0");
  EXPECT_TRUE(eventually([&] { return condition("prometheus", "main", "obs", "Available") == "True"; }, 30s))
      << condition("prometheus", "main", "obs", "Available", "message");
  EXPECT_EQ(get({"get", "prometheus", "main", "-n", "obs", "-o", "jsonpath={.status.shards}/{.status.availableReplicas}"}), "2/2");
  EXPECT_NE(config().find("$(SHARD)"), std::string::npos) << config();

  kubectl_->ok({"scale", "prometheus", "main", "-n", "obs", "--replicas=1"});
  auto statefulsets = [&] { return get({"get", "statefulset", "-n", "obs", "-o", "jsonpath={.items[*].metadata.name}"}); };
  EXPECT_TRUE(eventually([&] { return statefulsets() == "prometheus-main"; }, 30s)) << statefulsets();
  EXPECT_TRUE(eventually([&] { return get({"get", "prometheus", "main", "-n", "obs", "-o", "jsonpath={.status.shards}"}) == "1"; }, 20s));
  EXPECT_EQ(config().find("$(SHARD)"), std::string::npos) << "one shard: no hashing";
}

const char* kAlerting = R"(
apiVersion: v1
kind: Secret
metadata: {name: alertmanager-main, namespace: obs}
stringData:
  alertmanager.yaml: |
    route: {receiver: "null", group_wait: 30s}
    receivers: [{name: "null"}]
---
apiVersion: monitoring.capstan.dev/v1
kind: Alertmanager
metadata: {name: main, namespace: obs}
spec:
  replicas: 2
  alertmanagerConfigSelector: {matchLabels: {team: shop}}
  alertmanagerConfigNamespaceSelector: {}
---
apiVersion: monitoring.capstan.dev/v1
kind: AlertmanagerConfig
metadata: {name: pager, namespace: shop, labels: {team: shop}}
spec:
  route:
    receiver: hook
    groupWait: 1s
    groupInterval: 1s
    matchers: [{name: severity, value: page}]
  receivers:
  - name: hook
    webhookConfigs: [{urlSecret: {name: hook-url, key: url}}]
---
apiVersion: monitoring.capstan.dev/v1
kind: AlertmanagerConfig
metadata: {name: broken, namespace: shop, labels: {team: shop}}
spec:
  route: {receiver: hook}
  receivers:
  - name: hook
    webhookConfigs: [{urlSecret: {name: missing, key: url}}]
---
apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: alerts, namespace: obs}
spec:
  replicas: 1
  evaluationInterval: 1s
  ruleSelector: {matchLabels: {role: alert}}
  alerting:
    alertmanagers: [{name: alertmanager-operated, port: web}]
---
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: always, namespace: obs, labels: {role: alert}}
spec:
  groups:
  - name: always
    rules:
    - alert: AlwaysFiring
      expr: vector(1)
      labels: {severity: page, namespace: shop}
)";

// Alertmanager and AlertmanagerConfig, as prometheus-operator's: the base configuration from the
// Alertmanager's Secret with the selected configs merged in (confined to their namespace, their
// webhook URL read from a Secret; one naming a missing Secret left out alone, with an event), the
// cluster's StatefulSet with its peers and the governing Service; then a real Prometheus fires an
// alert of a PrometheusRule through the generated alerting block to a real Alertmanager running the
// assembled configuration, which delivers it to the test's webhook.
TEST_P(MonitoringE2E, AnAlertFromAPrometheusRuleReachesTheWebhookOfAnAlertmanagerConfig) {
  // The test's webhook receiver.
  std::mutex mu;
  std::vector<std::string> delivered;
  http::Server hook({.name = "alert-hook"}, [&](http::Request& req, http::Reply& reply) {
    {
      std::lock_guard l(mu);
      delivered.push_back(req.body);
    }
    reply.send(http::Response(200, "{}"));
  });
  hook.start();
  kubectl_->ok({"create", "namespace", "shop"});
  kubectl_->ok({"create", "namespace", "obs"});
  kubectl_->ok({"create", "secret", "generic", "hook-url", "-n", "shop", "--from-literal=url=http://" + hook.address() + "/alerts"});
  kubectl_->ok({"apply", "-f", "-"}, kAlerting);

  auto am_config = [&] { return config("alertmanager-main-generated", "alertmanager.yaml.gz"); };
  ASSERT_TRUE(eventually([&] { return am_config().find("shop/pager/hook") != std::string::npos; }, 30s)) << am_config();
  const std::string assembled = am_config();
  EXPECT_EQ(assembled.find("shop/broken"), std::string::npos) << "its Secret is missing: left out\n" << assembled;
  EXPECT_TRUE(eventually([&] { return get({"get", "events", "-n", "shop"}).find("Secret shop/missing not found") != std::string::npos; }, 20s))
      << get({"get", "events", "-n", "shop"});
  // Their status says which Alertmanager took them, and why not.
  auto bound = [&](const std::string& name, const std::string& field) {
    return get({"get", "alertmanagerconfig", name, "-n", "shop", "-o",
                "jsonpath={.status.bindings[?(@.resource==\"alertmanagers\")].conditions[?(@.type==\"Accepted\")]." + field + "}"});
  };
  EXPECT_TRUE(eventually([&] { return bound("pager", "message") == "loaded by Alertmanager obs/main"; }, 20s)) << bound("pager", "message");
  EXPECT_TRUE(eventually([&] { return bound("broken", "message") == "Secret shop/missing not found"; }, 20s)) << bound("broken", "message");
  EXPECT_EQ(bound("broken", "reason"), "InvalidConfiguration");
  const std::string path = dir_->write("alertmanager.yaml", assembled);
  auto check = run({"amtool", "check-config", path});
  EXPECT_EQ(check.code, 0) << check.out << check.err << assembled;
  auto routed = run({"amtool", "config", "routes", "test", "--config.file=" + path, "namespace=shop", "severity=page"});
  EXPECT_EQ(routed.out, "shop/pager/hook\n") << routed.err;
  routed = run({"amtool", "config", "routes", "test", "--config.file=" + path, "namespace=other", "severity=page"});
  EXPECT_EQ(routed.out, "null\n") << "confined to its namespace";

  // The cluster: two peers, the governing Service, Available once the pods are ready.
  const std::string args = get({"get", "statefulset", "alertmanager-main", "-n", "obs", "-o", "jsonpath={.spec.template.spec.containers[0].args}"});
  EXPECT_NE(args.find("--cluster.peer=alertmanager-main-0.alertmanager-operated:9094"), std::string::npos) << args;
  EXPECT_NE(args.find("--cluster.peer=alertmanager-main-1.alertmanager-operated:9094"), std::string::npos) << args;
  EXPECT_EQ(get({"get", "service", "alertmanager-operated", "-n", "obs", "-o", "jsonpath={.spec.ports[*].name}"}), "web tcp-mesh udp-mesh");
  EXPECT_TRUE(eventually([&] { return condition("alertmanager", "main", "obs", "Available") == "True"; }, 30s))
      << condition("alertmanager", "main", "obs", "Available", "message");
  EXPECT_EQ(get({"get", "alertmanager", "main", "-n", "obs", "-o", "jsonpath={.status.availableReplicas}"}), "2");

  // The Prometheus's alerting block points at the Alertmanagers' Service.
  auto prom_config = [&] { return config("prometheus-alerts"); };
  ASSERT_TRUE(eventually([&] { return prom_config().find("alertmanager-operated") != std::string::npos; }, 30s)) << prom_config();
  auto rule_data = [&] { return get({"get", "configmap", "prometheus-alerts-rulefiles-0", "-n", "obs", "-o", "json"}); };
  ASSERT_TRUE(eventually([&] { return rule_data().find("AlwaysFiring") != std::string::npos; }, 30s));
  std::map<std::string, std::string> files;
  const json::Value configmap = json::parse(rule_data());
  for (const auto& kv : configmap.at("data").as_object()) files[std::string(kv.key())] = std::string(kv.value().as_string());

  // The real servers: the alert is fired, routed and delivered.
  TempDir am_dir("alertmanager"), prom_dir("prometheus");  // each server's files apart
  AlertmanagerServer alertmanager(am_dir, assembled);
  PrometheusServer prometheus(prom_dir, prom_config(), files, {.alertmanager = alertmanager.address()});
  const bool got = eventually(
      [&] {
        std::lock_guard l(mu);
        for (const auto& body : delivered)
          if (body.find("\"alertname\":\"AlwaysFiring\"") != std::string::npos) return true;
        return false;
      },
      60s);
  EXPECT_TRUE(got) << "alertmanager:\n" << alertmanager.get("/api/v2/alerts") << "\n" << alertmanager.logs() << "\nprometheus alerts:\n"
                   << prometheus.get("/api/v1/alerts") << "\nprometheus alertmanagers:\n" << prometheus.get("/api/v1/alertmanagers")
                   << "\n" << prometheus.logs();
  hook.stop();
}

CAPSTAN_E2E_BACKENDS(MonitoringE2E);

// With the certificates and monitoring controllers on together: the manager keeps a PodMonitor
// for itself and the PrometheusRule capstan-certificates (each labelled as the flags say, for a
// Prometheus's selectors); a Prometheus selecting them gets the manager's job and the alert rules,
// and a real Prometheus scraping the manager evaluates them on a certificate expiring within 21
// days (the alert pending).
class CrossOperatorE2E : public ControllerFixture {
 protected:
  CrossOperatorE2E() : ControllerFixture({"cross-operator", /*simulate_workloads=*/true, "prometheusrules,podmonitors"}) {}
  std::vector<std::string> manager_flags() override {
    return {"--controllers=monitoring,certificates", "--monitoring-self-monitor-selector=app.kubernetes.io/name=capstan",
            "--monitoring-self-monitor-labels=release=main", "--certificates-alert-rules-labels=role=alert-rules"};
  }
};

TEST_P(CrossOperatorE2E, TheManagerIsScrapedAndItsCertificatesAlertRulesEvaluated) {
  (*kubectl_)({"create", "namespace", "capstan-system"});  // the manager's namespace (there already on the kube backend)
  auto rule = [&] { return get({"get", "prometheusrule", "capstan-certificates", "-n", "capstan-system", "-o", "json", "--ignore-not-found"}); };
  ASSERT_TRUE(eventually([&] { return !rule().empty(); }, 40s)) << manager_->logs();
  const json::Value prometheus_rule = json::parse(rule());
  EXPECT_EQ(json::get_string(prometheus_rule, {"metadata", "labels", "role"}), "alert-rules");
  const std::string rules_path = dir_->write("capstan-certificates.yaml", json::to_yaml(*json::find(prometheus_rule, {"spec"})));
  auto check = run({"promtool", "check", "rules", rules_path});
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  auto pod_monitor = [&] { return get({"get", "podmonitor", "capstan-manager", "-n", "capstan-system", "-o", "json", "--ignore-not-found"}); };
  ASSERT_TRUE(eventually([&] { return !pod_monitor().empty(); }, 20s));
  const json::Value manager_monitor = json::parse(pod_monitor());
  EXPECT_EQ(json::get_string(manager_monitor, {"spec", "selector", "matchLabels", "app.kubernetes.io/name"}), "capstan");
  EXPECT_EQ(json::get_string(manager_monitor, {"metadata", "labels", "release"}), "main");

  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: ops, namespace: capstan-system}
spec:
  scrapeInterval: 1s
  evaluationInterval: 1s
  podMonitorSelector: {matchLabels: {release: main}}
  ruleSelector: {matchLabels: {role: alert-rules}}
---
apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata: {name: selfsigned, namespace: shop}
spec: {selfSigned: {}}
---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: short-lived, namespace: shop}
spec: {secretName: short-lived-tls, commonName: short.shop.example, duration: 240h, renewBefore: 1h, issuerRef: {name: selfsigned}}
)");
  auto cfg = [&] {
    std::string b64 = get({"get", "secret", "prometheus-ops", "-n", "capstan-system", "-o", "jsonpath={.data.prometheus\\.yaml\\.gz}"});
    auto gz = b64.empty() ? std::nullopt : meta::base64_decode(b64);
    return gz ? gzip::decompress(*gz) : std::string();
  };
  ASSERT_TRUE(eventually([&] { return cfg().find("podMonitor/capstan-system/capstan-manager/0") != std::string::npos; }, 30s)) << cfg();
  auto rule_data = [&] { return get({"get", "configmap", "prometheus-ops-rulefiles-0", "-n", "capstan-system", "-o", "json"}); };
  ASSERT_TRUE(eventually([&] { return rule_data().find("CapstanCertificateExpirySoon") != std::string::npos; }, 30s));
  EXPECT_TRUE(eventually([&] { return condition("certificate", "short-lived", "shop", "Ready") == "True"; }, 30s));

  // A real Prometheus scrapes the manager (the PodMonitor's job, its discovery swapped for the
  // manager's metrics address, and so without the relabelings that read what discovery finds)
  // and evaluates the rules.
  std::map<std::string, std::string> files;
  const json::Value configmap = json::parse(rule_data());
  for (const auto& kv : configmap.at("data").as_object()) files[std::string(kv.key())] = std::string(kv.value().as_string());
  json::Value config = with_static_targets(json::from_yaml(cfg()));
  for (auto& job : config.at("scrape_configs").as_array()) {
    job.as_object()["static_configs"] = json::Array{json::Object{{"targets", json::Array{"127.0.0.1:" + std::to_string(manager_->metrics_port())}}}};
    job.as_object().erase("relabel_configs");
  }
  TempDir prom_dir("prometheus");
  PrometheusServer prometheus(prom_dir, json::to_yaml(config), files);
  auto alerts = [&] { return prometheus.get("/api/v1/alerts"); };
  EXPECT_TRUE(eventually([&] { return alerts().find(R"("alertname":"CapstanCertificateExpirySoon")") != std::string::npos; }, 60s))
      << alerts() << "\nrules:\n" << prometheus.get("/api/v1/rules") << "\ntargets:\n" << prometheus.get("/api/v1/targets");
  const std::string pending = alerts();
  EXPECT_NE(pending.find(R"("name":"short-lived")"), std::string::npos) << pending;
  EXPECT_NE(pending.find(R"("namespace":"shop")"), std::string::npos) << "the certificate's own namespace (honorLabels): " << pending;
  EXPECT_NE(pending.find(R"("state":"pending")"), std::string::npos) << pending;
}

CAPSTAN_E2E_BACKENDS(CrossOperatorE2E);

}  // namespace
}  // namespace capstan::e2e
