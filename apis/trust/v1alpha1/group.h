// The trust.capstan.dev/v1alpha1 API group: trust-manager's Bundle (trust.cert-manager.io/v1alpha1)
// under our group name, so a trust-manager manifest ports by changing its apiVersion. Served by
// the certificates plugin.
#pragma once

#include "runtime/meta/gvk.h"

#include <string_view>

namespace capstan::apis::trust::v1alpha1 {

inline const meta::ResourceType kBundleType{{"trust.capstan.dev", "v1alpha1", "bundles"}, "Bundle", false};

inline constexpr std::string_view kGroup = "trust.capstan.dev";
inline constexpr std::string_view kVersion = "v1alpha1";
inline constexpr std::string_view kApiVersion = "trust.capstan.dev/v1alpha1";
inline constexpr std::string_view kBundleKind = "Bundle";

// On every target ConfigMap and Secret: the Bundle it is a copy of.
inline constexpr std::string_view kBundleLabel = "trust.capstan.dev/bundle";

// The one condition (trust-manager's) and its reasons.
namespace condition {
inline constexpr std::string_view kSynced = "Synced";
}
namespace reason {
inline constexpr std::string_view kSynced = "Synced";
inline constexpr std::string_view kSourceNotFound = "SourceNotFound";
inline constexpr std::string_view kSourceInvalid = "SourceInvalid";
inline constexpr std::string_view kTargetTooLarge = "TargetTooLarge";
}  // namespace reason

}  // namespace capstan::apis::trust::v1alpha1
