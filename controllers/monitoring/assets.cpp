#include "controllers/monitoring/assets.h"

#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/core_types.h"

#include <stdexcept>

namespace capstan::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;

void tls_refs(std::string_view ns, const std::optional<v1::SafeTLSConfig>& tls, std::vector<AssetRef>& out) {
  if (!tls) return;
  if (tls->ca) out.push_back(asset(ns, *tls->ca));
  if (tls->cert) out.push_back(asset(ns, *tls->cert));
  if (tls->key_secret) out.push_back(asset(ns, *tls->key_secret));
}

void credential_refs(std::string_view ns, const v1::HttpCredentials& c, const std::optional<v1::SafeTLSConfig>& tls,
                     std::vector<AssetRef>& out) {
  if (c.basic_auth) {
    if (c.basic_auth->username) out.push_back(asset(ns, *c.basic_auth->username));
    if (c.basic_auth->password) out.push_back(asset(ns, *c.basic_auth->password));
  }
  if (c.authorization && c.authorization->credentials) out.push_back(asset(ns, *c.authorization->credentials));
  if (c.bearer_token_secret) out.push_back(asset(ns, *c.bearer_token_secret));
  if (c.oauth2) {
    out.push_back(asset(ns, c.oauth2->client_id));
    out.push_back(asset(ns, c.oauth2->client_secret));
  }
  tls_refs(ns, tls, out);
}

template <class Monitor, class Endpoints>
std::vector<AssetRef> endpoint_refs(const Monitor& m, const Endpoints& endpoints) {
  std::vector<AssetRef> out;
  for (const auto& ep : endpoints) credential_refs(m.namespace_(), ep, ep.tls_config, out);
  return out;
}

}  // namespace

std::string AssetRef::file() const { return std::string(secret ? "secret_" : "configmap_") + ns + "_" + name + "_" + key; }
std::string AssetRef::path() const { return std::string(kAssetsDir) + "/" + file(); }
std::string AssetRef::describe() const { return std::string(secret ? "Secret " : "ConfigMap ") + ns + "/" + name + " key " + key; }

AssetRef asset(std::string_view ns, const v1::SecretKeySelector& ref) { return {true, std::string(ns), ref.name, ref.key, ref.optional}; }

AssetRef asset(std::string_view ns, const v1::SecretOrConfigMap& ref) {
  if (ref.config_map) return {false, std::string(ns), ref.config_map->name, ref.config_map->key, ref.config_map->optional};
  if (ref.secret) return asset(ns, *ref.secret);
  return {true, std::string(ns), "", "", true};  // neither: the webhook refuses it; nothing is read
}

std::vector<AssetRef> asset_refs(const v1::ServiceMonitor& sm) { return endpoint_refs(sm, sm.spec.endpoints); }
std::vector<AssetRef> asset_refs(const v1::PodMonitor& pm) { return endpoint_refs(pm, pm.spec.pod_metrics_endpoints); }

std::vector<AssetRef> asset_refs(const v1::Probe& probe) {
  std::vector<AssetRef> out;
  credential_refs(probe.namespace_(), probe.spec, probe.spec.tls_config, out);
  return out;
}

std::vector<AssetRef> asset_refs(const v1::ScrapeConfig& sc) {
  std::vector<AssetRef> out;
  credential_refs(sc.namespace_(), sc.spec, sc.spec.tls_config, out);
  for (const auto& sd : sc.spec.http_sd_configs) credential_refs(sc.namespace_(), sd, sd.tls_config, out);
  return out;
}

std::vector<AssetRef> asset_refs(const v1::AlertmanagerConfig& config) {
  std::vector<AssetRef> out;
  auto add = [&](const std::optional<v1::SecretKeySelector>& ref) {
    if (!ref) return;
    AssetRef a = asset(config.namespace_(), *ref);
    a.optional = false;  // a receiver cannot be sent to without it
    out.push_back(std::move(a));
  };
  for (const auto& r : config.spec.receivers) {
    for (const auto& w : r.webhook_configs) add(w.url_secret);
    for (const auto& s : r.slack_configs) add(s.api_url);
    for (const auto& p : r.pagerduty_configs) {
      add(p.routing_key);
      add(p.service_key);
    }
    for (const auto& g : r.opsgenie_configs) add(g.api_key);
    for (const auto& e : r.email_configs) {
      add(e.auth_password);
      add(e.auth_secret);
    }
  }
  return out;
}

std::optional<std::string> AssetReader::read(const AssetRef& ref) {
  if (ref.name.empty() || ref.key.empty()) return std::nullopt;
  const auto& type = ref.secret ? meta::core::kSecretType : meta::core::kConfigMapType;
  const std::string id = std::string(ref.secret ? "secret/" : "configmap/") + ref.ns + "/" + ref.name;
  auto it = objects_.find(id);
  if (it == objects_.end()) {
    std::optional<json::Value> obj;
    try {
      obj = client_.get(type.gvr, ref.ns, ref.name);
    } catch (const client::ApiError& e) {
      if (e.code() != 404) throw;
    }
    it = objects_.emplace(id, std::move(obj)).first;
  }
  const std::string kind = ref.secret ? "Secret " : "ConfigMap ";
  if (!it->second) {
    if (ref.optional) return std::nullopt;
    throw std::runtime_error(kind + ref.ns + "/" + ref.name + " not found");
  }
  const json::Value* data = json::find(*it->second, {"data", ref.key});
  if (!data || !data->is_string()) {
    if (ref.optional) return std::nullopt;
    throw std::runtime_error(kind + ref.ns + "/" + ref.name + " has no key " + ref.key);
  }
  if (!ref.secret) return std::string(data->get_string());
  auto value = meta::base64_decode(data->get_string());
  if (!value) throw std::runtime_error(ref.describe() + ": not base64");
  return value;
}

std::vector<std::string> AssetReader::read_ids() const {
  std::vector<std::string> out;
  out.reserve(objects_.size());
  for (const auto& [id, obj] : objects_) out.push_back(id);
  return out;
}

void read_assets(AssetReader& reader, const std::vector<AssetRef>& refs, Assets& assets) {
  for (const auto& ref : refs)
    if (auto value = reader.read(ref)) assets[ref.file()] = std::move(*value);
}

}  // namespace capstan::monitoring
