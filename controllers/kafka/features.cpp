#include "controllers/kafka/features.h"

#include "controllers/kafka/cluster_admin.h"
#include "controllers/kafka/wire.h"

namespace capstan::kafka::wire {
namespace {

// The response's tagged field of the finalized features (ApiVersionsResponse.json: 0 supported
// features, 1 the finalized features' epoch, 2 the finalized features, 3 ZK migration ready).
constexpr std::uint32_t kFinalizedFeaturesTag = 2;
constexpr std::int8_t kUpgrade = 1;  // FeatureUpdate.UpgradeType.UPGRADE

// The finalized features' array (name, max version level, min version level, tags): `feature`'s
// max level.
std::optional<std::int16_t> finalized_level(std::string_view data, std::string_view feature) {
  Reader r(data);
  std::optional<std::int16_t> out;
  for (std::size_t i = 0, n = r.compact_array_size(); i < n; ++i) {
    const std::string name = r.compact_string();
    const std::int16_t max_level = r.int16();
    r.int16();  // min version level
    r.skip_tags();
    if (name == feature) out = max_level;
  }
  return out;
}

}  // namespace

std::string api_versions_request() {
  Writer w;
  w.compact_string("capstan").compact_string("1").no_tags();
  return w.bytes();
}

std::optional<std::int16_t> parse_finalized_feature(std::string_view body, std::string_view feature, const std::string& what) {
  Reader r(body);
  // An unsupported version is answered in v0's shape (the error first, then v0's fields): the
  // error is all that is read of it.
  throw_if_error(r.int16(), std::nullopt, what);
  for (std::size_t i = 0, n = r.compact_array_size(); i < n; ++i) {
    r.int16();  // api key
    r.int16();  // min version
    r.int16();  // max version
    r.skip_tags();
  }
  r.int32();  // throttle time
  std::optional<std::int16_t> out;
  const std::uint32_t tags = r.uvarint();
  for (std::uint32_t i = 0; i < tags; ++i) {
    const std::uint32_t tag = r.uvarint();
    const std::string_view field = r.bytes(r.uvarint());
    if (tag == kFinalizedFeaturesTag) out = finalized_level(field, feature);
  }
  return out;
}

std::string upgrade_feature_request(std::string_view feature, std::int16_t level, std::int32_t timeout_ms) {
  Writer w;
  w.int32(timeout_ms);
  w.compact_array_size(1).compact_string(feature).int16(level).int8(kUpgrade).no_tags();
  w.boolean(false);  // validate only
  w.no_tags();
  return w.bytes();
}

void check_update_features_response(std::string_view body, const std::string& what) {
  Reader r(body);
  r.int32();  // throttle time
  const std::int16_t error = r.int16();
  throw_if_error(error, r.compact_nullable_string(), what);
  for (std::size_t i = 0, n = r.compact_array_size(); i < n; ++i) {
    const std::string feature = r.compact_string();
    const std::int16_t feature_error = r.int16();
    auto message = r.compact_nullable_string();
    r.skip_tags();
    throw_if_error(feature_error, message, what + " (" + feature + ")");
  }
}

}  // namespace capstan::kafka::wire
