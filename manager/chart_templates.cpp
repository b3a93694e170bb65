#include "manager/chart_templates.h"

#include "manager/registry.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/object.h"
#include "runtime/webhook/cert_rotator.h"

#include <sstream>

namespace capstan::manager {
namespace {

// Placeholders put into the JSON before it is written as YAML, then replaced by template
// actions (plain words, so the YAML writer never quotes them).
constexpr std::string_view kFullname = "CAPSTANHELMFULLNAME";
constexpr std::string_view kClientConfig = "CAPSTANHELMCLIENTCONFIG";
constexpr std::string_view kFailurePolicy = "CAPSTANHELMFAILUREPOLICY";
constexpr std::string_view kTimeout = "CAPSTANHELMTIMEOUT";
constexpr std::string_view kKeep = "CAPSTANHELMKEEP";
constexpr std::string_view kNamespace = "CAPSTANHELMNAMESPACE";
constexpr std::string_view kInjectLabel = "CAPSTANHELMINJECTLABEL";
// The Service "webhook-service" in "system": what config/default's namePrefix and namespace
// rewrite, and what the chart's templating replaces (clientConfig lines become includes).
const WebhookEndpoint kServiceEndpoint{"", "system", "webhook-service", ""};

// kServiceEndpoint, every webhook leaving out `manager_namespace`.
WebhookEndpoint service_endpoint_leaving_out(std::string manager_namespace) {
  WebhookEndpoint e = kServiceEndpoint;
  e.manager_namespace = std::move(manager_namespace);
  return e;
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
}

// "capstan-certificates" -> "certificates".
std::string unprefixed(std::string_view name) {
  constexpr std::string_view kPrefix = "capstan-";
  return std::string(name.substr(0, kPrefix.size()) == kPrefix ? name.substr(kPrefix.size()) : name);
}

// A webhook configuration with placeholders where the chart's values go.
json::Value templated(json::Value cfg) {
  auto& meta = json::ensure_object(cfg, {"metadata"});
  meta["name"] = std::string(kFullname) + "-" + unprefixed(json::get_string(meta, {"name"}));
  if (auto* hooks = json::find(cfg, {"webhooks"}); hooks && hooks->is_array()) {
    for (auto& h : hooks->as_array()) {
      auto& o = h.as_object();
      o["clientConfig"] = std::string(kClientConfig) + std::string(json::get_string(h, {"clientConfig", "service", "path"}));
      o["failurePolicy"] = kFailurePolicy;
      o["timeoutSeconds"] = kTimeout;
    }
  }
  return cfg;
}

// "  clientConfig: CAPSTANHELMCLIENTCONFIG/path" -> the include of capstan.webhookClientConfig
// (service or url, and the caBundle) at that indentation, with `hooks` (a template expression
// giving capstan.webhookHooks' dict) as its "hooks".
std::string client_config_includes(const std::string& yaml, std::string_view hooks) {
  std::istringstream in(yaml);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    auto at = line.find(kClientConfig);
    if (at != std::string::npos) {
      std::string path = line.substr(at + kClientConfig.size());
      std::size_t indent = line.find_first_not_of(' ');
      line = line.substr(0, at) + "{{- include \"capstan.webhookClientConfig\" (dict \"hooks\" " + std::string(hooks) + " \"path\" \"" +
             path + "\") | trim | nindent " + std::to_string(indent + 2) + " }}";
    }
    out += line + "\n";
  }
  return out;
}

// A generated webhooks template: the client configs, and the values' placeholders.
std::string with_client_configs(const std::string& yaml) {
  std::string out = client_config_includes(yaml, ".");
  // With webhook.managerCertificate the manager injects its CA (no caBundle in the chart).
  replace_all(out, "\nmetadata:\n",
              "\nmetadata:\n  {{- with .injectFrom }}\n  annotations:\n    " + std::string(webhook::kInjectCaFromSecretAnnotation) +
                  ": {{ . }}\n  {{- end }}\n");
  replace_all(out, kFullname, "{{ .fullname }}");
  replace_all(out, kFailurePolicy, "{{ .failurePolicy }}");
  replace_all(out, kTimeout, "{{ .timeoutSeconds }}");
  replace_all(out, kNamespace, "{{ .namespace }}");
  return out;
}

}  // namespace

json::Array common_rules() {
  return json::Array{plugin::rbac_rule({""}, {"events"}, {"create", "patch"})};
}

std::string chart_templates() {
  // Every webhook leaves out the release's namespace (the placeholder becomes {{ .namespace }}).
  const WebhookEndpoint service = service_endpoint_leaving_out(std::string(kNamespace));
  std::string out;
  out += "{{- define \"capstan.rbac.common\" }}\n" + json::to_yaml(json::Value(common_rules())) + "{{- end }}\n";
  // Both templates exist for every controller (possibly empty), so the chart can include
  // them for each enabled one without knowing which have webhooks.
  const plugin::Registry controllers = all_controllers();  // outlives the loop
  for (const auto& p : controllers.all()) {
    json::Array rbac = p.rbac_rules();
    std::string rules = rbac.empty() ? "" : json::to_yaml(json::Value(std::move(rbac)));
    out += "{{- define \"capstan.rbac." + p.name() + "\" }}\n" + rules + "{{- end }}\n";
    std::string hooks;
    for (const auto& cfg : p.webhook_configurations(service)) hooks += "---\n" + json::to_yaml(templated(cfg));
    out += "{{- define \"capstan.webhooks." + p.name() + "\" }}\n" + with_client_configs(hooks) + "{{- end }}\n";
  }
  return out;
}

std::map<std::string, std::string> chart_crd_templates() {
  std::map<std::string, std::string> out;
  const plugin::Registry controllers = all_controllers();  // outlives the loop
  for (const auto& p : controllers.all()) {
    for (auto crd : p.crds(kServiceEndpoint)) {
      json::ensure_object(crd, {"metadata", "annotations"})["helm.sh/resource-policy"] = kKeep;
      std::string yaml;
      if (auto* cc = json::find(crd, {"spec", "conversion", "webhook", "clientConfig"})) {
        // A conversion webhook: the release's client config, and with webhook.managerCertificate
        // the manager's CA injected (the CRD is labelled so the manager lists it).
        std::string path(json::get_string(*cc, {"service", "path"}));
        json::ensure_object(crd, {"spec", "conversion", "webhook"})["clientConfig"] = std::string(kClientConfig) + path;
        json::ensure_object(crd, {"metadata", "labels"})[webhook::kInjectCaLabel] = kInjectLabel;
        yaml = client_config_includes(json::to_yaml(crd), "(include \"capstan.webhookHooks\" $ | fromJson)");
        replace_all(yaml, "    " + std::string(webhook::kInjectCaLabel) + ": " + std::string(kInjectLabel) + "\n",
                    "    {{- if .Values.webhook.managerCertificate }}\n    " + std::string(webhook::kInjectCaLabel) + ": \"true\"\n    {{- end }}\n");
        replace_all(yaml, "  annotations:\n    helm.sh/resource-policy: " + std::string(kKeep) + "\n",
                    "  {{- $injectFrom := (include \"capstan.webhookHooks\" $ | fromJson).injectFrom }}\n"
                    "  {{- if or .Values.crds.keep $injectFrom }}\n"
                    "  annotations:\n    {{- if .Values.crds.keep }}\n    helm.sh/resource-policy: keep\n    {{- end }}\n"
                    "    {{- with $injectFrom }}\n    " +
                        std::string(webhook::kInjectCaFromSecretAnnotation) + ": {{ . }}\n    {{- end }}\n  {{- end }}\n");
      } else {
        yaml = json::to_yaml(crd);
        replace_all(yaml, "  annotations:\n    helm.sh/resource-policy: " + std::string(kKeep) + "\n",
                    "  {{- if .Values.crds.keep }}\n  annotations:\n    helm.sh/resource-policy: keep\n  {{- end }}\n");
      }
      out[std::string(meta::name_of(crd))] =
          "{{- /* Generated by `capstan manifests`; do not edit. */}}\n"
          "{{- if and .Values.crds.enabled .Values.controllers." + p.name() + ".enabled }}\n" + yaml + "{{- end }}\n";
    }
  }
  return out;
}

std::string kustomize_webhook_cert_roles() {
  json::Array validating, mutating, crds;
  const plugin::Registry controllers = all_controllers();  // outlives the loop
  for (const auto& p : controllers.all()) {
    for (const auto& cfg : p.webhook_configurations(kServiceEndpoint))
      (json::get_string(cfg, {"kind"}) == "MutatingWebhookConfiguration" ? mutating : validating)
          .push_back(json::Value(json::get_string(cfg, {"metadata", "name"})));
    for (const auto& crd : p.crds(kReleaseEndpoint)) crds.push_back(json::Value(meta::name_of(crd)));
  }
  auto named = [](std::string_view group, std::string_view resource, json::Array names) {
    json::Object rule = plugin::rbac_rule({group}, {resource}, {"patch"});
    rule["resourceNames"] = std::move(names);
    return json::Value(std::move(rule));
  };
  json::Array cluster_rules{
      plugin::rbac_rule({"admissionregistration.k8s.io"}, {"validatingwebhookconfigurations", "mutatingwebhookconfigurations"}, {"get", "list"}),
      plugin::rbac_rule({"apiextensions.k8s.io"}, {"customresourcedefinitions"}, {"get", "list"})};
  if (!validating.empty()) cluster_rules.push_back(named("admissionregistration.k8s.io", "validatingwebhookconfigurations", validating));
  if (!mutating.empty()) cluster_rules.push_back(named("admissionregistration.k8s.io", "mutatingwebhookconfigurations", mutating));
  if (!crds.empty()) cluster_rules.push_back(named("apiextensions.k8s.io", "customresourcedefinitions", crds));
  json::Object secret_update = plugin::rbac_rule({""}, {"secrets"}, {"get", "update"});
  secret_update["resourceNames"] = json::Array{json::Value(kKustomizeWebhookSecret)};
  json::Value role = json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"},
                                {"kind", "Role"},
                                {"metadata", json::Object{{"name", "webhook-certs"}, {"namespace", "system"}}},
                                // create cannot be narrowed by name: the Secret does not exist yet.
                                {"rules", json::Array{plugin::rbac_rule({""}, {"secrets"}, {"create"}), std::move(secret_update)}}};
  json::Value cluster_role = json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"},
                                        {"kind", "ClusterRole"},
                                        {"metadata", json::Object{{"name", "webhook-certs"}}},
                                        {"rules", std::move(cluster_rules)}};
  return json::to_yaml(role) + "---\n" + json::to_yaml(cluster_role);
}

std::vector<json::Value> kustomize_crds() {
  std::vector<json::Value> out = all_controllers().crds(kServiceEndpoint);
  for (auto& crd : out)
    if (json::find(crd, {"spec", "conversion", "webhook", "clientConfig"})) {
      // The manager (--webhook-cert-secret) puts its CA into the conversion webhook's caBundle.
      json::ensure_object(crd, {"metadata", "labels"})[webhook::kInjectCaLabel] = "true";
      json::ensure_object(crd, {"metadata", "annotations"})[webhook::kInjectCaFromSecretAnnotation] =
          std::string(kKustomizeNamespace) + "/" + std::string(kKustomizeWebhookSecret);
    }
  return out;
}

std::string kustomize_webhooks() {
  // config/default's namespace is left out by every webhook.
  const WebhookEndpoint in_cluster = service_endpoint_leaving_out(std::string(kKustomizeNamespace));
  std::string hooks;
  const plugin::Registry controllers = all_controllers();  // outlives the loop
  for (const auto& p : controllers.all())
    for (auto cfg : p.webhook_configurations(in_cluster)) {
      auto& meta = json::ensure_object(cfg, {"metadata"});
      meta["name"] = unprefixed(json::get_string(meta, {"name"}));
      // The manager (--webhook-cert-secret) puts its CA into the caBundles.
      json::ensure_object(cfg, {"metadata", "annotations"})[std::string(webhook::kInjectCaFromSecretAnnotation)] =
          std::string(kKustomizeNamespace) + "/" + std::string(kKustomizeWebhookSecret);
      hooks += (hooks.empty() ? "" : "---\n") + json::to_yaml(cfg);
    }
  return hooks;
}

}  // namespace capstan::manager
