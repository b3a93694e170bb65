// Admission validation of PrometheusRules (rulefmt's checks with our PromQL parser) and of the
// relabel regexes of ServiceMonitors and PodMonitors.
#include "apis/monitoring/v1/validation.h"

#include "apis/common/sample_test_util.h"
#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::apis::monitoring::v1 {
namespace {

using validation::errors;

// Every monitoring object of config/samples validates, and so do the forms rulefmt allows.
TEST(PrometheusRuleValidation, TheSamplesAndValidRulesHaveNoErrors) {
  auto objects = apis::testing::sample_documents("monitoring.yaml");
  ASSERT_FALSE(objects.empty());
  for (const auto& obj : objects) {
    auto kind = json::get_string(obj, {"kind"});
    auto causes = kind == "PrometheusRule"  ? validate_prometheus_rule(obj)
                  : kind == "ServiceMonitor" ? validate_service_monitor(obj)
                  : kind == "PodMonitor"     ? validate_pod_monitor(obj)
                  : kind == "Prometheus"     ? validate_prometheus(obj)
                  : kind == "Alertmanager"   ? validate_alertmanager(obj)
                  : kind == "AlertmanagerConfig" ? validate_alertmanager_config(obj)
                  : kind == "Probe"              ? validate_probe(obj)
                  : kind == "ScrapeConfig"       ? validate_scrape_config(obj)
                                             : std::vector<validation::Cause>{};
    EXPECT_TRUE(causes.empty()) << kind << ": " << ::testing::PrintToString(errors(causes));
  }
  auto forms = json::from_yaml(R"(
spec:
  groups:
  - name: forms
    interval: 1m30s
    rules:
    - {alert: A, expr: 'vector(1)', for: 0s, keep_firing_for: 1h, annotations: {runbook_url: x}}
    - {record: 'ns:one:sum', expr: 1, labels: {team: a}}
)");
  EXPECT_TRUE(validate_prometheus_rule(forms).empty()) << ::testing::PrintToString(errors(validate_prometheus_rule(forms)));

  // Functions of Prometheus releases after the parser's 2.42 are let through; a wrong use of
  // a function it knows is not.
  auto newer = json::from_yaml(R"(
spec:
  groups:
  - name: newer
    rules:
    - {record: 'a:avg', expr: 'histogram_avg(rate(http_request_duration_seconds[5m]))'}
    - {record: 'a:sorted', expr: 'sort_by_label(up, "instance")'}
    - {record: 'a:rate', expr: 'rate(up)'}
)");
  EXPECT_EQ(errors(validate_prometheus_rule(newer)),
            (std::vector<std::string>{"spec.groups[0].rules[2].expr: Invalid value: \"rate(up)\": 1:6: parse error: expected type range "
                                      "vector in call to function \"rate\", got instant vector"}));
}

TEST(PrometheusRuleValidation, ReportsEveryErrorWithItsField) {
  auto rule = json::from_yaml(R"(
spec:
  groups:
  - name: a
    interval: 1x
    rules:
    - record: ok
      expr: up
    - record: r
      expr: rate(foo)
    - alert: A
      expr: 'foo +'
      for: '5'
  - name: a
    rules:
    - record: bad-name
      alert: B
      expr: sum(up)
      for: 5m
      labels: {"a-b": x}
    - expr: up
    - record: r
      expr: ""
)");
  EXPECT_EQ(errors(validate_prometheus_rule(rule)),
            (std::vector<std::string>{
                R"x(spec.groups[0].interval: Invalid value: "1x": not a valid duration string: "1x")x",
                R"x(spec.groups[0].rules[1].expr: Invalid value: "rate(foo)": 1:6: parse error: expected type range vector in call to function "rate", got instant vector)x",
                R"x(spec.groups[0].rules[2].expr: Invalid value: "foo +": 1:6: parse error: unexpected end of input)x",
                R"x(spec.groups[0].rules[2].for: Invalid value: "5": not a valid duration string: "5")x",
                R"x(spec.groups[1].name: Duplicate value: "a")x",
                R"x(spec.groups[1].rules[0].alert: Forbidden: only one of 'record' and 'alert' must be set)x",
                R"x(spec.groups[1].rules[0].for: Forbidden: invalid field 'for' in recording rule)x",
                R"x(spec.groups[1].rules[0].record: Invalid value: "bad-name": invalid recording rule name)x",
                R"x(spec.groups[1].rules[0].labels: Invalid value: "a-b": invalid label name)x",
                R"x(spec.groups[1].rules[1]: Required value: one of 'record' or 'alert' must be set)x",
                R"x(spec.groups[1].rules[2].expr: Required value: field 'expr' must be set in rule)x",
            }));
}

TEST(MonitorValidation, RelabelRegexesCompileAsPrometheusCompilesThem) {
  auto sm = json::from_yaml(R"(
spec:
  endpoints:
  - port: web
    relabelings: [{sourceLabels: [a], regex: '(.*)', action: keep}, {regex: '(', action: labeldrop}]
    metricRelabelings: [{sourceLabels: [__name__], regex: 'go_.*', action: drop}, {sourceLabels: [__name__], regex: '\C', action: drop}]
)");
  EXPECT_EQ(errors(validate_service_monitor(sm)),
            (std::vector<std::string>{
                R"x(spec.endpoints[0].relabelings[1].regex: Invalid value: "(": error parsing regexp: missing closing ): `^(?:()$`)x",
                R"x(spec.endpoints[0].metricRelabelings[1].regex: Invalid value: "\\C": error parsing regexp: invalid escape sequence: `\C`)x",
            }));
  auto pm = json::from_yaml(R"(
spec:
  podMetricsEndpoints:
  - relabelings: [{regex: 'a{2,1}', targetLabel: x}]
)");
  EXPECT_EQ(errors(validate_pod_monitor(pm)),
            (std::vector<std::string>{
                R"x(spec.podMetricsEndpoints[0].relabelings[0].regex: Invalid value: "a{2,1}": error parsing regexp: invalid repeat count: `{2,1}`)x"}));
}

TEST(MonitorValidation, EndpointTimingAndRelabelActions) {
  auto sm = json::from_yaml(R"(
spec:
  endpoints:
  - {port: web, interval: 30s, scrapeTimeout: 10s}
  - port: web
    interval: 10s
    scrapeTimeout: 1m
    relabelings:
    - {sourceLabels: [__meta_x], targetLabel: pod}
    - {sourceLabels: [a-b]}
    - {action: HashMod, sourceLabels: [a], targetLabel: shard}
    - {action: labeldrop, regex: tmp_.*, targetLabel: x}
  - {port: web, interval: 0s, scrapeTimeout: 1q}
)");
  EXPECT_EQ(errors(validate_service_monitor(sm)),
            (std::vector<std::string>{
                R"x(spec.endpoints[1].scrapeTimeout: Invalid value: "1m": must not be greater than the scrape interval (10s))x",
                R"x(spec.endpoints[1].relabelings[1].targetLabel: Required value: relabel configuration for replace action requires 'targetLabel' value)x",
                R"x(spec.endpoints[1].relabelings[1].sourceLabels[0]: Invalid value: "a-b": is not a valid label name)x",
                R"x(spec.endpoints[1].relabelings[2].modulus: Required value: relabel configuration for hashmod requires non-zero modulus)x",
                R"x(spec.endpoints[1].relabelings[3].targetLabel: Forbidden: labeldrop action requires only 'regex', and no other fields)x",
                R"x(spec.endpoints[2].scrapeTimeout: Invalid value: "1q": not a valid duration string: "1q")x",
                R"x(spec.endpoints[2].interval: Invalid value: "0s": must be greater than 0)x",
            }));
}

// Probes: the prober's address as Prometheus puts it in __address__, targets to probe, timing and
// relabelings.
TEST(ProbeValidation, ProberAddressTargetsAndRelabelings) {
  auto good = json::from_yaml(R"(
spec:
  prober: {url: 'blackbox.monitoring.svc:9115', path: /probe}
  targets: {ingress: {selector: {matchLabels: {a: b}}}}
)");
  EXPECT_TRUE(validate_probe(good).empty()) << ::testing::PrintToString(errors(validate_probe(good)));
  EXPECT_TRUE(validate_probe(json::from_yaml("spec: {prober: {url: '[::1]:9115'}, targets: {staticConfig: {static: [x]}}}")).empty());
  auto bad = json::from_yaml(R"(
spec:
  prober: {url: 'http://blackbox:9115', path: probe}
  interval: 10s
  scrapeTimeout: 30s
  targets:
    staticConfig:
      static: []
      labels: {bad-name: x}
      relabelingConfigs: [{sourceLabels: [a], targetLabel: b, regex: '('}]
  metricRelabelings: [{action: hashmod, targetLabel: s}]
)");
  EXPECT_EQ(errors(validate_probe(bad)),
            (std::vector<std::string>{
                R"x(spec.prober.url: Invalid value: "http://blackbox:9115": must be host:port, without a scheme (set prober.scheme))x",
                R"x(spec.prober.path: Invalid value: "probe": must begin with /)x",
                R"x(spec.targets.staticConfig.static: Required value: at least one target is required)x",
                R"x(spec.targets.staticConfig.labels[bad-name]: Invalid value: "bad-name": is not a valid label name)x",
                R"x(spec.targets.staticConfig.relabelingConfigs[0].regex: Invalid value: "(": error parsing regexp: missing closing ): `^(?:()$`)x",
                R"x(spec.scrapeTimeout: Invalid value: "30s": must not be greater than the scrape interval (10s))x",
                R"x(spec.metricRelabelings[0].modulus: Required value: relabel configuration for hashmod requires non-zero modulus)x",
            }));
  EXPECT_EQ(errors(validate_probe(json::from_yaml("spec: {prober: {url: 'blackbox:99999'}, targets: {}}"))),
            (std::vector<std::string>{R"x(spec.prober.url: Invalid value: "blackbox:99999": must be host:port)x",
                                      R"x(spec.targets: Required value: staticConfig or ingress is required)x"}));
}

// ScrapeConfigs: what Prometheus's own discovery configurations refuse.
TEST(ScrapeConfigValidation, DiscoveryAsPrometheusChecksIt) {
  auto bad = json::from_yaml(R"(
spec:
  staticConfigs: [{targets: [], labels: {ok: x, 0bad: y}}]
  fileSDConfigs: [{files: ['/etc/sd/targets.json', '/etc/*/targets.json', '/etc/sd/targets.txt']}]
  httpSDConfigs: [{url: 'ftp://sd.example.com/'}]
  kubernetesSDConfigs:
  - role: Endpoints
    selectors: [{role: Pod, label: 'app=web'}, {role: node}, {role: pod, field: 'spec.nodeName'}]
  - role: pod
    selectors: [{role: Pod, label: 'app in (web'}]
  metricsPath: metrics
  scrapeInterval: 10s
  scrapeTimeout: 11s
)");
  EXPECT_EQ(errors(validate_scrape_config(bad)),
            (std::vector<std::string>{
                R"x(spec.staticConfigs[0].targets: Required value: at least one target is required)x",
                R"x(spec.staticConfigs[0].labels[0bad]: Invalid value: "0bad": is not a valid label name)x",
                R"x(spec.fileSDConfigs[0].files[1]: Invalid value: "/etc/*/targets.json": must end in .json, .yml or .yaml, with a * in the file name only)x",
                R"x(spec.fileSDConfigs[0].files[2]: Invalid value: "/etc/sd/targets.txt": must end in .json, .yml or .yaml, with a * in the file name only)x",
                R"x(spec.httpSDConfigs[0].url: Invalid value: "ftp://sd.example.com/": must be an http:// or https:// URL with a host)x",
                R"x(spec.kubernetesSDConfigs[0].selectors[1].role: Unsupported value: "node": supported values: "endpoints", "pod", "service")x",
                R"x(spec.kubernetesSDConfigs[0].selectors[2].role: Duplicate value: "pod")x",
                R"x(spec.kubernetesSDConfigs[0].selectors[2].field: Invalid value: "spec.nodeName": invalid selector: 'spec.nodeName'; can't understand 'spec.nodeName')x",
                R"x(spec.kubernetesSDConfigs[1].selectors[0].label: Invalid value: "app in (web": unable to parse requirement: found '', expected: ',' or ')')x",
                R"x(spec.metricsPath: Invalid value: "metrics": must begin with /)x",
                R"x(spec.scrapeTimeout: Invalid value: "11s": must not be greater than the scrape interval (10s))x",
            }));
}

// Credentials: one way of authenticating, each complete; TLS material from one source, a
// certificate with its key.
TEST(MonitorValidation, CredentialsAsPrometheusHttpClientTakesThem) {
  auto sm = json::from_yaml(R"(
spec:
  endpoints:
  - port: web
    basicAuth: {username: {name: a, key: u}, password: {name: a, key: p}}
    tlsConfig: {ca: {configMap: {name: ca, key: ca.crt}}, cert: {secret: {name: c, key: tls.crt}}, keySecret: {name: c, key: tls.key}}
  - port: web
    basicAuth: {username: {name: a, key: u}}
    authorization: {type: basic, credentials: {name: a, key: t}}
    bearerTokenSecret: {name: a, key: t}
    tlsConfig: {ca: {secret: {name: a, key: ca}, configMap: {name: ca, key: ca.crt}}, cert: {secret: {name: c, key: tls.crt}}}
  - port: web
    oauth2: {clientId: {}, clientSecret: {name: o, key: s}, tokenUrl: 'not a url'}
)");
  EXPECT_EQ(errors(validate_service_monitor(sm)),
            (std::vector<std::string>{
                R"x(spec.endpoints[1].authorization: Forbidden: at most one of basicAuth, authorization, oauth2 and bearerTokenSecret may be set)x",
                R"x(spec.endpoints[1].bearerTokenSecret: Forbidden: at most one of basicAuth, authorization, oauth2 and bearerTokenSecret may be set)x",
                R"x(spec.endpoints[1].basicAuth.password: Required value)x",
                R"x(spec.endpoints[1].authorization.type: Invalid value: "basic": use basicAuth for Basic)x",
                R"x(spec.endpoints[1].tlsConfig.ca: Forbidden: secret and configMap are exclusive)x",
                R"x(spec.endpoints[1].tlsConfig.keySecret: Required value: cert and keySecret go together)x",
                R"x(spec.endpoints[2].oauth2.clientId: Required value: one of secret and configMap is required)x",
                R"x(spec.endpoints[2].oauth2.tokenUrl: Invalid value: "not a url": must be an http:// or https:// URL with a host)x",
            }));
}

TEST(PrometheusValidation, ScrapeClassesAreNamedOnceWithOneDefault) {
  auto p = json::from_yaml(R"(
spec:
  scrapeClasses:
  - {name: a, default: true}
  - {name: b, default: true, relabelings: [{targetLabel: x, regex: '(['}]}
  - {name: a}
)");
  EXPECT_EQ(errors(validate_prometheus(p)),
            (std::vector<std::string>{
                R"x(spec.scrapeClasses[1].default: Invalid value: true: only one scrape class can be the default)x",
                R"x(spec.scrapeClasses[1].relabelings[0].regex: Invalid value: "([": error parsing regexp: missing closing ]: `[)$`)x",
                R"x(spec.scrapeClasses[2].name: Duplicate value: "a")x",
            }));
}

TEST(PrometheusValidation, WhatPrometheusWouldRefuseLater) {
  EXPECT_TRUE(validate_prometheus(json::from_yaml("spec: {replicas: 1, scrapeInterval: 30s, retention: 15d, retentionSize: 10GiB}")).empty());
  auto p = json::from_yaml(R"(
spec:
  scrapeInterval: 15s
  scrapeTimeout: 20s
  evaluationInterval: 0s
  retention: 1x
  retentionSize: 10 gigs
  externalLabels: {cluster: a, 0bad: b}
  replicaExternalLabelName: replica-name
  ruleSelector:
    matchExpressions: [{key: team, operator: In}, {key: env, operator: Exists, values: [prod]}]
  remoteWrite:
  - {url: 'https://mimir.example.com/api/v1/push', name: a}
  - {url: 'mimir:9009', name: a, remoteTimeout: 0s}
  externalUrl: prometheus.example.com
  routePrefix: prom
  storage: {emptyDir: {}, volumeClaimTemplate: {spec: {}}}
  containers: [{image: busybox}]
  volumeMounts: [{name: extra}]
)");
  EXPECT_EQ(errors(validate_prometheus(p)),
            (std::vector<std::string>{
                R"x(spec.retention: Invalid value: "1x": not a valid duration string: "1x")x",
                R"x(spec.evaluationInterval: Invalid value: "0s": must be greater than 0)x",
                R"x(spec.scrapeTimeout: Invalid value: "20s": must not be greater than the scrape interval (15s))x",
                R"x(spec.retentionSize: Invalid value: "10 gigs": must be a size such as 512MB or 10GiB)x",
                R"x(spec.externalLabels[0bad]: Invalid value: "0bad": is not a valid label name)x",
                R"x(spec.replicaExternalLabelName: Invalid value: "replica-name": is not a valid label name (empty leaves the label out))x",
                R"x(spec.ruleSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn')x",
                R"x(spec.ruleSelector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist')x",
                R"x(spec.remoteWrite[1].url: Invalid value: "mimir:9009": must be an http:// or https:// URL with a host)x",
                R"x(spec.remoteWrite[1].name: Duplicate value: "a")x",
                R"x(spec.remoteWrite[1].remoteTimeout: Invalid value: "0s": must be greater than 0)x",
                R"x(spec.storage.volumeClaimTemplate: Forbidden: may not be set together with emptyDir: the data lives in one volume)x",
                R"x(spec.containers[0].name: Required value: merged into the pod by name)x",
                R"x(spec.volumeMounts[0].mountPath: Required value)x",
                R"x(spec.externalUrl: Invalid value: "prometheus.example.com": must be an http:// or https:// URL with a host)x",
                R"x(spec.routePrefix: Invalid value: "prom": must begin with /)x",
            }));
}

}  // namespace
}  // namespace capstan::apis::monitoring::v1
