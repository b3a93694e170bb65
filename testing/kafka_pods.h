// The kubelet's part for the Kafka nodes of the tests (testing/kafka_broker.h): what a node's
// pod says it runs, read through kubectl, and an agent that keeps the node processes in step
// with their pods through a roll.
#pragma once

#include "testing/kafka_broker.h"
#include "testing/kubectl.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace capstan::e2e {

// Node `pod` in `ns` as the controller made it: its ConfigMap and what its pod says of its
// address (hostname.subdomain.namespace.svc), data volume and Secret volumes (their files as
// the kubelet would mount them). With `network`, the per-broker Services of external listeners
// selecting the pod become aliases of its address there (they route to its own ports).
KafkaNodeSpec read_kafka_node(const Kubectl& kubectl, const std::string& ns, const std::string& pod, KafkaNetwork* network = nullptr);

// The decoded data of Secret `name` in `ns` (empty when there is none).
std::map<std::string, std::string> read_secret_data(const Kubectl& kubectl, const std::string& ns, const std::string& name);

// Keeps the node processes of `brokers` what the pods of `cluster` in `ns` say, as the kubelet
// keeps containers what their pods say, polling every 200 ms on a thread of its own:
//   - a pod deleted, being deleted or replaced (another UID): its node is stopped;
//   - a pod Running (scheduled, its volumes there) that no process runs for: its node starts on
//     what the pod and its ConfigMap and Secrets say now;
//   - a node that answers on every listener: its pod is made Ready (the workload simulator's
//     workloads.capstan.dev/ready annotation stands in for the readiness probe; run the
//     simulator with a ready delay longer than the test, so that nothing else makes it Ready).
// Pods of the nodes already running when it starts are taken as theirs (and made Ready).
// Every step is recorded; `in_sync_check` ("" or why not) runs right before a node is stopped.
class KafkaPodAgent {
 public:
  struct Step {
    double at = 0;     // seconds since the agent started
    std::string pod;
    std::string what;  // "stopped" | "started" | "ready"
    std::string note;  // for "stopped": what in_sync_check said
  };
  KafkaPodAgent(const Kubectl& kubectl, KafkaBrokers& brokers, std::string ns, std::string cluster,
                std::function<std::string()> in_sync_check);
  ~KafkaPodAgent();
  KafkaPodAgent(const KafkaPodAgent&) = delete;
  KafkaPodAgent& operator=(const KafkaPodAgent&) = delete;

  // While held, no node process starts for `pod` (a pod that does not come back).
  void hold(const std::string& pod, bool held);
  std::vector<Step> steps() const;
  // The steps, a line each (for failure messages).
  std::string journal() const;

 private:
  void run();
  void sync();
  void record(const std::string& pod, const std::string& what, const std::string& note = "");
  bool held(const std::string& pod) const;

  const Kubectl& kubectl_;
  KafkaBrokers& brokers_;
  const std::string ns_, cluster_;
  const std::function<std::string()> in_sync_check_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::map<std::string, std::string> running_;   // pod -> the UID its process runs for
  std::map<std::string, std::string> starting_;  // pod -> the UID of a process not answering yet
  bool first_ = true;
  mutable std::mutex mu_;  // steps_ and held_
  std::vector<Step> steps_;
  std::set<std::string> held_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace capstan::e2e
