// Conventional webhook paths, as controller-runtime's builder generates them.
#pragma once

#include "runtime/meta/gvk.h"

#include <string>
#include <string_view>

namespace capstan::webhook {

// "/mutate-<group with . replaced by ->-<version>-<lowercase kind>", e.g.
// "/mutate-certs-capstan-dev-v1-certificate"; the core group gives "/mutate--v1-configmap".
std::string mutate_path(const meta::GroupVersionKind& gvk);
// "/validate-<group>-<version>-<kind>" likewise.
std::string validate_path(const meta::GroupVersionKind& gvk);
// Where conversion webhooks are served: controller-runtime's one path, and one per API group
// ("/convert-kafka-capstan-dev") when each group has a converter of its own.
inline constexpr std::string_view kConvertPath = "/convert";
std::string convert_path(std::string_view group);

// controller-runtime's path check: ^((/[a-zA-Z0-9-_]+)+|/)$
bool is_valid_path(std::string_view path);

}  // namespace capstan::webhook
