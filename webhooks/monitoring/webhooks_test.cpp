// The monitoring webhooks through AdmissionReviews, one kind each.
#include "webhooks/monitoring/webhooks.h"

#include "webhooks/test_util.h"

namespace capstan::webhooks::monitoring {
namespace {

using namespace webhooks::testing;

json::Value obj(std::string_view kind, const std::string& spec) {
  return json::from_yaml("apiVersion: monitoring.capstan.dev/v1\nkind: " + std::string(kind) + "\nmetadata: {name: x, namespace: mon}\nspec: " + spec);
}

TEST(MonitoringWebhooks, EveryKindIsValidated) {
  struct Case {
    webhook::Handler handler;
    std::string_view kind, resource;
    std::string good, bad, message;
  };
  const Case cases[] = {
      {prometheus_rule_validating_handler(), "PrometheusRule", "prometheusrules",
       "{groups: [{name: a, rules: [{alert: Down, expr: 'up == 0', for: 5m}]}]}",
       "{groups: [{name: a, rules: [{record: 'job:up:sum', expr: 'sum(up'}]}]}",
       "spec.groups[0].rules[0].expr: Invalid value: \"sum(up\": 1:7: parse error: unclosed left parenthesis"},
      {service_monitor_validating_handler(), "ServiceMonitor", "servicemonitors",
       "{selector: {}, endpoints: [{port: web, interval: 30s}]}",
       "{selector: {}, endpoints: [{port: web, relabelings: [{sourceLabels: [a], targetLabel: b, regex: '('}]}]}",
       "spec.endpoints[0].relabelings[0].regex: Invalid value: \"(\": error parsing regexp: missing closing ): `^(?:()$`"},
      {pod_monitor_validating_handler(), "PodMonitor", "podmonitors",
       "{selector: {}, podMetricsEndpoints: [{port: web}]}",
       "{selector: {}, podMetricsEndpoints: [{port: web, interval: 10s, scrapeTimeout: 20s}]}",
       "spec.podMetricsEndpoints[0].scrapeTimeout: Invalid value: \"20s\": must not be greater than the scrape interval (10s)"},
      {prometheus_validating_handler(), "Prometheus", "prometheuses", "{replicas: 1, retention: 15d}", "{retentionSize: lots}",
       "spec.retentionSize: Invalid value: \"lots\": must be a size such as 512MB or 10GiB"},
      {alertmanager_validating_handler(), "Alertmanager", "alertmanagers", "{replicas: 2, retention: 120h}", "{retention: forever}",
       "spec.retention: Invalid value: \"forever\": not a valid duration string: \"forever\""},
      {alertmanager_config_validating_handler(), "AlertmanagerConfig", "alertmanagerconfigs",
       "{route: {receiver: hook}, receivers: [{name: hook, webhookConfigs: [{url: 'http://h.example/'}]}]}",
       "{route: {receiver: pager}, receivers: [{name: hook}]}",
       "spec.route.receiver: Invalid value: \"pager\": is not one of this object's receivers"},
      {probe_validating_handler(), "Probe", "probes", "{prober: {url: 'blackbox:9115'}, targets: {staticConfig: {static: ['https://x.example']}}}",
       "{prober: {url: 'https://blackbox:9115'}, targets: {staticConfig: {static: ['https://x.example']}}}",
       "spec.prober.url: Invalid value: \"https://blackbox:9115\": must be host:port, without a scheme (set prober.scheme)"},
      {prometheus_agent_validating_handler(), "PrometheusAgent", "prometheusagents", "{shards: 2, remoteWrite: [{url: 'http://r.example/w'}]}",
       "{externalLabels: {bad-name: x}}", "spec.externalLabels[bad-name]: Invalid value: \"bad-name\": is not a valid label name"},
      {scrape_config_validating_handler(), "ScrapeConfig", "scrapeconfigs", "{staticConfigs: [{targets: ['10.0.0.1:9100']}]}",
       "{httpSDConfigs: [{url: 'sd.example'}]}",
       "spec.httpSDConfigs[0].url: Invalid value: \"sd.example\": must be an http:// or https:// URL with a host"},
  };
  for (const auto& c : cases) {
    auto good = call(c.handler, review("monitoring.capstan.dev", c.kind, c.resource, "CREATE", obj(c.kind, c.good)));
    EXPECT_TRUE(allowed(good)) << c.kind << ": " << message(good);
    auto bad = call(c.handler, review("monitoring.capstan.dev", c.kind, c.resource, "CREATE", obj(c.kind, c.bad)));
    EXPECT_FALSE(allowed(bad)) << c.kind;
    EXPECT_EQ(message(bad), c.message) << c.kind;
    // Updates are judged on the new object.
    auto upd = call(c.handler, review("monitoring.capstan.dev", c.kind, c.resource, "UPDATE", obj(c.kind, c.bad), obj(c.kind, c.good)));
    EXPECT_FALSE(allowed(upd)) << c.kind;
  }
}

TEST(MonitoringWebhooks, ConfigurationNamesEveryKind) {
  auto cfgs = configurations(webhook::Endpoint{"https://127.0.0.1:9443", "", "", "", ""});
  ASSERT_EQ(cfgs.size(), 1u);
  std::vector<std::string> names, urls;
  for (const auto& h : *json::get_array(cfgs[0], {"webhooks"})) {
    names.emplace_back(json::get_string(h, {"name"}));
    urls.emplace_back(json::get_string(h, {"clientConfig", "url"}));
    EXPECT_EQ(json::serialize(*json::find(h, {"namespaceSelector"})), "{}") << "no manager namespace given: every namespace";
  }
  EXPECT_EQ(names, (std::vector<std::string>{"vprometheus.monitoring.capstan.dev", "vservicemonitor.monitoring.capstan.dev",
                                             "vpodmonitor.monitoring.capstan.dev", "vprometheusrule.monitoring.capstan.dev",
                                             "valertmanager.monitoring.capstan.dev", "valertmanagerconfig.monitoring.capstan.dev",
                                             "vprobe.monitoring.capstan.dev", "vscrapeconfig.monitoring.capstan.dev",
                                             "vprometheusagent.monitoring.capstan.dev"}));
  EXPECT_EQ(urls[3], "https://127.0.0.1:9443/validate-monitoring-capstan-dev-v1-prometheusrule");
}

}  // namespace
}  // namespace capstan::webhooks::monitoring
