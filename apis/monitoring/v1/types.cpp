#include "apis/monitoring/v1/types.h"

namespace capstan::apis::monitoring::v1 {
namespace {

std::string str(const json::Value& o, std::string_view key, std::string_view fallback = {}) {
  return std::string(json::get_string(o, {key}, fallback));
}

std::optional<json::Value> member(const json::Value& o, std::string_view key) {
  const json::Value* v = json::find(o, {key});
  if (!v || v->is_null()) return std::nullopt;
  return *v;
}

}  // namespace

std::string PrometheusSpec::effective_image() const {
  if (!image.empty()) return image;
  return std::string(kDefaultPrometheusBaseImage) + ":" + effective_version();
}

std::string PrometheusSpec::effective_retention() const {
  if (retention.empty() && retention_size.empty()) return std::string(kDefaultRetention);
  return retention;
}

PrometheusSpec parse_prometheus_spec(const json::Value& object) {
  static const json::Value empty = json::Object();
  const json::Value* p = json::find(object, {"spec"});
  const json::Value& spec = p && p->is_object() ? *p : empty;
  PrometheusSpec s;
  s.version = str(spec, "version");
  s.image = str(spec, "image");
  if (const auto* r = json::find(spec, {"replicas"}); r && r->is_int64()) s.replicas = static_cast<std::int32_t>(r->as_int64());
  s.paused = json::get_bool(spec, {"paused"});
  s.service_account_name = str(spec, "serviceAccountName");
  s.retention = str(spec, "retention");
  s.retention_size = str(spec, "retentionSize");
  s.scrape_interval = str(spec, "scrapeInterval", kDefaultScrapeInterval);
  s.scrape_timeout = str(spec, "scrapeTimeout");
  s.evaluation_interval = str(spec, "evaluationInterval", kDefaultEvaluationInterval);
  if (const auto* labels = json::get_object(spec, {"externalLabels"}))
    for (const auto& kv : *labels)
      if (kv.value().is_string()) s.external_labels[std::string(kv.key())] = std::string(kv.value().get_string());
  s.replica_external_label_name = str(spec, "replicaExternalLabelName", kDefaultReplicaLabel);
  s.prometheus_external_label_name = str(spec, "prometheusExternalLabelName", kDefaultPrometheusLabel);
  s.service_monitor_selector = member(spec, "serviceMonitorSelector");
  s.service_monitor_namespace_selector = member(spec, "serviceMonitorNamespaceSelector");
  s.pod_monitor_selector = member(spec, "podMonitorSelector");
  s.pod_monitor_namespace_selector = member(spec, "podMonitorNamespaceSelector");
  s.rule_selector = member(spec, "ruleSelector");
  s.rule_namespace_selector = member(spec, "ruleNamespaceSelector");
  if (const auto* rw = json::get_array(spec, {"remoteWrite"}))
    for (const auto& r : *rw) s.remote_write.push_back({str(r, "url"), str(r, "name"), str(r, "remoteTimeout")});
  s.log_level = str(spec, "logLevel");
  s.log_format = str(spec, "logFormat");
  s.external_url = str(spec, "externalUrl");
  s.route_prefix = str(spec, "routePrefix");
  s.port_name = str(spec, "portName", kDefaultPortName);
  if (const auto* f = json::get_array(spec, {"enableFeatures"}))
    for (const auto& x : *f)
      if (x.is_string()) s.enable_features.emplace_back(x.get_string());
  s.resources = member(spec, "resources");
  s.node_selector = member(spec, "nodeSelector");
  s.tolerations = member(spec, "tolerations");
  s.pod_metadata = member(spec, "podMetadata");
  return s;
}

}  // namespace capstan::apis::monitoring::v1
