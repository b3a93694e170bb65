// apiregistration.k8s.io/v1 APIService as the aggregator reads it: which group-version it
// claims, and (unless it is Local) the Service that serves it and how its certificate is checked.
#pragma once

#include "apiserver/storage/store.h"
#include "runtime/json/json.h"

#include <optional>
#include <string>
#include <string_view>

namespace capstan::apiserver::aggregator {

// The store's group-resource of APIServices.
inline const std::string kApiServices = "apiservices.apiregistration.k8s.io";

struct ApiServiceBackend {
  std::string ns;
  std::string name;
  int port = 443;
};

struct ApiService {
  std::string name;     // "<version>.<group>"
  std::string group;
  std::string version;
  std::optional<ApiServiceBackend> service;  // unset: Local (served by this server itself)
  std::string ca_pem;                        // spec.caBundle decoded; "" with insecure_skip_tls_verify
  std::string ca_error;                      // spec.caBundle is not base64
  bool insecure_skip_tls_verify = false;
  std::int64_t group_priority_minimum = 0;
  std::int64_t version_priority = 0;
};

ApiService parse_api_service(const json::Value& obj);

// The APIService named "<version>.<group>", if any.
std::optional<ApiService> find_api_service(const storage::Store& store, std::string_view group, std::string_view version);

// Every stored APIService that names a Service (the aggregated ones), sorted by name.
std::vector<ApiService> aggregated_api_services(const storage::Store& store);

// Whether the stored object's Available condition is True.
bool is_available(const storage::Store& store, std::string_view name);

}  // namespace capstan::apiserver::aggregator
