#include "controllers/monitoring/promcfg.h"

#include "runtime/meta/selector.h"

#include <algorithm>
#include <cctype>

namespace capstan::monitoring {
namespace {

json::Array strings(std::initializer_list<std::string> list) {
  json::Array a;
  for (const auto& s : list) a.emplace_back(s);
  return a;
}

std::string str(const json::Value& o, std::initializer_list<std::string_view> path) { return std::string(json::get_string(o, path)); }

json::Object relabel(json::Array source_labels, std::string target_label, std::string regex = {}, std::string replacement = {},
                     std::string action = {}, std::string separator = {}) {
  json::Object r;
  if (!action.empty()) r["action"] = action;
  if (!source_labels.empty()) r["source_labels"] = std::move(source_labels);
  if (!separator.empty()) r["separator"] = separator;
  if (!regex.empty()) r["regex"] = regex;
  if (!target_label.empty()) r["target_label"] = target_label;
  if (!replacement.empty()) r["replacement"] = replacement;
  return r;
}

// Keep/drop rules implementing a metav1.LabelSelector on `role` labels ("service" or "pod").
void selector_relabelings(const json::Value* selector, std::string_view role, json::Array& out) {
  const std::string label = "__meta_kubernetes_" + std::string(role) + "_label_";
  const std::string present = "__meta_kubernetes_" + std::string(role) + "_labelpresent_";
  if (!selector) return;
  std::vector<std::pair<std::string, std::string>> match_labels;
  if (const auto* ml = json::get_object(*selector, {"matchLabels"}))
    for (const auto& kv : *ml)
      if (kv.value().is_string()) match_labels.emplace_back(std::string(kv.key()), std::string(kv.value().get_string()));
  std::sort(match_labels.begin(), match_labels.end());
  for (const auto& [k, v] : match_labels) {
    auto name = sanitize_label_name(k);
    out.push_back(relabel(strings({label + name, present + name}), "", "(" + v + ");true", "", "keep"));
  }
  if (const auto* exprs = json::get_array(*selector, {"matchExpressions"})) {
    for (const auto& e : *exprs) {
      auto name = sanitize_label_name(json::get_string(e, {"key"}));
      std::string op(json::get_string(e, {"operator"}));
      std::string values;
      if (const auto* vs = json::get_array(e, {"values"}))
        for (const auto& v : *vs) values += (values.empty() ? "" : "|") + std::string(v.is_string() ? v.get_string() : "");
      if (op == "In") out.push_back(relabel(strings({label + name, present + name}), "", "(" + values + ");true", "", "keep"));
      if (op == "NotIn") out.push_back(relabel(strings({label + name, present + name}), "", "(" + values + ");true", "", "drop"));
      if (op == "Exists") out.push_back(relabel(strings({present + name}), "", "true", "", "keep"));
      if (op == "DoesNotExist") out.push_back(relabel(strings({present + name}), "", "true", "", "drop"));
    }
  }
}

json::Array namespaces_of(const json::Value& monitor) {
  json::Array names;
  if (json::get_bool(monitor, {"spec", "namespaceSelector", "any"})) return names;
  if (const auto* m = json::get_array(monitor, {"spec", "namespaceSelector", "matchNames"}))
    for (const auto& n : *m)
      if (n.is_string()) names.push_back(n);
  if (names.empty()) names.emplace_back(json::get_string(monitor, {"metadata", "namespace"}));
  return names;
}

// The endpoint members every scrape job takes the same way.
void endpoint_settings(const json::Value& ep, const std::string& default_interval, json::Object& job) {
  if (const auto* h = json::find(ep, {"honorTimestamps"}); h && h->is_bool()) job["honor_timestamps"] = h->get_bool();
  std::string interval = str(ep, {"interval"});
  if (interval.empty()) interval = default_interval;
  if (!interval.empty()) job["scrape_interval"] = interval;
  if (auto t = str(ep, {"scrapeTimeout"}); !t.empty()) job["scrape_timeout"] = t;
  if (auto p = str(ep, {"path"}); !p.empty()) job["metrics_path"] = p;
  if (const auto* params = json::find(ep, {"params"}); params && params->is_object() && !params->get_object().empty())
    job["params"] = *params;
  if (auto scheme = str(ep, {"scheme"}); !scheme.empty()) {
    std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
    job["scheme"] = scheme;
  }
  if (const auto* tls = json::get_object(ep, {"tlsConfig"})) {
    json::Object t;
    if (auto sn = json::get_string(*tls, {"serverName"}); !sn.empty()) t["server_name"] = sn;
    if (json::get_bool(*tls, {"insecureSkipVerify"})) t["insecure_skip_verify"] = true;
    if (!t.empty()) job["tls_config"] = std::move(t);
  }
  if (const auto* f = json::find(ep, {"followRedirects"}); f && f->is_bool()) job["follow_redirects"] = f->get_bool();
  if (const auto* h = json::find(ep, {"enableHttp2"}); h && h->is_bool()) job["enable_http2"] = h->get_bool();
}

void limits(const json::Value& monitor, json::Object& job) {
  for (auto [from, to] : {std::pair{"sampleLimit", "sample_limit"}, std::pair{"targetLimit", "target_limit"}})
    if (const auto* v = json::find(monitor, {"spec", from}); v && v->is_int64() && v->as_int64() > 0) job[to] = v->as_int64();
}

void user_relabelings(const json::Value& ep, std::string_view key, json::Array& out) {
  if (const auto* rs = json::get_array(ep, {key}))
    for (const auto& r : *rs) out.push_back(relabel_config(r));
}

void label_copies(const json::Value& monitor, std::string_view member, std::string_view role, json::Array& out) {
  if (const auto* labels = json::get_array(monitor, {"spec", member}))
    for (const auto& l : *labels) {
      if (!l.is_string()) continue;
      auto name = sanitize_label_name(l.get_string());
      out.push_back(relabel(strings({"__meta_kubernetes_" + std::string(role) + "_label_" + name}), name, "(.+)", "${1}"));
    }
}

json::Object service_monitor_job(const json::Value& sm, const json::Value& ep, std::size_t i, const std::string& default_interval) {
  const std::string ns = str(sm, {"metadata", "namespace"}), name = str(sm, {"metadata", "name"});
  json::Object job;
  job["job_name"] = "serviceMonitor/" + ns + "/" + name + "/" + std::to_string(i);
  job["honor_labels"] = json::get_bool(ep, {"honorLabels"});
  json::Object sd{{"role", "endpoints"}};
  if (auto names = namespaces_of(sm); !names.empty()) sd["namespaces"] = json::Object{{"names", std::move(names)}};
  job["kubernetes_sd_configs"] = json::Array{std::move(sd)};
  endpoint_settings(ep, default_interval, job);

  json::Array r;
  r.push_back(relabel(strings({"job"}), "__tmp_prometheus_job_name"));
  selector_relabelings(json::find(sm, {"spec", "selector"}), "service", r);
  std::string endpoint_label;
  if (auto port = str(ep, {"port"}); !port.empty()) {
    r.push_back(relabel(strings({"__meta_kubernetes_endpoint_port_name"}), "", port, "", "keep"));
    endpoint_label = port;
  } else if (const auto* tp = json::find(ep, {"targetPort"}); tp && (tp->is_string() || tp->is_int64())) {
    if (tp->is_int64()) {
      endpoint_label = std::to_string(tp->as_int64());
      r.push_back(relabel(strings({"__meta_kubernetes_pod_container_port_number"}), "", endpoint_label, "", "keep"));
    } else {
      endpoint_label = std::string(tp->get_string());
      r.push_back(relabel(strings({"__meta_kubernetes_pod_container_port_name"}), "", endpoint_label, "", "keep"));
    }
  }
  json::Array kind_name = strings({"__meta_kubernetes_endpoint_address_target_kind", "__meta_kubernetes_endpoint_address_target_name"});
  r.push_back(relabel(kind_name, "node", "Node;(.*)", "${1}", "", ";"));
  r.push_back(relabel(kind_name, "pod", "Pod;(.*)", "${1}", "", ";"));
  r.push_back(relabel(strings({"__meta_kubernetes_namespace"}), "namespace"));
  r.push_back(relabel(strings({"__meta_kubernetes_service_name"}), "service"));
  r.push_back(relabel(strings({"__meta_kubernetes_pod_name"}), "pod"));
  r.push_back(relabel(strings({"__meta_kubernetes_pod_container_name"}), "container"));
  if (!json::find(ep, {"filterRunning"}) || json::get_bool(ep, {"filterRunning"}, true))
    r.push_back(relabel(strings({"__meta_kubernetes_pod_phase"}), "", "(Failed|Succeeded)", "", "drop"));
  label_copies(sm, "targetLabels", "service", r);
  label_copies(sm, "podTargetLabels", "pod", r);
  r.push_back(relabel(strings({"__meta_kubernetes_service_name"}), "job", "", "${1}"));
  if (auto job_label = str(sm, {"spec", "jobLabel"}); !job_label.empty())
    r.push_back(relabel(strings({"__meta_kubernetes_service_label_" + sanitize_label_name(job_label)}), "job", "(.+)", "${1}"));
  if (!endpoint_label.empty()) r.push_back(relabel({}, "endpoint", "", endpoint_label));
  user_relabelings(ep, "relabelings", r);
  job["relabel_configs"] = std::move(r);
  limits(sm, job);
  json::Array metric;
  user_relabelings(ep, "metricRelabelings", metric);
  if (!metric.empty()) job["metric_relabel_configs"] = std::move(metric);
  return job;
}

json::Object pod_monitor_job(const json::Value& pm, const json::Value& ep, std::size_t i, const std::string& default_interval) {
  const std::string ns = str(pm, {"metadata", "namespace"}), name = str(pm, {"metadata", "name"});
  json::Object job;
  job["job_name"] = "podMonitor/" + ns + "/" + name + "/" + std::to_string(i);
  job["honor_labels"] = json::get_bool(ep, {"honorLabels"});
  json::Object sd{{"role", "pod"}};
  if (auto names = namespaces_of(pm); !names.empty()) sd["namespaces"] = json::Object{{"names", std::move(names)}};
  job["kubernetes_sd_configs"] = json::Array{std::move(sd)};
  endpoint_settings(ep, default_interval, job);

  json::Array r;
  r.push_back(relabel(strings({"job"}), "__tmp_prometheus_job_name"));
  selector_relabelings(json::find(pm, {"spec", "selector"}), "pod", r);
  std::string endpoint_label;
  if (auto port = str(ep, {"port"}); !port.empty()) {
    r.push_back(relabel(strings({"__meta_kubernetes_pod_container_port_name"}), "", port, "", "keep"));
    endpoint_label = port;
  } else if (const auto* n = json::find(ep, {"portNumber"}); n && n->is_int64()) {
    endpoint_label = std::to_string(n->as_int64());
    r.push_back(relabel(strings({"__meta_kubernetes_pod_container_port_number"}), "", endpoint_label, "", "keep"));
  }
  r.push_back(relabel(strings({"__meta_kubernetes_namespace"}), "namespace"));
  r.push_back(relabel(strings({"__meta_kubernetes_pod_container_name"}), "container"));
  r.push_back(relabel(strings({"__meta_kubernetes_pod_name"}), "pod"));
  if (!json::find(ep, {"filterRunning"}) || json::get_bool(ep, {"filterRunning"}, true))
    r.push_back(relabel(strings({"__meta_kubernetes_pod_phase"}), "", "(Failed|Succeeded)", "", "drop"));
  label_copies(pm, "podTargetLabels", "pod", r);
  r.push_back(relabel({}, "job", "", ns + "/" + name));
  if (auto job_label = str(pm, {"spec", "jobLabel"}); !job_label.empty())
    r.push_back(relabel(strings({"__meta_kubernetes_pod_label_" + sanitize_label_name(job_label)}), "job", "(.+)", "${1}"));
  if (!endpoint_label.empty()) r.push_back(relabel({}, "endpoint", "", endpoint_label));
  user_relabelings(ep, "relabelings", r);
  job["relabel_configs"] = std::move(r);
  limits(pm, job);
  json::Array metric;
  user_relabelings(ep, "metricRelabelings", metric);
  if (!metric.empty()) job["metric_relabel_configs"] = std::move(metric);
  return job;
}

}  // namespace

std::string sanitize_label_name(std::string_view name) {
  std::string out(name);
  for (auto& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  return out;
}

json::Value relabel_config(const json::Value& r) {
  json::Object out;
  if (const auto* s = json::find(r, {"sourceLabels"}); s && s->is_array()) out["source_labels"] = *s;
  if (auto v = json::get_string(r, {"separator"}); !v.empty()) out["separator"] = v;
  if (auto v = json::get_string(r, {"targetLabel"}); !v.empty()) out["target_label"] = v;
  if (auto v = json::get_string(r, {"regex"}); !v.empty()) out["regex"] = v;
  if (const auto* m = json::find(r, {"modulus"}); m && m->is_int64()) out["modulus"] = m->as_int64();
  if (const auto* v = json::find(r, {"replacement"}); v && v->is_string()) out["replacement"] = *v;
  if (auto v = std::string(json::get_string(r, {"action"})); !v.empty()) {
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
    out["action"] = v;
  }
  return out;
}

json::Value generate_config(const ConfigInputs& in) {
  const auto& spec = *in.spec;
  json::Object global;
  global["evaluation_interval"] = spec.evaluation_interval;
  global["scrape_interval"] = spec.scrape_interval;
  if (!spec.scrape_timeout.empty()) global["scrape_timeout"] = spec.scrape_timeout;
  json::Object external;
  for (const auto& [k, v] : spec.external_labels) external[k] = v;
  if (!spec.prometheus_external_label_name.empty()) external[spec.prometheus_external_label_name] = in.ns + "/" + in.name;
  if (!spec.replica_external_label_name.empty()) external[spec.replica_external_label_name] = "$(POD_NAME)";
  global["external_labels"] = std::move(external);

  json::Object config;
  config["global"] = std::move(global);
  json::Array rule_files;
  for (const auto& g : in.rule_file_globs) rule_files.emplace_back(g);
  config["rule_files"] = std::move(rule_files);

  json::Array jobs;
  for (const auto& sm : in.service_monitors)
    if (const auto* eps = json::get_array(sm, {"spec", "endpoints"}))
      for (std::size_t i = 0; i < eps->size(); ++i) jobs.push_back(service_monitor_job(sm, (*eps)[i], i, ""));
  for (const auto& pm : in.pod_monitors)
    if (const auto* eps = json::get_array(pm, {"spec", "podMetricsEndpoints"}))
      for (std::size_t i = 0; i < eps->size(); ++i) jobs.push_back(pod_monitor_job(pm, (*eps)[i], i, ""));
  config["scrape_configs"] = std::move(jobs);

  if (!spec.remote_write.empty()) {
    json::Array rw;
    for (const auto& r : spec.remote_write) {
      json::Object o{{"url", r.url}};
      if (!r.name.empty()) o["name"] = r.name;
      if (!r.remote_timeout.empty()) o["remote_timeout"] = r.remote_timeout;
      rw.push_back(std::move(o));
    }
    config["remote_write"] = std::move(rw);
  }
  return config;
}

}  // namespace capstan::monitoring
