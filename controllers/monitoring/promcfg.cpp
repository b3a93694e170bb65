#include "controllers/monitoring/promcfg.h"

#include "controllers/monitoring/builders.h"

#include "runtime/json/yaml.h"
#include "runtime/meta/selector.h"
#include "runtime/meta/ascii.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

namespace capstan::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;

json::Array strings(std::initializer_list<std::string> list) {
  json::Array a;
  for (const auto& s : list) a.emplace_back(s);
  return a;
}

json::Array strings_of(const std::vector<std::string>& list) {
  json::Array a;
  for (const auto& s : list) a.emplace_back(s);
  return a;
}

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

// Keep/drop rules implementing a metav1.LabelSelector on `role` labels ("service" or "pod"):
// matchLabels sorted by key, then matchExpressions in order, as prometheus-operator writes them.
void selector_relabelings(const json::Value& selector, std::string_view role, json::Array& out) {
  const std::string label = "__meta_kubernetes_" + std::string(role) + "_label_";
  const std::string present = "__meta_kubernetes_" + std::string(role) + "_labelpresent_";
  using Op = meta::Requirement::Op;
  auto requirements = meta::LabelSelector::from_json(&selector).requirements();
  auto expressions = std::stable_partition(requirements.begin(), requirements.end(), [](const auto& r) { return r.op == Op::Equals; });
  std::sort(requirements.begin(), expressions, [](const auto& a, const auto& b) { return a.key < b.key; });
  for (const auto& r : requirements) {
    const auto name = sanitize_label_name(r.key);
    std::string values;
    for (const auto& v : r.values) values += (values.empty() ? "" : "|") + v;
    switch (r.op) {
      case Op::Equals:
      case Op::In: out.push_back(relabel(strings({label + name, present + name}), "", "(" + values + ");true", "", "keep")); break;
      case Op::NotIn: out.push_back(relabel(strings({label + name, present + name}), "", "(" + values + ");true", "", "drop")); break;
      case Op::Exists: out.push_back(relabel(strings({present + name}), "", "true", "", "keep")); break;
      case Op::DoesNotExist: out.push_back(relabel(strings({present + name}), "", "true", "", "drop")); break;
      default: break;  // not in a metav1.LabelSelector
    }
  }
}

// The namespaces a discovery looks in: none named (every namespace) for `any`, else matchNames,
// else the object's own.
json::Array namespaces_of(const v1::NamespaceSelector& selector, std::string_view own) {
  json::Array names;
  if (selector.any) return names;
  for (const auto& n : selector.match_names) names.emplace_back(n);
  if (names.empty()) names.emplace_back(own);
  return names;
}

json::Object kubernetes_sd(std::string_view role, const v1::NamespaceSelector& selector, std::string_view own) {
  json::Object sd{{"role", role}};
  if (auto names = namespaces_of(selector, own); !names.empty()) sd["namespaces"] = json::Object{{"names", std::move(names)}};
  return sd;
}

// Where the values a job references are: its file under /etc/prometheus/certs when it was read
// (an optional value that is missing leaves its member out), or the value itself.
class AssetFiles {
 public:
  AssetFiles(std::string_view ns, const Assets& assets) : ns_(ns), assets_(assets) {}
  template <class Ref>
  std::optional<std::string> path(const Ref& ref) const {
    const AssetRef a = asset(ns_, ref);
    if (!assets_.contains(a.file())) return std::nullopt;
    return a.path();
  }
  template <class Ref>
  std::optional<std::string> value(const Ref& ref) const {
    auto it = assets_.find(asset(ns_, ref).file());
    if (it == assets_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::string_view ns_;
  const Assets& assets_;
};

json::Object tls_config(const v1::SafeTLSConfig& tls, const AssetFiles& files) {
  json::Object t;
  if (tls.ca)
    if (auto p = files.path(*tls.ca)) t["ca_file"] = *p;
  if (tls.cert)
    if (auto p = files.path(*tls.cert)) t["cert_file"] = *p;
  if (tls.key_secret)
    if (auto p = files.path(*tls.key_secret)) t["key_file"] = *p;
  if (!tls.server_name.empty()) t["server_name"] = tls.server_name;
  if (tls.insecure_skip_verify) t["insecure_skip_verify"] = true;
  if (!tls.min_version.empty()) t["min_version"] = tls.min_version;
  if (!tls.max_version.empty()) t["max_version"] = tls.max_version;
  return t;
}

// The HTTP client settings of a job (or an HTTP discovery): TLS and at most one way of
// authenticating, the secrets as files.
void http_client(const v1::HttpCredentials& c, const std::optional<v1::SafeTLSConfig>& tls, const AssetFiles& files, json::Object& out) {
  if (c.basic_auth) {
    json::Object b;
    if (c.basic_auth->username)
      if (auto v = files.value(*c.basic_auth->username)) b["username"] = *v;
    if (c.basic_auth->password)
      if (auto p = files.path(*c.basic_auth->password)) b["password_file"] = *p;
    if (!b.empty()) out["basic_auth"] = std::move(b);
  }
  if (c.authorization && c.authorization->credentials)
    if (auto p = files.path(*c.authorization->credentials))
      out["authorization"] = json::Object{{"type", c.authorization->type.empty() ? std::string("Bearer") : c.authorization->type},
                                          {"credentials_file", *p}};
  if (c.bearer_token_secret)
    if (auto p = files.path(*c.bearer_token_secret)) out["bearer_token_file"] = *p;
  if (c.oauth2) {
    json::Object o;
    if (auto v = files.value(c.oauth2->client_id)) o["client_id"] = *v;
    if (auto p = files.path(c.oauth2->client_secret)) o["client_secret_file"] = *p;
    o["token_url"] = c.oauth2->token_url;
    if (!c.oauth2->scopes.empty()) o["scopes"] = strings_of(c.oauth2->scopes);
    if (!c.oauth2->endpoint_params.empty()) o["endpoint_params"] = build::string_map(c.oauth2->endpoint_params);
    out["oauth2"] = std::move(o);
  }
  if (tls)
    if (auto t = tls_config(*tls, files); !t.empty()) out["tls_config"] = std::move(t);
}

// The endpoint members every scrape job takes the same way.
// A scrape class's TLS files and authorization, where the job has none of its own: its whole TLS
// when the job has no tls_config, else only the CA, certificate and key files the job leaves out.
void class_defaults(const v1::ScrapeClass* cls, json::Object& job) {
  if (!cls) return;
  if (const auto& t = cls->tls_config) {
    const bool own = job.contains("tls_config");
    if (!own) job["tls_config"] = json::Object();
    json::Object& tls = job["tls_config"].as_object();
    auto fill = [&](std::string_view key, const std::string& value) {
      if (!value.empty() && !tls.contains(key)) tls[key] = value;
    };
    fill("ca_file", t->ca_file);
    fill("cert_file", t->cert_file);
    fill("key_file", t->key_file);
    if (!own) {
      fill("server_name", t->server_name);
      if (t->insecure_skip_verify) tls["insecure_skip_verify"] = true;
    }
    if (tls.empty()) job.erase("tls_config");
  }
  if (const auto& a = cls->authorization) {
    const bool authenticated = job.contains("authorization") || job.contains("basic_auth") || job.contains("oauth2") || job.contains("bearer_token_file");
    if (!authenticated)
      job["authorization"] = json::Object{{"type", a->type.empty() ? std::string("Bearer") : a->type}, {"credentials_file", a->credentials_file}};
  }
}

void endpoint_settings(const v1::ScrapeEndpoint& ep, const AssetFiles& files, json::Object& job) {
  if (ep.honor_timestamps) job["honor_timestamps"] = *ep.honor_timestamps;
  if (!ep.interval.empty()) job["scrape_interval"] = ep.interval;  // unset: the global scrape_interval
  if (!ep.scrape_timeout.empty()) job["scrape_timeout"] = ep.scrape_timeout;
  if (!ep.path.empty()) job["metrics_path"] = ep.path;
  if (!ep.params.empty()) {
    json::Object params;
    for (const auto& [key, values] : ep.params) params[key] = strings_of(values);
    job["params"] = std::move(params);
  }
  if (!ep.scheme.empty()) job["scheme"] = meta::ascii_lower(ep.scheme);
  http_client(ep, ep.tls_config, files, job);
  if (ep.follow_redirects) job["follow_redirects"] = *ep.follow_redirects;
  if (ep.enable_http2) job["enable_http2"] = *ep.enable_http2;
}

template <class Spec>
void limits(const Spec& spec, json::Object& job) {
  if (spec.sample_limit > 0) job["sample_limit"] = spec.sample_limit;
  if (spec.target_limit > 0) job["target_limit"] = spec.target_limit;
}

void user_relabelings(const std::vector<v1::RelabelConfig>& relabelings, json::Array& out) {
  for (const auto& r : relabelings) out.push_back(relabel_config(r));
}

void label_copies(const std::vector<std::string>& labels, std::string_view role, json::Array& out) {
  for (const auto& l : labels) {
    auto name = sanitize_label_name(l);
    out.push_back(relabel(strings({"__meta_kubernetes_" + std::string(role) + "_label_" + name}), name, "(.+)", "${1}"));
  }
}

// The job's members before and after its relabelings, as both kinds of monitor have them.
template <class Monitor>
json::Object job_head(const Monitor& monitor, std::string_view kind, std::string_view role, const v1::ScrapeEndpoint& ep, std::size_t i,
                      const Assets& assets, const v1::ScrapeClass* cls) {
  json::Object job;
  job["job_name"] = std::string(kind) + "/" + std::string(monitor.namespace_()) + "/" + std::string(monitor.name()) + "/" + std::to_string(i);
  job["honor_labels"] = ep.honor_labels;
  json::Object sd = kubernetes_sd(role, monitor.spec.namespace_selector, monitor.namespace_());
  const auto& attach = monitor.spec.attach_metadata ? monitor.spec.attach_metadata : (cls ? cls->attach_metadata : std::nullopt);
  if (attach && attach->node) sd["attach_metadata"] = json::Object{{"node", *attach->node}};
  job["kubernetes_sd_configs"] = json::Array{std::move(sd)};
  endpoint_settings(ep, AssetFiles(monitor.namespace_(), assets), job);
  class_defaults(cls, job);
  return job;
}

// The job's relabelings, limits and metric relabelings, after its own relabel rules `relabelings`.
// The scrape class's relabelings (and metric relabelings) come before the object's own.
template <class Spec>
void job_tail(const Spec& spec, const std::vector<v1::RelabelConfig>& user, const std::vector<v1::RelabelConfig>& metric_user,
              json::Array relabelings, json::Object& job, const v1::ScrapeClass* cls) {
  if (cls) user_relabelings(cls->relabelings, relabelings);
  user_relabelings(user, relabelings);
  job["relabel_configs"] = std::move(relabelings);
  limits(spec, job);
  json::Array metric;
  if (cls) user_relabelings(cls->metric_relabelings, metric);
  user_relabelings(metric_user, metric);
  if (!metric.empty()) job["metric_relabel_configs"] = std::move(metric);
}

// The relabelings every job starts with: the job's name kept where the user's rules can read it.
json::Array initial_relabelings() {
  json::Array r;
  r.push_back(relabel(strings({"job"}), "__tmp_prometheus_job_name"));
  return r;
}

void running_filter(const v1::ScrapeEndpoint& ep, json::Array& r) {
  if (ep.filter_running.value_or(true)) r.push_back(relabel(strings({"__meta_kubernetes_pod_phase"}), "", "(Failed|Succeeded)", "", "drop"));
}

// A ServiceMonitor endpoint's job; `default_role`: the Prometheus's serviceDiscoveryRole.
json::Object service_monitor_job(const v1::ServiceMonitor& sm, const v1::Endpoint& ep, std::size_t i,
                                 std::string_view default_role, const Assets& assets, const v1::ScrapeClass* cls) {
  const bool slices = (sm.spec.service_discovery_role.empty() ? default_role : sm.spec.service_discovery_role) == "EndpointSlice";
  const std::string meta = slices ? "__meta_kubernetes_endpointslice_" : "__meta_kubernetes_endpoint_";
  json::Object job = job_head(sm, "serviceMonitor", slices ? "endpointslice" : "endpoints", ep, i, assets, cls);
  json::Array r = initial_relabelings();
  selector_relabelings(sm.spec.selector, "service", r);
  std::string endpoint_label;
  if (!ep.port.empty()) {
    r.push_back(relabel(strings({meta + "port_name"}), "", ep.port, "", "keep"));
    endpoint_label = ep.port;
  } else if (ep.target_port && (ep.target_port->is_string() || ep.target_port->is_int64())) {
    if (ep.target_port->is_int64()) {
      endpoint_label = std::to_string(ep.target_port->as_int64());
      r.push_back(relabel(strings({"__meta_kubernetes_pod_container_port_number"}), "", endpoint_label, "", "keep"));
    } else {
      endpoint_label = std::string(ep.target_port->get_string());
      r.push_back(relabel(strings({"__meta_kubernetes_pod_container_port_name"}), "", endpoint_label, "", "keep"));
    }
  }
  json::Array kind_name = strings({meta + "address_target_kind", meta + "address_target_name"});
  r.push_back(relabel(kind_name, "node", "Node;(.*)", "${1}", "", ";"));
  r.push_back(relabel(kind_name, "pod", "Pod;(.*)", "${1}", "", ";"));
  r.push_back(relabel(strings({"__meta_kubernetes_namespace"}), "namespace"));
  r.push_back(relabel(strings({"__meta_kubernetes_service_name"}), "service"));
  r.push_back(relabel(strings({"__meta_kubernetes_pod_name"}), "pod"));
  r.push_back(relabel(strings({"__meta_kubernetes_pod_container_name"}), "container"));
  running_filter(ep, r);
  label_copies(sm.spec.target_labels, "service", r);
  label_copies(sm.spec.pod_target_labels, "pod", r);
  r.push_back(relabel(strings({"__meta_kubernetes_service_name"}), "job", "", "${1}"));
  if (!sm.spec.job_label.empty())
    r.push_back(relabel(strings({"__meta_kubernetes_service_label_" + sanitize_label_name(sm.spec.job_label)}), "job", "(.+)", "${1}"));
  if (!endpoint_label.empty()) r.push_back(relabel({}, "endpoint", "", endpoint_label));
  job_tail(sm.spec, ep.relabelings, ep.metric_relabelings, std::move(r), job, cls);
  return job;
}

json::Object pod_monitor_job(const v1::PodMonitor& pm, const v1::PodMetricsEndpoint& ep, std::size_t i,
                             const Assets& assets, const v1::ScrapeClass* cls) {
  json::Object job = job_head(pm, "podMonitor", "pod", ep, i, assets, cls);
  json::Array r = initial_relabelings();
  selector_relabelings(pm.spec.selector, "pod", r);
  std::string endpoint_label;
  if (!ep.port.empty()) {
    r.push_back(relabel(strings({"__meta_kubernetes_pod_container_port_name"}), "", ep.port, "", "keep"));
    endpoint_label = ep.port;
  } else if (ep.port_number) {
    endpoint_label = std::to_string(*ep.port_number);
    r.push_back(relabel(strings({"__meta_kubernetes_pod_container_port_number"}), "", endpoint_label, "", "keep"));
  }
  r.push_back(relabel(strings({"__meta_kubernetes_namespace"}), "namespace"));
  r.push_back(relabel(strings({"__meta_kubernetes_pod_container_name"}), "container"));
  r.push_back(relabel(strings({"__meta_kubernetes_pod_name"}), "pod"));
  running_filter(ep, r);
  label_copies(pm.spec.pod_target_labels, "pod", r);
  r.push_back(relabel({}, "job", "", std::string(pm.namespace_()) + "/" + std::string(pm.name())));
  if (!pm.spec.job_label.empty())
    r.push_back(relabel(strings({"__meta_kubernetes_pod_label_" + sanitize_label_name(pm.spec.job_label)}), "job", "(.+)", "${1}"));
  if (!endpoint_label.empty()) r.push_back(relabel({}, "endpoint", "", endpoint_label));
  job_tail(pm.spec, ep.relabelings, ep.metric_relabelings, std::move(r), job, cls);
  return job;
}

// A Probe's job, as prometheus-operator's generateProbeConfig writes it: the targets become the
// prober's `target` parameter (and the instance label), the prober's address the scrape address.
json::Object probe_job(const v1::Probe& probe, const Assets& assets, const v1::ScrapeClass* cls) {
  const auto& spec = probe.spec;
  const std::string ns(probe.namespace_());
  json::Object job;
  job["job_name"] = "probe/" + ns + "/" + std::string(probe.name());
  job["honor_timestamps"] = true;
  job["metrics_path"] = spec.prober.path.empty() ? std::string(v1::kDefaultProbePath) : spec.prober.path;
  if (!spec.interval.empty()) job["scrape_interval"] = spec.interval;
  if (!spec.scrape_timeout.empty()) job["scrape_timeout"] = spec.scrape_timeout;
  if (!spec.prober.scheme.empty()) job["scheme"] = meta::ascii_lower(spec.prober.scheme);
  json::Object params;
  if (!spec.module.empty()) params["module"] = strings({spec.module});
  for (const auto& p : spec.params)
    if (spec.module.empty() || p.name != "module") params[p.name] = strings_of(p.values);
  if (!params.empty()) job["params"] = std::move(params);
  http_client(spec, spec.tls_config, AssetFiles(ns, assets), job);
  class_defaults(cls, job);

  json::Array r = initial_relabelings();
  if (!spec.job_name.empty()) r.push_back(relabel({}, "job", "", spec.job_name));
  const std::vector<v1::RelabelConfig>* user = nullptr;
  if (const auto& targets = spec.targets.static_config) {
    json::Object labels{{"namespace", ns}};
    for (const auto& [k, v] : targets->labels) labels[k] = v;
    job["static_configs"] = json::Array{json::Object{{"targets", strings_of(targets->static_)}, {"labels", std::move(labels)}}};
    r.push_back(relabel(strings({"__address__"}), "__param_target"));
    r.push_back(relabel(strings({"__param_target"}), "instance"));
    r.push_back(relabel({}, "__address__", "", spec.prober.url));
    user = &targets->relabeling_configs;
  } else if (const auto& ingress = spec.targets.ingress) {
    selector_relabelings(ingress->selector, "ingress", r);
    job["kubernetes_sd_configs"] = json::Array{kubernetes_sd("ingress", ingress->namespace_selector, ns)};
    r.push_back(relabel(strings({"__meta_kubernetes_ingress_scheme", "__address__", "__meta_kubernetes_ingress_path"}), "__param_target",
                        "(.+);(.+);(.+)", "${1}://${2}${3}", "replace", ";"));
    r.push_back(relabel(strings({"__meta_kubernetes_namespace"}), "namespace"));
    r.push_back(relabel(strings({"__meta_kubernetes_ingress_name"}), "ingress"));
    r.push_back(relabel(strings({"__address__"}), "__tmp_ingress_address", "(.*)", "$1", "replace", ";"));
    r.push_back(relabel(strings({"__param_target"}), "instance"));
    r.push_back(relabel({}, "__address__", "", spec.prober.url));
    user = &ingress->relabeling_configs;
  }
  static const std::vector<v1::RelabelConfig> none;
  job_tail(spec, user ? *user : none, spec.metric_relabelings, std::move(r), job, cls);
  return job;
}

// A ScrapeConfig's job: its discovery written out in Prometheus's terms.
json::Object scrape_config_job(const v1::ScrapeConfig& sc, const Assets& assets, const v1::ScrapeClass* cls) {
  const auto& spec = sc.spec;
  const AssetFiles files(sc.namespace_(), assets);
  json::Object job;
  job["job_name"] = "scrapeConfig/" + std::string(sc.namespace_()) + "/" + std::string(sc.name());
  if (spec.honor_timestamps) job["honor_timestamps"] = *spec.honor_timestamps;
  if (spec.honor_labels) job["honor_labels"] = *spec.honor_labels;
  if (!spec.metrics_path.empty()) job["metrics_path"] = spec.metrics_path;
  if (!spec.params.empty()) {
    json::Object params;
    for (const auto& [key, values] : spec.params) params[key] = strings_of(values);
    job["params"] = std::move(params);
  }
  if (!spec.scrape_interval.empty()) job["scrape_interval"] = spec.scrape_interval;
  if (!spec.scrape_timeout.empty()) job["scrape_timeout"] = spec.scrape_timeout;
  if (!spec.scheme.empty()) job["scheme"] = meta::ascii_lower(spec.scheme);
  http_client(spec, spec.tls_config, files, job);
  class_defaults(cls, job);
  if (!spec.static_configs.empty()) {
    json::Array list;
    for (const auto& c : spec.static_configs) {
      json::Object o{{"targets", strings_of(c.targets)}};
      if (!c.labels.empty()) o["labels"] = build::string_map(c.labels);
      list.push_back(std::move(o));
    }
    job["static_configs"] = std::move(list);
  }
  if (!spec.file_sd_configs.empty()) {
    json::Array list;
    for (const auto& c : spec.file_sd_configs) {
      json::Object o{{"files", strings_of(c.files)}};
      if (!c.refresh_interval.empty()) o["refresh_interval"] = c.refresh_interval;
      list.push_back(std::move(o));
    }
    job["file_sd_configs"] = std::move(list);
  }
  if (!spec.http_sd_configs.empty()) {
    json::Array list;
    for (const auto& c : spec.http_sd_configs) {
      json::Object o{{"url", c.url}};
      if (!c.refresh_interval.empty()) o["refresh_interval"] = c.refresh_interval;
      http_client(c, c.tls_config, files, o);
      list.push_back(std::move(o));
    }
    job["http_sd_configs"] = std::move(list);
  }
  if (!spec.kubernetes_sd_configs.empty()) {
    json::Array list;
    for (const auto& c : spec.kubernetes_sd_configs) {
      json::Object o{{"role", meta::ascii_lower(c.role)}};
      if (c.namespaces) {
        json::Object n{{"names", strings_of(c.namespaces->names)}};
        if (c.namespaces->own_namespace) n["own_namespace"] = *c.namespaces->own_namespace;
        o["namespaces"] = std::move(n);
      }
      if (!c.selectors.empty()) {
        json::Array selectors;
        for (const auto& sel : c.selectors) {
          json::Object so{{"role", meta::ascii_lower(sel.role)}};
          if (!sel.label.empty()) so["label"] = sel.label;
          if (!sel.field.empty()) so["field"] = sel.field;
          selectors.push_back(std::move(so));
        }
        o["selectors"] = std::move(selectors);
      }
      if (c.attach_metadata && c.attach_metadata->node) o["attach_metadata"] = json::Object{{"node", *c.attach_metadata->node}};
      list.push_back(std::move(o));
    }
    job["kubernetes_sd_configs"] = std::move(list);
  }
  json::Array r = initial_relabelings();
  if (!spec.job_name.empty()) r.push_back(relabel({}, "job", "", spec.job_name, "replace"));
  job_tail(spec, spec.relabelings, spec.metric_relabelings, std::move(r), job, cls);
  return job;
}

// Sharded: each shard keeps the targets whose `label` (the address; a probe's target) hashes to
// it ($(SHARD) is the shard's number, substituted by the config reloader of each StatefulSet), as
// prometheus-operator does.
void shard(json::Object& job, std::int32_t shards, std::string_view label) {
  if (shards <= 1) return;
  auto& relabelings = job["relabel_configs"].as_array();
  relabelings.push_back(
      json::Object{{"source_labels", json::Array{label}}, {"target_label", "__tmp_hash"}, {"modulus", shards}, {"action", "hashmod"}});
  relabelings.push_back(json::Object{{"source_labels", json::Array{"__tmp_hash"}}, {"regex", "$(SHARD)"}, {"action", "keep"}});
}

// The alerting block, as prometheus-operator writes it: each Alertmanager Service's endpoints,
// through Kubernetes service discovery kept to that Service and port; the replica label dropped,
// so the replicas' copies of an alert are one alert to Alertmanager.
json::Value alerting(const std::string& own_ns, const apis::monitoring::v1::PrometheusSpec& spec) {
  json::Array alertmanagers;
  const bool slices = spec.service_discovery_role == "EndpointSlice";
  const std::string port_name = slices ? "__meta_kubernetes_endpointslice_port_name" : "__meta_kubernetes_endpoint_port_name";
  for (const auto& am : spec.alerting->alertmanagers) {
    const std::string ns = am.namespace_.empty() ? own_ns : am.namespace_;
    json::Array relabel{json::Object{{"action", "keep"}, {"source_labels", json::Array{"__meta_kubernetes_service_name"}}, {"regex", am.name}}};
    if (am.port.is_string())
      relabel.push_back(json::Object{{"action", "keep"}, {"source_labels", json::Array{port_name}},
                                     {"regex", am.port.get_string()}});
    else if (am.port.is_int64())
      relabel.push_back(json::Object{{"action", "keep"}, {"source_labels", json::Array{"__meta_kubernetes_pod_container_port_number"}},
                                     {"regex", std::to_string(am.port.get_int64())}});
    json::Object o{{"path_prefix", am.path_prefix.empty() ? std::string("/") : am.path_prefix},
                   {"scheme", am.scheme.empty() ? std::string("http") : meta::ascii_lower(am.scheme)},
                   {"api_version", "v2"},
                   {"kubernetes_sd_configs",
                    json::Array{json::Object{{"role", slices ? "endpointslice" : "endpoints"}, {"namespaces", json::Object{{"names", json::Array{ns}}}}}}},
                   {"relabel_configs", std::move(relabel)}};
    if (!am.timeout.empty()) o["timeout"] = am.timeout;
    alertmanagers.push_back(std::move(o));
  }
  json::Object out{{"alertmanagers", std::move(alertmanagers)}};
  if (!spec.replica_external_label_name.empty())
    out["alert_relabel_configs"] = json::Array{json::Object{{"action", "labeldrop"}, {"regex", spec.replica_external_label_name}}};
  return out;
}

}  // namespace

const v1::ScrapeClass* scrape_class(const v1::PrometheusSpec& spec, std::string_view name) {
  for (const auto& c : spec.scrape_classes)
    if (name.empty() ? c.default_ : c.name == name) return &c;
  return nullptr;
}

std::string sanitize_label_name(std::string_view name) {
  std::string out(name);
  for (auto& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  return out;
}

json::Value relabel_config(const v1::RelabelConfig& r) {
  json::Object out;
  if (!r.source_labels.empty()) out["source_labels"] = strings_of(r.source_labels);
  if (!r.separator.empty()) out["separator"] = r.separator;
  if (!r.target_label.empty()) out["target_label"] = r.target_label;
  if (!r.regex.empty()) out["regex"] = r.regex;
  if (r.modulus) out["modulus"] = *r.modulus;
  if (r.replacement) out["replacement"] = *r.replacement;
  if (!r.action.empty()) out["action"] = meta::ascii_lower(r.action);
  return out;
}

json::Array additional_scrape_configs(std::string_view yaml) {
  json::Value v;
  try {
    v = json::from_yaml(yaml);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("it is not YAML: ") + e.what());
  }
  if (v.is_null()) return {};
  if (!v.is_array()) throw std::invalid_argument("it is not a YAML list of scrape configurations");
  std::set<std::string> names;
  for (std::size_t i = 0; i < v.as_array().size(); ++i) {
    const auto& job = v.as_array()[i];
    std::string_view name = job.is_object() ? json::get_string(job, {"job_name"}) : std::string_view();
    if (name.empty()) throw std::invalid_argument("item " + std::to_string(i) + " has no job_name");
    if (!names.insert(std::string(name)).second) throw std::invalid_argument("job_name " + std::string(name) + " is there twice");
  }
  return std::move(v.as_array());
}

json::Value generate_config(const ConfigInputs& in) {
  const auto& spec = *in.spec;
  json::Object global;
  if (!in.agent) global["evaluation_interval"] = spec.evaluation_interval;
  global["scrape_interval"] = spec.scrape_interval;
  if (!spec.scrape_timeout.empty()) global["scrape_timeout"] = spec.scrape_timeout;
  json::Object external;
  for (const auto& [k, v] : spec.external_labels) external[k] = v;
  if (!spec.prometheus_external_label_name.empty()) external[spec.prometheus_external_label_name] = in.ns + "/" + in.name;
  if (!spec.replica_external_label_name.empty()) external[spec.replica_external_label_name] = "$(POD_NAME)";
  global["external_labels"] = std::move(external);

  json::Object config;
  config["global"] = std::move(global);
  if (!in.agent) {
    json::Array rule_files;
    for (const auto& g : in.rule_file_globs) rule_files.emplace_back(g);
    config["rule_files"] = std::move(rule_files);
  }

  // prometheus-operator's order: ServiceMonitors, PodMonitors, Probes, ScrapeConfigs, then the
  // hand-written jobs.
  json::Array jobs;
  auto add = [&](json::Object job, std::string_view hash_label) {
    shard(job, spec.shards, hash_label);
    jobs.push_back(std::move(job));
  };
  for (const auto& sm : in.service_monitors)
    for (std::size_t i = 0; i < sm.spec.endpoints.size(); ++i) add(service_monitor_job(sm, sm.spec.endpoints[i], i, spec.service_discovery_role, in.assets, scrape_class(spec, sm.spec.scrape_class)),
          "__address__");
  for (const auto& pm : in.pod_monitors)
    for (std::size_t i = 0; i < pm.spec.pod_metrics_endpoints.size(); ++i)
      add(pod_monitor_job(pm, pm.spec.pod_metrics_endpoints[i], i, in.assets, scrape_class(spec, pm.spec.scrape_class)), "__address__");
  for (const auto& probe : in.probes) add(probe_job(probe, in.assets, scrape_class(spec, probe.spec.scrape_class)), "__param_target");
  for (const auto& sc : in.scrape_configs) add(scrape_config_job(sc, in.assets, scrape_class(spec, sc.spec.scrape_class)), "__address__");
  for (const auto& job : in.additional_scrape_configs) jobs.push_back(job);
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
  if (!in.agent && spec.alerting && !spec.alerting->alertmanagers.empty()) config["alerting"] = alerting(in.ns, spec);
  return config;
}

}  // namespace capstan::monitoring
