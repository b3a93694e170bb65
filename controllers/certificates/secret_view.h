// A Secret as the controllers look at it: name, type, labels, annotations and decoded data.
#pragma once

#include "runtime/json/json.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::certificates {

struct SecretView {
  std::string ns;
  std::string name;
  std::string type;
  std::string uid;
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
  std::map<std::string, std::string> data;  // base64-decoded

  // Undecodable data entries are kept empty (the policies then report MissingData).
  static SecretView from_json(const json::Value& secret);
  // The entry or "" when absent.
  const std::string& get(std::string_view key) const;
  bool has_label(std::string_view key, std::string_view value) const;
};

// Secret data keys (corev1.TLSCertKey, TLSPrivateKeyKey, cmmeta.TLSCAKey).
inline constexpr std::string_view kTlsCrt = "tls.crt";
inline constexpr std::string_view kTlsKey = "tls.key";
inline constexpr std::string_view kCaCrt = "ca.crt";
// additionalOutputFormats (cert-manager's pkg/apis/certmanager/v1 keys).
inline constexpr std::string_view kKeyDer = "key.der";
inline constexpr std::string_view kCombinedPem = "tls-combined.pem";
// keystores (cert-manager's pkg/apis/certmanager/v1 keys).
inline constexpr std::string_view kKeystoreJks = "keystore.jks";
inline constexpr std::string_view kTruststoreJks = "truststore.jks";
inline constexpr std::string_view kKeystoreP12 = "keystore.p12";
inline constexpr std::string_view kTruststoreP12 = "truststore.p12";
inline constexpr std::string_view kTlsSecretType = "kubernetes.io/tls";

}  // namespace capstan::certificates
