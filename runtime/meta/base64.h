// Base64 as Kubernetes uses it: standard alphabet with padding (Secret data, kubeconfig
// *-data fields, caBundle) and the URL-safe unpadded form (JWTs, continue tokens).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace capstan::meta {

std::string base64_encode(std::string_view data);
std::string base64url_encode(std::string_view data);  // no padding
// Decodes the standard alphabet; whitespace is ignored and padding may be omitted. Returns
// nullopt on any other character or a truncated group.
std::optional<std::string> base64_decode(std::string_view text);
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace capstan::meta
