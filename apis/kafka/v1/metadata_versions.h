// The KRaft metadata versions of the pinned Kafka release (kDefaultKafkaVersion) and their feature
// levels: what `spec.kafka.metadataVersion` names and what the cluster finalizes as the feature
// `metadata.version`. The table is Kafka 4.1.0's MetadataVersion enum (kafka-server-common), from
// 3.3-IV3 (the oldest a 4.x node formats) to 4.1-IV1 (its LATEST_PRODUCTION); the unstable
// 4.2-IV0/IV1 are left out, as a broker refuses them without unstable.feature.versions.enable.
// A new Kafka release adds its rows here.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace capstan::apis::kafka::v1 {

struct MetadataVersion {
  std::string_view name;  // "4.0-IV3"
  std::int16_t level;     // the feature level of metadata.version
};

inline constexpr std::array<MetadataVersion, 21> kMetadataVersions{{
    {"3.3-IV3", 7},  {"3.4-IV0", 8},  {"3.5-IV0", 9},  {"3.5-IV1", 10}, {"3.5-IV2", 11}, {"3.6-IV0", 12}, {"3.6-IV1", 13},
    {"3.6-IV2", 14}, {"3.7-IV0", 15}, {"3.7-IV1", 16}, {"3.7-IV2", 17}, {"3.7-IV3", 18}, {"3.7-IV4", 19}, {"3.8-IV0", 20},
    {"3.9-IV0", 21}, {"4.0-IV0", 22}, {"4.0-IV1", 23}, {"4.0-IV2", 24}, {"4.0-IV3", 25}, {"4.1-IV0", 26}, {"4.1-IV1", 27},
}};

// The feature level of `name`: a full name ("3.9-IV0"), or a release alone ("4.0"), which means
// its last version (4.0-IV3), as Kafka's MetadataVersion.fromVersionString reads it. nullopt for
// a name the pinned release does not know.
constexpr std::optional<std::int16_t> metadata_version_level(std::string_view name) {
  if (name.empty() || name.size() > 16) return std::nullopt;
  std::optional<std::int16_t> release_last;
  for (const auto& v : kMetadataVersions) {
    if (v.name == name) return v.level;
    if (v.name.size() > name.size() && v.name.substr(0, name.size()) == name && v.name[name.size()] == '-') release_last = v.level;
  }
  return release_last;
}

// The name of feature level `level` ("4.1-IV1"); nullopt for a level outside the table.
constexpr std::optional<std::string_view> metadata_version_name(std::int16_t level) {
  for (const auto& v : kMetadataVersions)
    if (v.level == level) return v.name;
  return std::nullopt;
}

// "3.3-IV3 to 4.1-IV1": the range a message can name.
inline constexpr std::string_view kMetadataVersionRange = "3.3-IV3 to 4.1-IV1";

// The Kafka releases a cluster may run (`spec.kafka.version`), Strimzi 0.48's (its
// kafka-versions.yaml): each has Strimzi's image, and the metadata version a cluster of it is
// formatted with and upgraded to when `spec.kafka.metadataVersion` is not set (the release's
// latest production version). The newest is kDefaultKafkaVersion.
struct KafkaRelease {
  std::string_view version;           // "4.0.0"
  std::string_view metadata_version;  // "4.0-IV3"
};
inline constexpr std::array<KafkaRelease, 2> kKafkaReleases{{{"4.0.0", "4.0-IV3"}, {"4.1.0", "4.1-IV1"}}};

// The release `version` names; nullptr for one Capstan does not run.
constexpr const KafkaRelease* kafka_release(std::string_view version) {
  for (const auto& r : kKafkaReleases)
    if (r.version == version) return &r;
  return nullptr;
}

}  // namespace capstan::apis::kafka::v1
