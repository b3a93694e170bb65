// The metadata version requests' encoding: ApiVersions v3 (the finalized features in its tagged
// field 2) and UpdateFeatures v1 (an upgrade of metadata.version).
#include "controllers/kafka/cluster_admin.h"
#include "controllers/kafka/features.h"
#include "controllers/kafka/tests/hex.h"
#include "controllers/kafka/wire.h"

#include <gtest/gtest.h>

namespace capstan::kafka {
namespace {

using testing::hex;

TEST(KafkaFeatures, RequestsNameTheClientAndUpgradeMetadataVersionOnly) {
  EXPECT_EQ(hex(wire::api_versions_request()),
            "08" "6361707374616e"  // client software name "capstan"
            "02" "31"              // its version "1"
            "00");
  EXPECT_EQ(hex(wire::upgrade_feature_request("metadata.version", 27, 30000)),
            "00007530"                                     // the controller's timeout: 30000 ms
            "02"                                           // one update
            "11" "6d657461646174612e76657273696f6e"        // "metadata.version"
            "001b"                                         // to level 27 (4.1-IV1)
            "01"                                           // upgrade type: upgrade (never a downgrade)
            "00"
            "00"                                           // not validate-only
            "00");
}

// An ApiVersions v3 body: one API key, then the tagged fields given (tag -> value).
std::string api_versions_response(std::int16_t error, const std::vector<std::pair<std::uint32_t, std::string>>& tags) {
  wire::Writer w;
  w.int16(error).compact_array_size(1).int16(57).int16(0).int16(2).no_tags();
  w.int32(0);  // throttle time
  w.uvarint(static_cast<std::uint32_t>(tags.size()));
  std::string out = w.bytes();
  for (const auto& [tag, value] : tags) {
    wire::Writer t;
    t.uvarint(tag).uvarint(static_cast<std::uint32_t>(value.size()));
    out += t.bytes() + value;
  }
  return out;
}

TEST(KafkaFeatures, TheFinalizedMetadataVersionIsReadFromItsTaggedFieldAlone) {
  wire::Writer supported;  // tag 0: the broker supports metadata.version 7..29
  supported.compact_array_size(1).compact_string("metadata.version").int16(7).int16(29).no_tags();
  wire::Writer epoch;  // tag 1: the finalized features' epoch (INT64)
  epoch.int32(0).int32(42);
  wire::Writer finalized;  // tag 2: name, max level, min level
  finalized.compact_array_size(2);
  finalized.compact_string("kraft.version").int16(1).int16(1).no_tags();
  finalized.compact_string("metadata.version").int16(21).int16(21).no_tags();
  const std::string body = api_versions_response(0, {{0, supported.bytes()}, {1, epoch.bytes()}, {2, finalized.bytes()}, {3, std::string(1, '\0')}});
  EXPECT_EQ(wire::parse_finalized_feature(body, wire::kMetadataVersionFeature, "reading"), 21);
  EXPECT_EQ(wire::parse_finalized_feature(body, "kraft.version", "reading"), 1);
  EXPECT_EQ(wire::parse_finalized_feature(body, "group.version", "reading"), std::nullopt);

  // Supported but not finalized: no level.
  EXPECT_EQ(wire::parse_finalized_feature(api_versions_response(0, {{0, supported.bytes()}}), wire::kMetadataVersionFeature, "reading"),
            std::nullopt);

  try {
    wire::parse_finalized_feature(api_versions_response(35, {}), wire::kMetadataVersionFeature, "reading");
    FAIL() << "UNSUPPORTED_VERSION was not raised";
  } catch (const AdminError& e) {
    EXPECT_EQ(e.code(), "UNSUPPORTED_VERSION");
  }
  // A tagged field longer than the body is a malformed answer, not a read past it.
  std::string cut = api_versions_response(0, {{2, finalized.bytes()}});
  cut.resize(cut.size() - 3);
  EXPECT_THROW(wire::parse_finalized_feature(cut, wire::kMetadataVersionFeature, "reading"), AdminError);
}

TEST(KafkaFeatures, AnUpdateRefusedForTheFeatureIsRaised) {
  wire::Writer ok;
  ok.int32(0).int16(0).compact_nullable_string(std::nullopt);
  ok.compact_array_size(1).compact_string("metadata.version").int16(0).compact_nullable_string(std::nullopt).no_tags();
  ok.no_tags();
  EXPECT_NO_THROW(wire::check_update_features_response(ok.bytes(), "upgrading"));

  wire::Writer refused;
  refused.int32(0).int16(0).compact_nullable_string(std::nullopt);
  refused.compact_array_size(1).compact_string("metadata.version").int16(95).compact_string("cannot downgrade").no_tags();
  refused.no_tags();
  try {
    wire::check_update_features_response(refused.bytes(), "upgrading");
    FAIL() << "the feature's error was not raised";
  } catch (const AdminError& e) {
    EXPECT_EQ(e.code(), "INVALID_UPDATE_VERSION");
    EXPECT_NE(std::string(e.what()).find("cannot downgrade"), std::string::npos) << e.what();
  }

  wire::Writer denied;  // a top-level error, no results
  denied.int32(0).int16(31).compact_string("no").compact_array_size(0).no_tags();
  EXPECT_THROW(wire::check_update_features_response(denied.bytes(), "upgrading"), AdminError);
}

}  // namespace
}  // namespace capstan::kafka
