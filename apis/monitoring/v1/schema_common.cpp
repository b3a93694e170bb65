#include "apis/monitoring/v1/schema_common.h"

#include "apis/monitoring/v1/types.h"

namespace capstan::apis::monitoring::v1 {

constexpr std::string_view kDurationPattern = R"(^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$)";

openapi::Schema duration(std::string_view description) {
  return std::move(openapi::Schema::string(description).pattern(kDurationPattern).max_length(64));
}

openapi::Schema relabelings(std::string_view description) {
  return std::move(openapi::Schema::array(RelabelConfig::schema(), description).max_items(256));
}

}  // namespace capstan::apis::monitoring::v1
