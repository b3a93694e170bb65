#include "apiserver/aggregator/apiservice.h"

#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"

#include <algorithm>

namespace capstan::apiserver::aggregator {

ApiService parse_api_service(const json::Value& obj) {
  ApiService a;
  a.name = std::string(json::get_string(obj, {"metadata", "name"}));
  a.group = std::string(json::get_string(obj, {"spec", "group"}));
  a.version = std::string(json::get_string(obj, {"spec", "version"}));
  if (const auto* svc = json::find(obj, {"spec", "service"}); svc && svc->is_object()) {
    ApiServiceBackend b;
    b.ns = std::string(json::get_string(*svc, {"namespace"}));
    b.name = std::string(json::get_string(*svc, {"name"}));
    b.port = static_cast<int>(json::get_int(*svc, {"port"}).value_or(443));
    a.service = std::move(b);
  }
  if (auto v = json::find(obj, {"spec", "insecureSkipTLSVerify"}); v && v->is_bool()) a.insecure_skip_tls_verify = v->get_bool();
  std::string_view bundle = json::get_string(obj, {"spec", "caBundle"});
  if (!bundle.empty()) {
    if (auto pem = meta::base64_decode(bundle)) a.ca_pem = std::move(*pem);
    else a.ca_error = "APIService " + a.name + ": spec.caBundle is not valid base64";
  }
  a.group_priority_minimum = json::get_int(obj, {"spec", "groupPriorityMinimum"}).value_or(0);
  a.version_priority = json::get_int(obj, {"spec", "versionPriority"}).value_or(0);
  return a;
}

std::optional<ApiService> find_api_service(const storage::Store& store, std::string_view group, std::string_view version) {
  if (group.empty() || version.empty()) return std::nullopt;
  auto obj = store.get(kApiServices, "", std::string(version) + "." + std::string(group));
  if (!obj) return std::nullopt;
  return parse_api_service(*obj);
}

std::vector<ApiService> aggregated_api_services(const storage::Store& store) {
  std::vector<ApiService> out;
  const auto page = store.list(kApiServices, "", "", 0);
  for (const auto& o : page.items) {
    auto a = parse_api_service(*o);
    if (a.service) out.push_back(std::move(a));
  }
  std::sort(out.begin(), out.end(), [](const ApiService& x, const ApiService& y) { return x.name < y.name; });
  return out;
}

bool is_available(const storage::Store& store, std::string_view name) {
  auto obj = store.get(kApiServices, "", name);
  return obj && meta::condition_true(*obj, "Available");
}

}  // namespace capstan::apiserver::aggregator
