#include "apis/gitops/v1/schema_common.h"

namespace capstan::apis::gitops::v1 {

// Flux's pattern for metav1.Duration fields.
constexpr std::string_view kDurationPattern = R"(^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$)";

openapi::Schema duration(std::string_view description) {
  return std::move(openapi::Schema::string(description).pattern(kDurationPattern).max_length(64));
}

openapi::Schema reconcile_request_status() {
  return openapi::Schema::string("The last value of the reconcile.gitops.capstan.dev/requestedAt annotation that was handled.");
}

}  // namespace capstan::apis::gitops::v1
