// The fields of KafkaNodePool: Strimzi's names, enums and minimums, limited to what Capstan
// implements.
#include "apis/kafka/v1/crds.h"
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"

#include <algorithm>

namespace capstan::apis::kafka::v1 {
namespace {

using codec::field;
using openapi::Schema;

// The members of a single volume, shared by Storage and its JBOD volumes.
template <class S>
auto volume_fields() {
  using V = StorageVolume;
  return std::make_tuple(
      field<S>("id", &V::id,
               Schema::integer("The volume's id (required in JBOD): its mount /var/lib/kafka/data-<id> and claims data-<id>-<pod>.", "int32")
                   .range(0, kMaxVolumeId)),
      field<S>("size", &V::size, Schema::string("Size of each claim (persistent-claim), e.g. 100Gi.").max_length(64)),
      field<S>("sizeLimit", &V::size_limit, Schema::string("Size limit of the emptyDir (ephemeral).").max_length(64)),
      field<S>("class", &V::storage_class, openapi::object_name("StorageClass of the claims.")),
      field<S>("deleteClaim", &V::delete_claim, Schema::boolean("Delete the claims when the nodes are removed.")),
      field<S>("kraftMetadata", &V::kraft_metadata,
               Schema::string_enum({"shared"}, "shared: the volume also holds the KRaft metadata log (default: the JBOD volume of the lowest id).")));
}

const auto& volume_table() {
  static const auto table = codec::table<StorageVolume>(
      "A JBOD volume.",
      std::tuple_cat(std::make_tuple(field("type", &StorageVolume::type,
                                           Schema::string_enum({"ephemeral", "persistent-claim"}, "ephemeral (emptyDir) or persistent-claim."))
                                         .required()),
                     volume_fields<StorageVolume>()));
  return table;
}

const auto& storage_fields() {
  static const auto table = codec::table<Storage>(
      "Storage of the nodes.",
      std::tuple_cat(std::make_tuple(field<Storage>("type", &StorageVolume::type,
                                                    Schema::string_enum({"ephemeral", "persistent-claim", "jbod"},
                                                                        "ephemeral (emptyDir), persistent-claim or jbod (volumes)."))
                                         .required()),
                     volume_fields<Storage>(),
                     std::make_tuple(field("volumes", &Storage::volumes,
                                           Schema::array(StorageVolume::schema(), "The volumes of JBOD storage, one log directory each.")
                                               .max_items(kMaxJbodVolumes)))));
  return table;
}

const auto& spec_fields() {
  static const auto table = codec::table<KafkaNodePoolSpec>(
      "A set of Kafka nodes with the same roles and storage.",
      field("replicas", &KafkaNodePoolSpec::replicas, Schema::integer("Number of nodes (at most 1000).", "int32").range(0, kMaxNodes))
          .required(),
      field("roles", &KafkaNodePoolSpec::roles,
            Schema::array(Schema::string_enum({role::kController, role::kBroker}, "A KRaft role."), "Roles of the nodes.")
                .min_items(1)
                .max_items(2)
                .list_type("set"))
          .required(),
      field("storage", &KafkaNodePoolSpec::storage, Storage::schema()).required(),
      field("resources", &KafkaNodePoolSpec::resources,
            Schema::open_object("Resource requests and limits of the Kafka container.").max_properties(8)));
  return table;
}

const auto& status_fields() {
  static const auto table = codec::table<KafkaNodePoolStatus>(
      "The observed state of the pool.",
      field("conditions", &KafkaNodePoolStatus::conditions,
            openapi::conditions("Conditions: Ready, NotReady, Warning, ReconciliationPaused.",
                                "Ready, NotReady, Warning, ReconciliationPaused", true)),
      field("observedGeneration", &KafkaNodePoolStatus::observed_generation, openapi::observed_generation()),
      field("nodeIds", &KafkaNodePoolStatus::node_ids, Schema::array(Schema::integer("A node ID.", "int32"), "Node IDs of the pool's nodes.")),
      field("clusterId", &KafkaNodePoolStatus::cluster_id, Schema::string("The KRaft cluster ID.")),
      field("roles", &KafkaNodePoolStatus::roles, Schema::strings("Roles of the nodes.")),
      field("replicas", &KafkaNodePoolStatus::replicas, Schema::integer("Nodes in the pool.", "int32")),
      field("labelSelector", &KafkaNodePoolStatus::label_selector, Schema::string("Label selector of the pool's pods.")));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(StorageVolume, volume_table)
CAPSTAN_CODEC_FROM(Storage, storage_fields)
CAPSTAN_CODEC_FROM(KafkaNodePoolSpec, spec_fields)
CAPSTAN_CODEC_FROM(KafkaNodePoolStatus, status_fields)

bool KafkaNodePoolSpec::has_role(std::string_view r) const { return std::find(roles.begin(), roles.end(), r) != roles.end(); }

json::Value node_pool_schema() {
  return openapi::root(kApiVersion, "A pool of Kafka nodes of the Kafka cluster named by its kafka.capstan.dev/cluster label.",
                       KafkaNodePoolSpec::schema(), KafkaNodePoolStatus::schema())
      .json();
}

}  // namespace capstan::apis::kafka::v1
