// Apache Kafka nodes for the Kafka tests: the pinned broker (scripts/kafka.sh fetches it into
// .tools/kafka/libs) run on exactly what the Kafka controller wrote for each node, its
// ConfigMap's server.config, cluster.id and metadata.version, as the node's container would:
// `kafka-storage format` with that cluster id and metadata version, then the broker.
//
// A pod has its own network namespace and its own data volume; processes on one machine do
// not. So, and only so, the configuration is translated as the pod network and the kubelet
// would make it true: every `host:port` in listeners, advertised.listeners and the controller
// quorum names a node's address, and each (node host, container port) pair becomes one free
// loopback port (a bind on 0.0.0.0 means the node's own host). A TLS listener's advertised
// addresses (and the quorum voters', when the control plane is TLS) keep the node's name with the
// port translated: its clients check the node's certificate against that name, and the nodes'
// JVMs (a hosts file) and KafkaClient resolve every name to 127.0.0.1 as the pod network's DNS
// would resolve it to the pod. Each data volume's mount path becomes a folder of the
// node's, and so does each Secret volume's (its files written there, paths in the configuration
// translated). Every other line runs as the controller wrote it.
#pragma once

#include "testing/process.h"
#include "testing/temp_dir.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace capstan::e2e {

// Where scripts/kafka.sh put the jars of Kafka `version` ($CAPSTAN_TOOLS_DIR/kafka, else
// .tools/kafka): libs/ for the pinned release (and for ""), releases/<version>/libs for the older
// one it fetches for upgrades. Throws naming both places for a release not fetched.
std::string kafka_libs_dir(const std::string& version = "");
// Prometheus' JMX exporter agent scripts/kafka.sh put beside them.
std::string kafka_agent_jar();

// One node as the controller made it.
struct KafkaNodeSpec {
  std::string pod;               // <cluster>-<pool>-<id>
  std::string host;              // its stable DNS name (the headless Service's)
  std::vector<std::string> data_mount_paths;  // the pod's data volumes' mounts ("data", or "data-<id>" of JBOD)
  std::string server_config;     // the ConfigMap's server.config
  std::string cluster_id;        // ... cluster.id
  std::string metadata_version;  // ... metadata.version
  std::string kafka_version;     // the release its image runs (Strimzi's tag <strimzi>-kafka-<version>); "" = the pinned one
  // The pod's Secret volumes: mount path -> file name -> content.
  std::map<std::string, std::map<std::string, std::string>> mounts;
  // With KAFKA_METRICS_ENABLED=true on the pod: the ConfigMap's metrics-config.json, which
  // Strimzi's image hands to Prometheus' JMX exporter agent (scripts/kafka.sh fetches it) on the
  // node's port 9404.
  std::string metrics_config;
};

// The pod network of the nodes: (host, container port) -> a loopback port of their own.
class KafkaNetwork {
 public:
  // "127.0.0.1:<port>" for `host`:`port`, a free port taken on first use.
  std::string address(const std::string& host, int port);
  // `value` (a comma-separated list of [NAME://|ID@]host:port) with every address translated;
  // 0.0.0.0 is `own_host`. Listeners named in `names_kept` keep their host name (only the port
  // is translated).
  std::string translate(const std::string& value, const std::string& own_host, const std::set<std::string>& names_kept = {});
  // Addresses of `name` are those of `host` (a Service routing to one pod: the same ports).
  void alias(const std::string& name, const std::string& host) { aliases_[name] = host; }

 private:
  std::map<std::pair<std::string, int>, std::uint16_t> ports_;
  std::map<std::string, std::string> aliases_;
};

class KafkaBrokers {
 public:
  // Formats every node's storage and starts every node (one process each), then waits until
  // every broker answers on its listeners. Throws with the nodes' logs when they do not.
  // `network`: ports already handed out (to a manager told where a node will listen).
  KafkaBrokers(const TempDir& dir, std::vector<KafkaNodeSpec> nodes, KafkaNetwork network = {});
  ~KafkaBrokers();

  // "127.0.0.1:p,..." for clients of the listener on container port `port`: the address of
  // every broker node (as the bootstrap Service reaches them). `by_name`: "<node host>:p,..."
  // (for TLS clients, which check the name; KafkaClient resolves it to 127.0.0.1).
  std::string bootstrap_servers(int port, bool by_name = false);
  // "127.0.0.1:p" of the node's metrics port (9404), where its JMX exporter serves /metrics.
  // Runs Kafka's own Java client (tools/kafka/KafkaProbe.java, compiled by scripts/kafka.sh)
  // with `properties` (client settings, bootstrap.servers included) and `command`: {"check"}
  // (prints the cluster id), {"produce", topic, message...}, {"consume", topic, count} (prints
  // the messages). Brokers of Kafka 4 refuse the SCRAM proofs of librdkafka before 2.6.1
  // (Debian's is 2.0.2): SCRAM clients of the tests are this one.
  // {"produce-until", topic, stop-file}: one message every 50 ms until the file exists (see
  // KafkaProbe.java); give it a `timeout` beyond the default 90 s.
  RunResult java_client(const std::map<std::string, std::string>& properties, const std::vector<std::string>& command,
                        std::chrono::seconds timeout = std::chrono::seconds(90)) const;
  std::string metrics_address(const std::string& pod);
  // The node's data directory (the mount path's stand-in).
  std::string data_dir(const std::string& pod) const;
  // How long the last start took, from the first process to every broker listening.
  double start_seconds() const { return start_seconds_; }
  std::string logs() const;
  // The release node `pod` runs as its process logs it at start (Kafka's "Kafka version: 4.1.0");
  // "" before it said.
  std::string kafka_version(const std::string& pod) const;

  // A pod's end and its successor, as the kubelet makes them true in a roll (KafkaPodAgent):
  // stop() ends node `pod` as a pod deletion does (SIGTERM: Kafka's controlled shutdown, then
  // its exit, bounded); start() runs it again on what `spec` (of a node started before) says
  // now, on the same data and ports, and returns at once; listening() says when it answers on
  // every listener. Safe to call from another thread than the test's.
  void stop(const std::string& pod);
  void start(KafkaNodeSpec spec);
  bool listening(const std::string& pod);

 private:
  struct Node {
    KafkaNodeSpec spec;
    std::string config_path, data_dir;
    bool broker = false;
    std::vector<std::uint16_t> listen_ports;
    std::unique_ptr<Process> proc;
  };
  void prepare(Node& n);
  void format(const Node& n) const;
  void start(Node& n);
  // /etc/hosts of the nodes' JVMs: every node's name is 127.0.0.1.
  std::string hosts_file() const;
  Node& node(const std::string& pod);
  const Node& node(const std::string& pod) const;

  const TempDir& dir_;
  KafkaNetwork network_;
  std::vector<Node> nodes_;
  double start_seconds_ = 0;
  mutable std::mutex mu_;  // nodes_ and network_, once the constructor returned
};

}  // namespace capstan::e2e
