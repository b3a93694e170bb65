// The cluster's finalized KRaft metadata version, read and upgraded through requests of our own
// (librdkafka 2.0 has neither DescribeFeatures nor UpdateFeatures, both of 2.x later or never):
// ApiVersions v3, whose response carries the finalized features in its tagged field 2 (what
// Kafka's Admin.describeFeatures reads), and UpdateFeatures v1 with upgrade type "upgrade".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::kafka::wire {

inline constexpr std::int16_t kUpdateFeatures = 57;
// The feature whose level is the KRaft metadata version.
inline constexpr std::string_view kMetadataVersionFeature = "metadata.version";

// ApiVersions v3: the client's software name and version (KIP-511; the broker checks their
// characters).
std::string api_versions_request();
// The finalized level of `feature` (its max version level) in an ApiVersions v3+ response body;
// nullopt when the broker reports no finalized level for it. Throws AdminError on an error code.
std::optional<std::int16_t> parse_finalized_feature(std::string_view body, std::string_view feature, const std::string& what);

// UpdateFeatures v1: `feature` to `level`, upgrade only (never a downgrade), the controller given
// `timeout_ms` to apply it.
std::string upgrade_feature_request(std::string_view feature, std::int16_t level, std::int32_t timeout_ms);
// Throws AdminError on the response's top-level or the feature's error.
void check_update_features_response(std::string_view body, const std::string& what);

}  // namespace capstan::kafka::wire
