// The operator's view of a running Kafka cluster, through librdkafka's Admin API (Debian's
// librdkafka 2.0): a topic's partitions and replication factor (metadata), its configuration
// overrides (DescribeConfigs), CreateTopics, CreatePartitions, DeleteTopics (the topic
// operator), and which brokers hold partition replicas (the broker scale-down check).
// Every call is bounded by the admin's timeout and throws AdminError with Kafka's error name
// and text ("TOPIC_ALREADY_EXISTS: Topic 'orders' already exists.").
//
// ACLs (acls.h), SCRAM credentials, client quotas, topic settings changed key by key
// (topic_configs.h), the KRaft metadata version (features.h) and the controller quorum (quorum.h)
// go through requests of our own (wire.h, scram.h) on a connection of their own to the same
// bootstrap address, with the same credentials: librdkafka 2.0 has no call for them (its ACL
// calls have no transactional id resource, and it has no IncrementalAlterConfigs).
#pragma once

#include "controllers/kafka/quorum.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::kafka {

class AdminError : public std::runtime_error {
 public:
  AdminError(std::string code, const std::string& message) : std::runtime_error(message), code_(std::move(code)) {}
  // Kafka's error name: UNKNOWN_TOPIC_OR_PART, TOPIC_ALREADY_EXISTS, INVALID_CONFIG, _TIMED_OUT...
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

struct TopicState {
  int partitions = 0;
  int replicas = 0;  // the replication factor (the replica count of partition 0)
};

// One partition's replicas and in-sync replicas (node IDs), as the cluster's metadata reports them.
struct PartitionReplicas {
  std::string topic;
  std::int32_t partition = 0;
  std::vector<std::int32_t> replicas, in_sync;
};

// The operator's credentials for a listener of mutual TLS: PEM of the CA it trusts, its
// certificate and its PKCS#8 key. The broker's name is checked against its certificate.
struct ClientTls {
  std::string ca_pem, certificate_pem, key_pem;
};

// One ACL binding, in Strimzi's KafkaUser words: resource type topic | group | cluster (named
// kafka-cluster) | transactionalId, pattern literal | prefix, the principal (User:CN=alice),
// host, operation (Read, Write, ..., All) and permission allow | deny.
struct AclBinding {
  std::string resource_type, resource_name, pattern, principal, host, operation, permission;
  auto operator<=>(const AclBinding&) const = default;
};

class ClusterAdmin {
 public:
  // `bootstrap`: "host:port,..." of a listener the operator may use: PLAINTEXT, or SSL with `tls`.
  // `address_map` ("host:port" -> "host:port"): where an address leads, for every connection
  // (the bootstrap and each broker's advertised address); others resolve as usual.
  ClusterAdmin(const std::string& bootstrap, std::chrono::milliseconds timeout, std::map<std::string, std::string> address_map = {},
               const std::optional<ClientTls>& tls = std::nullopt);
  ~ClusterAdmin();
  ClusterAdmin(const ClusterAdmin&) = delete;
  ClusterAdmin& operator=(const ClusterAdmin&) = delete;

  // nullopt when the cluster has no such topic (the metadata of all topics is read, so asking
  // never creates the topic on a broker with auto.create.topics.enable).
  std::optional<TopicState> describe(const std::string& topic);
  // partitions / replicas -1: the broker's defaults.
  void create(const std::string& topic, int partitions, int replicas, const std::map<std::string, std::string>& configs);
  void create_partitions(const std::string& topic, int total);
  // The topic's own settings (source DYNAMIC_TOPIC_CONFIG), not the defaults it inherits.
  std::map<std::string, std::string> overrides(const std::string& topic);
  // Sets `set` and deletes `remove` (back to the defaults), leaving the topic's other settings
  // (IncrementalAlterConfigs, topic_configs.h).
  void alter_overrides(const std::string& topic, const std::map<std::string, std::string>& set, const std::vector<std::string>& remove);
  // Deleting a topic that does not exist is no error.
  void remove(const std::string& topic);
  // The ACL bindings of `principal` (DescribeAcls); bindings of kinds Strimzi's words cannot
  // name are left out. A cluster without an authorizer (SECURITY_DISABLED) has none. Errors name the binding refused.
  std::set<AclBinding> acls(const std::string& principal);
  void create_acls(const std::vector<AclBinding>& acls);
  // Deletes exactly these bindings.
  void delete_acls(const std::vector<AclBinding>& acls);
  // Of `users`, those with a SCRAM-SHA-512 credential (DescribeUserScramCredentials).
  std::set<std::string> scram_users(const std::vector<std::string>& users);
  // Sets the user's SCRAM-SHA-512 credential for `password` (a new salt each time).
  void set_scram_password(const std::string& user, std::string_view password);
  // Deletes the user's SCRAM-SHA-512 credential; one already gone is no error.
  void delete_scram(const std::string& user);
  // The client quotas of the entity user=<user> (key -> value; DescribeClientQuotas).
  std::map<std::string, double> user_quotas(const std::string& user);
  // Sets the quotas `set` and removes those named in `remove` (AlterClientQuotas).
  void alter_user_quotas(const std::string& user, const std::map<std::string, double>& set, const std::vector<std::string>& remove);
  // Every partition of every topic with its replicas and in-sync replicas (one metadata request).
  // `timeout`: this call's own bound, when shorter than the admin's.
  std::vector<PartitionReplicas> partitions(std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  // Of `brokers` (node IDs), those that hold a replica of any partition of any topic.
  std::set<std::int32_t> holding_replicas(const std::set<std::int32_t>& brokers);
  // The cluster's finalized KRaft metadata version as its feature level (the finalized
  // metadata.version of an ApiVersions v3 answer, what Admin.describeFeatures reads); nullopt
  // when the broker reports none. `timeout`: this call's own bound, when shorter than the admin's.
  std::optional<std::int16_t> metadata_version_level(std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  // The KRaft controller quorum as its leader reports it (DescribeQuorum, quorum.h).
  // `timeout`: this call's own bound, when shorter than the admin's.
  QuorumState quorum(std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  // Raises the finalized metadata.version to `level` (UpdateFeatures, upgrade only: Kafka refuses
  // a lower level with INVALID_UPDATE_VERSION).
  void upgrade_metadata_version(std::int16_t level);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// One admin per cluster, shared by the reconciles of that cluster and closed after `idle`
// without use (or when its credentials change). A cluster is reached on its replication listener
// through the bootstrap Service (<cluster>-kafka-bootstrap.<ns>.svc:9091, as Strimzi's operators
// connect); `address_map` (host:port -> host:port, --kafka-address-map) says where an address
// leads for a manager outside the cluster's network.
class ClusterAdmins {
 public:
  // The cluster's credentials: nullopt for a plaintext replication listener; throws AdminError
  // when the listener is TLS and they are not there yet.
  using Credentials = std::function<std::optional<ClientTls>(std::string_view cluster, std::string_view ns)>;

  ClusterAdmins(std::chrono::milliseconds timeout, std::chrono::milliseconds idle, std::map<std::string, std::string> address_map = {})
      : timeout_(timeout), idle_(idle), address_map_(std::move(address_map)) {}
  // Set once, before the first for_cluster().
  void set_credentials(Credentials c) { credentials_ = std::move(c); }
  std::shared_ptr<ClusterAdmin> for_cluster(std::string_view cluster, std::string_view ns);
  // The address for_cluster() connects to.
  std::string bootstrap(std::string_view cluster, std::string_view ns) const;

 private:
  struct Entry {
    std::shared_ptr<ClusterAdmin> admin;
    std::string credentials;  // a hash of the ClientTls it was made with
    std::chrono::steady_clock::time_point used;
  };
  std::chrono::milliseconds timeout_, idle_;
  std::map<std::string, std::string> address_map_;
  Credentials credentials_;
  std::mutex mu_;
  std::map<std::string, Entry> admins_;
};

}  // namespace capstan::kafka
