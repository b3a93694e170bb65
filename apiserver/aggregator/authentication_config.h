// kube-system/extension-apiserver-authentication: the ConfigMap kube-apiserver publishes for
// aggregated API servers (k8s.io/apiserver's delegated authentication reads it): the client CA,
// and how the front proxy is trusted (its CA, allowed names, X-Remote-* header names).
#pragma once

#include "apiserver/rest/service.h"

#include <string>

namespace capstan::apiserver::aggregator {

inline constexpr std::string_view kAuthenticationConfigMap = "extension-apiserver-authentication";
inline constexpr std::string_view kFrontProxyClientName = "front-proxy-client";

// The ConfigMap's data.
json::Value authentication_config_data(const std::string& client_ca_pem, const std::string& requestheader_ca_pem);

// Creates or updates the ConfigMap (as the system user). Throws ApiError.
void publish_authentication_config(rest::Service& service, const std::string& client_ca_pem,
                                   const std::string& requestheader_ca_pem);

}  // namespace capstan::apiserver::aggregator
