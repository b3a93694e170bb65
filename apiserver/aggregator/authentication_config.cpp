#include "apiserver/aggregator/authentication_config.h"

#include "apiserver/rest/api_error.h"
#include "apiserver/system/service_writes.h"

namespace capstan::apiserver::aggregator {

json::Value authentication_config_data(const std::string& client_ca_pem, const std::string& requestheader_ca_pem) {
  return json::Object{{"client-ca-file", client_ca_pem},
                      {"requestheader-client-ca-file", requestheader_ca_pem},
                      {"requestheader-allowed-names", R"(["front-proxy-client"])"},
                      {"requestheader-username-headers", R"(["X-Remote-User"])"},
                      {"requestheader-group-headers", R"(["X-Remote-Group"])"},
                      {"requestheader-extra-headers-prefix", R"(["X-Remote-Extra-"])"}};
}

void publish_authentication_config(rest::Service& service, const std::string& client_ca_pem,
                                   const std::string& requestheader_ca_pem) {
  auto cms = service.registry().find_group_resource("configmaps");
  if (!cms) return;
  const json::Value data = authentication_config_data(client_ca_pem, requestheader_ca_pem);
  const std::string ns = "kube-system", name(kAuthenticationConfigMap);
  if (!service.store().get("configmaps", ns, name)) {
    rest::WriteOptions o;
    o.field_manager = "kube-apiserver";
    json::Value cm = json::Object{{"apiVersion", "v1"},
                                  {"kind", "ConfigMap"},
                                  {"metadata", json::Object{{"name", name}}},
                                  {"data", data}};
    try {
      service.create(rest::Target{cms, cms->storage_version().name, ns, "", ""}, std::move(cm), o);
      return;
    } catch (const ApiError& e) {
      if (e.code != 409) throw;  // created meanwhile: updated below
    }
  }
  system::update_object(service, cms, ns, name, "", "kube-apiserver", [&](json::Value& cm) {
    const json::Value* current = json::find(cm, {"data"});
    if (current && *current == data) return false;
    cm.as_object()["data"] = data;
    return true;
  });
}

}  // namespace capstan::apiserver::aggregator
