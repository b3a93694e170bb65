// WebhookClientConfig (admissionregistration.k8s.io/v1 and apiextensions.k8s.io/v1 share it):
// where to POST a review and which CA verifies the webhook's serving certificate.
#pragma once

#include "runtime/json/json.h"

#include <optional>
#include <string>

namespace capstan::apiserver::admission {

struct ServiceReference {
  std::string ns;
  std::string name;
  std::string path;  // "" = "/"
  int port = 443;
};

struct ClientConfig {
  std::string url;                         // clientConfig.url
  std::optional<ServiceReference> service; // clientConfig.service
  std::string ca_pem;                      // clientConfig.caBundle, base64-decoded (PEM); "" = system roots
  std::string ca_error;                    // set when caBundle is not valid base64
};

// Reads a clientConfig object (null or absent members get the API defaults).
ClientConfig parse_client_config(const json::Value* client_config);

}  // namespace capstan::apiserver::admission
