#include "apiserver/system/root_ca_publisher.h"

#include "apiserver/system/service_writes.h"
#include "runtime/meta/object.h"

namespace capstan::apiserver::system {
namespace {

const std::string kNamespaces = "namespaces";
const std::string kConfigMaps = "configmaps";
constexpr std::string_view kDescriptionAnnotation = "kubernetes.io/description";
constexpr std::string_view kDescription =
    "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal "
    "service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

// The namespace to publish into: each one that is not being deleted, and the one whose
// ConfigMap changed or went away.
std::vector<Key> namespaces_to_publish(const storage::Event& e) {
  if (!e.object) return {};
  const json::Value& obj = *e.object.value;
  if (e.resource == kNamespaces) {
    if (e.type == storage::EventType::Deleted) return {};
    return {Key{kNamespaces, "", std::string(meta::name_of(obj))}};
  }
  if (meta::name_of(obj) != kRootCaConfigMap) return {};
  return {Key{kNamespaces, "", std::string(meta::namespace_of(obj))}};
}

}  // namespace

RootCaPublisher::RootCaPublisher(rest::Service& service, std::string ca_pem)
    : service_(service),
      ca_pem_(std::move(ca_pem)),
      log_({{"controller", "root-ca-cert-publisher"}}),
      loop_("root-ca-cert-publisher", service.store(), [this](const Key& k) { return publish(k.name); }) {}

void RootCaPublisher::start() {
  loop_.watch(kNamespaces, namespaces_to_publish);
  loop_.watch(kConfigMaps, namespaces_to_publish);
  loop_.start();
}

std::chrono::milliseconds RootCaPublisher::publish(const std::string& ns) {
  auto cms = service_.registry().find_group_resource(kConfigMaps);
  if (!cms) return {};
  const json::Value data = json::Object{{"ca.crt", ca_pem_}};
  auto current = service_.store().get(kConfigMaps, ns, kRootCaConfigMap);
  if (!current) {
    if (!service_.store().get(kNamespaces, "", ns)) return {};
    rest::WriteOptions o;
    o.field_manager = std::string(kControllerManager);
    o.user = rest::User::system();
    json::Value cm = json::Object{
        {"apiVersion", "v1"},
        {"kind", "ConfigMap"},
        {"metadata", json::Object{{"name", kRootCaConfigMap}, {"annotations", json::Object{{kDescriptionAnnotation, kDescription}}}}},
        {"data", data}};
    try {
      service_.create(rest::Target{cms, cms->storage_version().name, ns, "", ""}, std::move(cm), o);
      log_.debug("created ConfigMap", {{"configMap", object_ref(ns, kRootCaConfigMap)}});
    } catch (const ApiError& e) {
      // 409: created meanwhile (its events bring it back here); 403: the namespace is
      // terminating; 404: it is gone. Upstream does not retry these either.
      if (e.code == 409 || e.code == 403 || e.code == 404) return {};
      throw;
    }
    return {};
  }
  update_object(service_, cms, ns, kRootCaConfigMap, "", kControllerManager, [&](json::Value& cm) {
    bool data_ok = json::find(cm, {"data"}) && *json::find(cm, {"data"}) == data;
    if (data_ok && !meta::annotation(cm, kDescriptionAnnotation).empty()) return false;
    cm.as_object()["data"] = data;
    json::ensure_object(cm, {"metadata", "annotations"})[kDescriptionAnnotation] = kDescription;
    return true;
  });
  return {};
}

}  // namespace capstan::apiserver::system
