// A node's data volumes as Strimzi lays them out: a single volume "data" at /var/lib/kafka/data
// (claim data-<pod>), or JBOD volumes "data-<id>" at /var/lib/kafka/data-<id> (claims
// data-<id>-<pod>), each holding the log directory kafka-log<node id>. The KRaft metadata log is
// on the volume marked kraftMetadata: shared, else on the JBOD volume of the lowest id.
#pragma once

#include "apis/kafka/v1/types.h"

#include <optional>
#include <string>
#include <vector>

namespace capstan::kafka {

struct DataVolume {
  std::optional<std::int32_t> id;  // a JBOD volume's
  apis::kafka::v1::StorageVolume spec;
  bool kraft_metadata = false;
  std::string field;  // its KafkaNodePool field: "spec.storage" | "spec.storage.volumes[<i>]"

  bool persistent() const { return spec.type == "persistent-claim"; }
  // "data" | "data-<id>": the pod's volume.
  std::string name() const;
  // "/var/lib/kafka/data" | "/var/lib/kafka/data-<id>".
  std::string mount_path() const;
  // "data-<pod>" | "data-<id>-<pod>".
  std::string claim_name(std::string_view pod) const;
  // "<mount>/kafka-log<node id>".
  std::string log_dir(std::int32_t node_id) const;
};

// The volumes of `storage`, in id order for JBOD.
std::vector<DataVolume> data_volumes(const apis::kafka::v1::Storage& storage);

// Kafka's log.dirs and metadata.log.dir lines for node `node_id` on `volumes`.
std::string log_dirs_config(const std::vector<DataVolume>& volumes, std::int32_t node_id);

}  // namespace capstan::kafka
