// The OpenAPI v3 schemas of Kafka and KafkaNodePool: Strimzi's field names, enums and minimums,
// limited to what Capstan implements (types.h).
#include "apis/common/openapi.h"
#include "apis/kafka/v1/crds.h"
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"

namespace capstan::apis::kafka::v1 {
namespace {

using openapi::Schema;

Schema kafka_spec() {
  auto listener = Schema::object("A listener clients connect to.")
                      .property("name", Schema::string("Name of the listener: 1-11 lower-case letters and digits.")
                                            .pattern("^[a-z0-9]{1,11}$")
                                            .max_length(11))
                      .property("port", Schema::integer("Port of the listener (9092 or above; 9090 and 9091 are the operator's).", "int32")
                                            .range(9092, 65535))
                      .property("type", Schema::string_enum({"internal", "cluster-ip"},
                                                            "internal (through the headless and bootstrap Services) or cluster-ip "
                                                            "(the bootstrap Service)."))
                      .property("tls", Schema::boolean("Whether the listener uses TLS."))
                      .required({"name", "port", "type", "tls"});
  auto kafka = Schema::object("The Kafka brokers and controllers.")
                   .property("version", Schema::string("Kafka version (default 4.1.0).").max_length(32))
                   .property("metadataVersion", Schema::string("KRaft metadata version, e.g. 4.1-IV1.").max_length(32))
                   .property("image", Schema::string("Container image (default: Strimzi's for the version).").max_length(1024))
                   .property("listeners", Schema::array(listener, "The listeners, unique by name and by port.")
                                              .list_map({"name"})
                                              .min_items(1)
                                              .max_items(16)
                                              .rule("self.all(l, self.exists_one(m, m.port == l.port))", "listener ports must be unique"))
                   .property("config", Schema::open_object("Broker configuration (Kafka properties); the operator's own keys are refused.")
                                           .max_properties(256))
                   .required({"listeners"});
  return std::move(Schema::object("The Kafka cluster.").property("kafka", kafka).required({"kafka"}));
}

Schema conditions() {
  return openapi::conditions("Conditions: Ready, NotReady, Warning, ReconciliationPaused.", "Ready, NotReady, Warning, ReconciliationPaused",
                             true);
}

Schema kafka_status() {
  auto address = Schema::object("An address of the listener.")
                     .property("host", Schema::string("Host name."))
                     .property("port", Schema::integer("Port.", "int32"));
  auto listener = Schema::object("How clients reach a listener.")
                      .property("name", Schema::string("Name of the listener."))
                      .property("addresses", Schema::array(address, "Addresses of the listener."))
                      .property("bootstrapServers", Schema::string("host:port list for the clients' bootstrap.servers."));
  return std::move(Schema::object("The observed state of the cluster.")
                       .property("conditions", conditions())
                       .property("observedGeneration", openapi::observed_generation())
                       .property("listeners", Schema::array(listener, "The listeners and their addresses."))
                       .property("kafkaNodePools", Schema::array(Schema::object("A node pool.").property("name", Schema::string("Its name.")),
                                                                 "The node pools of the cluster."))
                       .property("clusterId", Schema::string("The KRaft cluster ID."))
                       .property("kafkaVersion", Schema::string("The Kafka version running."))
                       .property("kafkaMetadataVersion", Schema::string("The KRaft metadata version."))
                       .property("operatorLastSuccessfulVersion", Schema::string("Version of the operator that last reconciled it.")));
}

Schema node_pool_spec() {
  auto storage = Schema::object("Storage of the nodes.")
                     .property("type", Schema::string_enum({"ephemeral", "persistent-claim"}, "ephemeral (emptyDir) or persistent-claim."))
                     .property("size", Schema::string("Size of each claim (persistent-claim), e.g. 100Gi.").max_length(64))
                     .property("sizeLimit", Schema::string("Size limit of the emptyDir (ephemeral).").max_length(64))
                     .property("class", openapi::object_name("StorageClass of the claims."))
                     .property("deleteClaim", Schema::boolean("Delete the claims when the nodes are removed."))
                     .required({"type"});
  return std::move(Schema::object("A set of Kafka nodes with the same roles and storage.")
                       .property("replicas", Schema::integer("Number of nodes (at most 1000).", "int32").range(0, kMaxNodes))
                       .property("roles", Schema::array(Schema::string_enum({"controller", "broker"}, "A KRaft role."), "Roles of the nodes.")
                                              .min_items(1)
                                              .max_items(2)
                                              .list_type("set"))
                       .property("storage", storage)
                       .property("resources", Schema::open_object("Resource requests and limits of the Kafka container.").max_properties(8))
                       .required({"replicas", "roles", "storage"}));
}

Schema node_pool_status() {
  return std::move(Schema::object("The observed state of the pool.")
                       .property("conditions", conditions())
                       .property("observedGeneration", openapi::observed_generation())
                       .property("nodeIds", Schema::array(Schema::integer("A node ID.", "int32"), "Node IDs of the pool's nodes."))
                       .property("clusterId", Schema::string("The KRaft cluster ID."))
                       .property("roles", Schema::strings("Roles of the nodes."))
                       .property("replicas", Schema::integer("Nodes in the pool.", "int32"))
                       .property("labelSelector", Schema::string("Label selector of the pool's pods.")));
}

}  // namespace

json::Value kafka_schema() {
  return openapi::root(kApiVersion, "A Kafka cluster in KRaft mode; its nodes come from the KafkaNodePools labelled with its name.",
                       kafka_spec(), kafka_status())
      .json();
}

json::Value node_pool_schema() {
  return openapi::root(kApiVersion, "A pool of Kafka nodes of the Kafka cluster named by its kafka.capstan.dev/cluster label.",
                       node_pool_spec(), node_pool_status())
      .json();
}

}  // namespace capstan::apis::kafka::v1
