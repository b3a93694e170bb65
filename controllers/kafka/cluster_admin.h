// The operator's view of a running Kafka cluster, through librdkafka's Admin API (Debian's
// librdkafka 2.0): a topic's partitions and replication factor (metadata), its configuration
// overrides (DescribeConfigs), CreateTopics, CreatePartitions, AlterConfigs, DeleteTopics (the
// topic operator), and which brokers hold partition replicas (the broker scale-down check).
// Every call is bounded by the admin's timeout and throws AdminError with Kafka's error name
// and text ("TOPIC_ALREADY_EXISTS: Topic 'orders' already exists.").
//
// librdkafka 2.0 has no IncrementalAlterConfigs (2.2): AlterConfigs sets a topic's overrides to
// exactly the set given, so a setting left out of a KafkaTopic returns to the broker's default,
// which is what the topic operator wants (Kafka matches the spec, nothing else).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

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

class ClusterAdmin {
 public:
  // `bootstrap`: "host:port,..." of a listener the operator may use (PLAINTEXT).
  ClusterAdmin(const std::string& bootstrap, std::chrono::milliseconds timeout);
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
  void set_overrides(const std::string& topic, const std::map<std::string, std::string>& configs);
  // Deleting a topic that does not exist is no error.
  void remove(const std::string& topic);
  // Of `brokers` (node IDs), those that hold a replica of any partition of any topic.
  std::set<std::int32_t> holding_replicas(const std::set<std::int32_t>& brokers);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// One admin per cluster, shared by the reconciles of that cluster and closed after `idle`
// without use. A cluster is reached on its replication listener through the bootstrap Service
// (<cluster>-kafka-bootstrap.<ns>.svc:9091, as Strimzi's operators connect), unless
// `address_map` (host:port -> host:port, --kafka-address-map) says where that address leads for
// a manager outside the cluster's network.
class ClusterAdmins {
 public:
  ClusterAdmins(std::chrono::milliseconds timeout, std::chrono::milliseconds idle, std::map<std::string, std::string> address_map = {})
      : timeout_(timeout), idle_(idle), address_map_(std::move(address_map)) {}
  std::shared_ptr<ClusterAdmin> for_cluster(std::string_view cluster, std::string_view ns);
  // The address for_cluster() connects to.
  std::string bootstrap(std::string_view cluster, std::string_view ns) const;

 private:
  struct Entry {
    std::shared_ptr<ClusterAdmin> admin;
    std::chrono::steady_clock::time_point used;
  };
  std::chrono::milliseconds timeout_, idle_;
  std::map<std::string, std::string> address_map_;
  std::mutex mu_;
  std::map<std::string, Entry> admins_;
};

}  // namespace capstan::kafka
