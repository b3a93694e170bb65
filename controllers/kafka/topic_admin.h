// The topic operator's view of a Kafka cluster, through librdkafka's Admin API (Debian's
// librdkafka 2.0): a topic's partitions and replication factor (metadata), its configuration
// overrides (DescribeConfigs), and CreateTopics, CreatePartitions, AlterConfigs, DeleteTopics.
// Every call is bounded by the admin's timeout and throws AdminError with Kafka's error name
// and text ("TOPIC_ALREADY_EXISTS: Topic 'orders' already exists.").
//
// librdkafka 2.0 has no IncrementalAlterConfigs (2.2): AlterConfigs sets a topic's overrides to
// exactly the set given, so a setting left out of a KafkaTopic returns to the broker's default,
// which is what the topic operator wants (Kafka matches the spec, nothing else).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

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

class TopicAdmin {
 public:
  // `bootstrap`: "host:port,..." of a listener the operator may use (PLAINTEXT).
  TopicAdmin(const std::string& bootstrap, std::chrono::milliseconds timeout);
  ~TopicAdmin();
  TopicAdmin(const TopicAdmin&) = delete;
  TopicAdmin& operator=(const TopicAdmin&) = delete;

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

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// One admin per bootstrap address, shared by the topic reconciles of a cluster and closed after
// `idle` without use.
class TopicAdmins {
 public:
  TopicAdmins(std::chrono::milliseconds timeout, std::chrono::milliseconds idle) : timeout_(timeout), idle_(idle) {}
  std::shared_ptr<TopicAdmin> get(const std::string& bootstrap);

 private:
  struct Entry {
    std::shared_ptr<TopicAdmin> admin;
    std::chrono::steady_clock::time_point used;
  };
  std::chrono::milliseconds timeout_, idle_;
  std::mutex mu_;
  std::map<std::string, Entry> admins_;
};

}  // namespace capstan::kafka
