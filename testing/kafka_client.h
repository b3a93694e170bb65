// A Kafka client for the tests (librdkafka, Debian's librdkafka-dev): the few calls that prove
// a cluster works, each bounded in time and throwing with librdkafka's own error text.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace capstan::e2e {

class KafkaClient {
 public:
  // `bootstrap`: "host:port,..."; `config`: more librdkafka properties (security.protocol, ...).
  explicit KafkaClient(std::string bootstrap, std::map<std::string, std::string> config = {});

  // The cluster id the brokers report (the one their storage was formatted with).
  std::string cluster_id(std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;
  // How many brokers the metadata lists.
  int broker_count(std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;
  // CreateTopics; "already exists" counts as done.
  void create_topic(const std::string& topic, int partitions, int replication_factor, const std::map<std::string, std::string>& configs = {},
                    std::chrono::milliseconds timeout = std::chrono::seconds(60)) const;
  // Produces `messages` (acks=all, idempotent) and waits for every delivery report.
  void produce(const std::string& topic, const std::vector<std::string>& messages,
               std::chrono::milliseconds timeout = std::chrono::seconds(60)) const;
  // Reads partitions 0..`partitions`-1 of `topic` from the beginning until `count` messages
  // arrived (without a consumer group); their payloads, in arrival order.
  std::vector<std::string> consume(const std::string& topic, int partitions, std::size_t count,
                                   std::chrono::milliseconds timeout = std::chrono::seconds(60)) const;

 private:
  std::string bootstrap_;
  std::map<std::string, std::string> config_;
};

}  // namespace capstan::e2e
