// ServiceMonitor, PodMonitor, Probe and ScrapeConfig: what Prometheus would refuse in the jobs
// generated from them.
#include "apis/monitoring/promql/regex.h"
#include "apis/monitoring/v1/validation.h"
#include "runtime/meta/selector.h"
#include "runtime/meta/ascii.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace capstan::apis::monitoring::v1 {
namespace {

using validation::Cause;
using validation::FieldPath;

// A SecretOrConfigMap: exactly one of secret and configMap.
void secret_or_configmap(const json::Value& parent, std::string_view key, const FieldPath& path, std::vector<Cause>& out) {
  const json::Value* v = json::find(parent, {key});
  if (!v || !v->is_object()) return;
  const bool secret = json::find(*v, {"secret"}) != nullptr, configmap = json::find(*v, {"configMap"}) != nullptr;
  if (secret == configmap)
    out.push_back(secret ? validation::field_forbidden(path.child(key), "secret and configMap are exclusive")
                         : validation::field_required(path.child(key), "one of secret and configMap is required"));
}

// How a scrape authenticates and its TLS: what Prometheus's HTTP client configuration refuses.
void credentials(const json::Value& holder, const FieldPath& path, std::vector<Cause>& out) {
  if (!holder.is_object()) return;
  std::vector<std::string_view> set;
  for (std::string_view key : {"basicAuth", "authorization", "oauth2", "bearerTokenSecret"})
    if (json::find(holder, {key})) set.push_back(key);
  for (std::size_t i = 1; i < set.size(); ++i)
    out.push_back(validation::field_forbidden(path.child(set[i]), "at most one of basicAuth, authorization, oauth2 and bearerTokenSecret may be set"));
  if (const json::Value* basic = json::find(holder, {"basicAuth"}))
    for (std::string_view key : {"username", "password"})
      if (!json::find(*basic, {key})) out.push_back(validation::field_required(path.child("basicAuth").child(key)));
  if (const json::Value* auth = json::find(holder, {"authorization"})) {
    const std::string type = meta::ascii_lower(json::get_string(*auth, {"type"}));
    if (type == "basic")
      out.push_back(validation::field_invalid(path.child("authorization").child("type"), *json::find(*auth, {"type"}), "use basicAuth for Basic"));
    if (!json::find(*auth, {"credentials"})) out.push_back(validation::field_required(path.child("authorization").child("credentials")));
  }
  if (const json::Value* oauth2 = json::find(holder, {"oauth2"})) {
    secret_or_configmap(*oauth2, "clientId", path.child("oauth2"), out);
    if (const json::Value* url = json::find(*oauth2, {"tokenUrl"}); url && url->is_string() && !http_url(url->get_string()))
      out.push_back(validation::field_invalid(path.child("oauth2").child("tokenUrl"), *url, "must be an http:// or https:// URL with a host"));
  }
  if (const json::Value* tls = json::find(holder, {"tlsConfig"}); tls && tls->is_object()) {
    const FieldPath tp = path.child("tlsConfig");
    secret_or_configmap(*tls, "ca", tp, out);
    secret_or_configmap(*tls, "cert", tp, out);
    const bool cert = json::find(*tls, {"cert"}) != nullptr, key = json::find(*tls, {"keySecret"}) != nullptr;
    if (cert != key) out.push_back(validation::field_required(tp.child(cert ? "keySecret" : "cert"), "cert and keySecret go together"));
  }
}

std::vector<Cause> validate_monitor(const json::Value& obj, std::string_view endpoints_key) {
  std::vector<Cause> out;
  const json::Array* endpoints = json::get_array(obj, {"spec", endpoints_key});
  if (!endpoints) return out;
  FieldPath path = FieldPath("spec").child(endpoints_key);
  for (std::size_t i = 0; i < endpoints->size(); ++i) {
    if (!(*endpoints)[i].is_object()) continue;
    validate_endpoint_timing((*endpoints)[i], path.index(i), out);
    credentials((*endpoints)[i], path.index(i), out);
    validate_relabelings((*endpoints)[i], "relabelings", path.index(i), out);
    validate_relabelings((*endpoints)[i], "metricRelabelings", path.index(i), out);
  }
  return out;
}

// Label names of a map of labels (`labels` of static targets).
void label_names(const json::Value& parent, std::string_view key, const FieldPath& path, std::vector<Cause>& out) {
  const json::Value* labels = json::find(parent, {key});
  if (!labels || !labels->is_object()) return;
  for (const auto& kv : labels->get_object())
    if (!valid_label_name(kv.key()))
      out.push_back(validation::field_invalid(path.child(key).key(kv.key()), json::Value(std::string(kv.key())), "is not a valid label name"));
}

// A list of targets that must not be empty.
void targets(const json::Value& parent, std::string_view key, const FieldPath& path, std::vector<Cause>& out) {
  const json::Array* list = json::get_array(parent, {key});
  if (!list || list->empty()) out.push_back(validation::field_required(path.child(key), "at least one target is required"));
}

void path_member(const json::Value& parent, std::string_view key, const FieldPath& path, std::vector<Cause>& out) {
  const json::Value* v = json::find(parent, {key});
  if (v && v->is_string() && !v->get_string().empty() && v->get_string().front() != '/')
    out.push_back(validation::field_invalid(path.child(key), *v, "must begin with /"));
}

// host:port, host, [v6]:port or v6 without brackets: what Prometheus puts in __address__.
bool host_port(std::string_view s) {
  if (s.empty() || s.size() > 1024) return false;
  std::string_view host = s, port;
  if (s.front() == '[') {
    auto close = s.find(']');
    if (close == std::string_view::npos) return false;
    host = s.substr(1, close - 1);
    std::string_view rest = s.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return false;
      port = rest.substr(1);
      if (port.empty()) return false;
    }
  } else if (auto colon = s.rfind(':'); colon != std::string_view::npos && s.find(':') == colon) {
    host = s.substr(0, colon);
    port = s.substr(colon + 1);
    if (port.empty()) return false;
  }
  if (host.empty()) return false;
  for (char c : host)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_' && c != ':') return false;
  if (port.size() > 5 || !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  return port.empty() || std::stoi(std::string(port)) <= 65535;
}

// Which selector roles a Kubernetes discovery role allows (Prometheus's kubernetes.SDConfig.Validate).
std::vector<std::string> selector_roles(std::string_view role) {
  if (role == "endpoints") return {"endpoints", "pod", "service"};
  if (role == "endpointslice") return {"endpointslice", "pod", "service"};
  return {std::string(role)};
}

void kubernetes_sd(const json::Value& config, const FieldPath& path, std::vector<Cause>& out) {
  const std::string role = meta::ascii_lower(json::get_string(config, {"role"}));
  const json::Array* selectors = json::get_array(config, {"selectors"});
  if (!selectors) return;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < selectors->size(); ++i) {
    const json::Value& sel = (*selectors)[i];
    const FieldPath p = path.child("selectors").index(i);
    const std::string sel_role = meta::ascii_lower(json::get_string(sel, {"role"}));
    if (const auto allowed = selector_roles(role);
        !role.empty() && !sel_role.empty() && std::find(allowed.begin(), allowed.end(), sel_role) == allowed.end())
      out.push_back(validation::field_not_supported(p.child("role"), *json::find(sel, {"role"}), allowed));
    if (!sel_role.empty() && !seen.insert(sel_role).second)
      out.push_back(validation::field_duplicate(p.child("role"), *json::find(sel, {"role"})));
    try {
      (void)meta::LabelSelector::parse(json::get_string(sel, {"label"}));
    } catch (const std::exception& e) {
      out.push_back(validation::field_invalid(p.child("label"), *json::find(sel, {"label"}), e.what()));
    }
    try {
      (void)meta::FieldSelector::parse(json::get_string(sel, {"field"}));
    } catch (const std::exception& e) {
      out.push_back(validation::field_invalid(p.child("field"), *json::find(sel, {"field"}), e.what()));
    }
  }
}

}  // namespace

void validate_relabelings(const json::Value& parent, std::string_view key, const FieldPath& path, std::vector<Cause>& out) {
  const json::Array* configs = json::get_array(parent, {key});
  if (!configs) return;
  for (std::size_t i = 0; i < configs->size(); ++i) {
    const json::Value* regex = (*configs)[i].is_object() ? json::find((*configs)[i], {"regex"}) : nullptr;
    validate_relabel_config((*configs)[i], path.child(key).index(i), out);
    if (!regex || !regex->is_string()) continue;
    if (auto why = promql::regex_error(regex->get_string()))
      out.push_back(validation::field_invalid(path.child(key).index(i).child("regex"), *regex, *why));
  }
}

std::vector<Cause> validate_probe(const json::Value& obj) {
  std::vector<Cause> out;
  const json::Value* spec = json::find(obj, {"spec"});
  if (!spec || !spec->is_object()) return out;
  const FieldPath sp("spec");
  if (const json::Value* url = json::find(*spec, {"prober", "url"}); url && url->is_string()) {
    if (url->get_string().find("://") != std::string_view::npos)
      out.push_back(validation::field_invalid(sp.child("prober").child("url"), *url, "must be host:port, without a scheme (set prober.scheme)"));
    else if (!host_port(url->get_string()))
      out.push_back(validation::field_invalid(sp.child("prober").child("url"), *url, "must be host:port"));
  }
  if (const json::Value* prober = json::find(*spec, {"prober"})) path_member(*prober, "path", sp.child("prober"), out);
  const FieldPath tp = sp.child("targets");
  const json::Value* static_config = json::find(*spec, {"targets", "staticConfig"});
  const json::Value* ingress = json::find(*spec, {"targets", "ingress"});
  if (static_config && static_config->is_object()) {
    targets(*static_config, "static", tp.child("staticConfig"), out);
    label_names(*static_config, "labels", tp.child("staticConfig"), out);
    validate_relabelings(*static_config, "relabelingConfigs", tp.child("staticConfig"), out);
  } else if (ingress && ingress->is_object()) {
    validate_label_selector(*ingress, "selector", tp.child("ingress"), out);
    validate_relabelings(*ingress, "relabelingConfigs", tp.child("ingress"), out);
  } else {
    out.push_back(validation::field_required(tp, "staticConfig or ingress is required"));
  }
  validate_endpoint_timing(*spec, sp, out);
  credentials(*spec, sp, out);
  validate_relabelings(*spec, "metricRelabelings", sp, out);
  return out;
}

std::vector<Cause> validate_scrape_config(const json::Value& obj) {
  std::vector<Cause> out;
  const json::Value* spec = json::find(obj, {"spec"});
  if (!spec || !spec->is_object()) return out;
  const FieldPath sp("spec");
  if (const json::Array* list = json::get_array(*spec, {"staticConfigs"}))
    for (std::size_t i = 0; i < list->size(); ++i) {
      targets((*list)[i], "targets", sp.child("staticConfigs").index(i), out);
      label_names((*list)[i], "labels", sp.child("staticConfigs").index(i), out);
    }
  // Prometheus's file discovery pattern (discovery/file).
  static const RE2 file_pattern(R"(^[^*]*(\*[^/]*)?\.(json|yml|yaml|JSON|YML|YAML)$)");
  if (const json::Array* list = json::get_array(*spec, {"fileSDConfigs"}))
    for (std::size_t i = 0; i < list->size(); ++i)
      if (const json::Array* files = json::get_array((*list)[i], {"files"}))
        for (std::size_t j = 0; j < files->size(); ++j)
          if ((*files)[j].is_string() && !RE2::FullMatch(std::string((*files)[j].get_string()), file_pattern))
            out.push_back(validation::field_invalid(sp.child("fileSDConfigs").index(i).child("files").index(j), (*files)[j],
                                                    "must end in .json, .yml or .yaml, with a * in the file name only"));
  if (const json::Array* list = json::get_array(*spec, {"httpSDConfigs"}))
    for (std::size_t i = 0; i < list->size(); ++i) {
      if (const json::Value* url = json::find((*list)[i], {"url"}); url && url->is_string() && !http_url(url->get_string()))
        out.push_back(validation::field_invalid(sp.child("httpSDConfigs").index(i).child("url"), *url, "must be an http:// or https:// URL with a host"));
      credentials((*list)[i], sp.child("httpSDConfigs").index(i), out);
    }
  if (const json::Array* list = json::get_array(*spec, {"kubernetesSDConfigs"}))
    for (std::size_t i = 0; i < list->size(); ++i) kubernetes_sd((*list)[i], sp.child("kubernetesSDConfigs").index(i), out);
  path_member(*spec, "metricsPath", sp, out);
  validate_endpoint_timing(*spec, sp, out, "scrapeInterval");
  credentials(*spec, sp, out);
  validate_relabelings(*spec, "relabelings", sp, out);
  validate_relabelings(*spec, "metricRelabelings", sp, out);
  return out;
}

std::vector<Cause> validate_service_monitor(const json::Value& obj) { return validate_monitor(obj, "endpoints"); }
std::vector<Cause> validate_pod_monitor(const json::Value& obj) { return validate_monitor(obj, "podMetricsEndpoints"); }

}  // namespace capstan::apis::monitoring::v1
