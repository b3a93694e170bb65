// The pure half of a Bundle's reconcile: the certificates of its sources, deduplicated, and the
// ConfigMap and Secret written to each selected namespace (trust-manager's bundle targets).
#pragma once

#include "apis/trust/v1alpha1/bundle.h"
#include "runtime/json/json.h"
#include "runtime/pki/certificate.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::certificates::bundles {

namespace tv1 = apis::trust::v1alpha1;

// The PEM bundle is bounded so that it, its binary stores and the object fit in a ConfigMap.
inline constexpr std::size_t kMaxBundleBytes = 640 * 1024;
inline constexpr std::size_t kMaxCertificates = 4096;

// Why a Bundle cannot be built: a status reason (group.h reason::) and a message naming the source.
struct BundleError : std::runtime_error {
  BundleError(std::string_view reason, const std::string& message) : std::runtime_error(message), reason(reason) {}
  std::string reason;
};

// One source's text and where it came from ("spec.sources[1].configMap \"org-roots\" key \"roots.pem\"").
struct SourceText {
  std::string where;
  std::string pem;
};

struct Assembled {
  std::vector<pki::Certificate> certificates;  // in order of first appearance, each once
  std::string pem;
};

// Every source must hold at least one certificate and nothing but PEM certificates; throws
// BundleError (SourceInvalid, TargetTooLarge).
Assembled assemble(const std::vector<SourceText>& sources);

// What a target holds: the PEM bundle and, when asked for, the binary stores.
struct TargetData {
  std::string pem;
  std::optional<std::string> jks;
  std::optional<std::string> pkcs12;
};

// The server-side apply configuration of the ConfigMap (`secret` false: the stores in binaryData)
// or the Secret (type Opaque) of the Bundle's name in `ns`: labelled trust.capstan.dev/bundle,
// owned by the Bundle (`bundle_obj`: its metadata.uid), with the target's labels and annotations.
json::Value desired_target(const tv1::Bundle& bundle, const json::Value& bundle_obj, bool secret, std::string_view ns,
                           const TargetData& data);

// Whether the cached target `have` already holds `want`'s data and metadata (then nothing is written).
bool target_up_to_date(const json::Value& have, const json::Value& want);

// The bytes of `key` in a target (data, base64 for a Secret; binaryData for a ConfigMap), or nullopt.
std::optional<std::string> target_bytes(const json::Value& target, bool secret, std::string_view key);

}  // namespace capstan::certificates::bundles
