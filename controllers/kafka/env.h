// What the Kafka reconciler shares: the client and the shared informers (Kafka, KafkaNodePool,
// the pods, Secrets, Services and Ingresses of Kafka clusters, narrowed by label to those, and
// the Nodes).
#pragma once

#include "apis/kafka/v1/group.h"
#include "controllers/kafka/cluster_admin.h"
#include "runtime/controller/builder.h"
#include "runtime/meta/core_types.h"

#include <chrono>
#include <memory>
#include <string>

namespace capstan::client {
class Client;
}
namespace capstan::cache {
class Informer;
}

namespace capstan::kafka {

using apis::kafka::v1::kKafkaType;
inline const meta::ResourceType& kNodePoolType = apis::kafka::v1::kKafkaNodePoolType;
using meta::core::kClaimType;
using meta::core::kIngressType;
using meta::core::kConfigMapType;
using meta::core::kPodType;
using meta::core::kSecretType;
using meta::core::kServiceType;

// Read only: where a nodeport listener's brokers run (their Node's addresses).
inline const meta::ResourceType kNodeType{{"", "v1", "nodes"}, "Node", false};
inline const meta::ResourceType kDisruptionBudgetType{{"policy", "v1", "poddisruptionbudgets"}, "PodDisruptionBudget", true};
// Rack awareness (rack.h): the nodes' ServiceAccount and its binding to the broker ClusterRole.
inline const meta::ResourceType kServiceAccountType{{"", "v1", "serviceaccounts"}, "ServiceAccount", true};
inline const meta::ResourceType kClusterRoleBindingType{{"rbac.authorization.k8s.io", "v1", "clusterrolebindings"}, "ClusterRoleBinding", false};

// Only the pods and Secrets of Kafka clusters are cached (the certificates' Secrets carry the
// cluster's labels through their secretTemplate).
inline constexpr std::string_view kClusterObjectsSelector = "kafka.capstan.dev/kind=Kafka";

// Nodes are cached with their identity, labels and addresses only (what nodeport listeners
// advertise), not their images, conditions and volumes, which make up most of a Node.
inline cache::InformerOptions node_cache_options() {
  cache::InformerOptions o;
  o.gvr = kNodeType.gvr;
  o.keep_fields = {{"status", "addresses"}};
  return o;
}
// The Secrets of KafkaUsers (a tls user's certificate and keys, a scram-sha-512 user's password).
inline constexpr std::string_view kUserObjectsSelector = "kafka.capstan.dev/kind=KafkaUser";

struct KafkaOptions {
  int max_concurrent_reconciles = 2;
  // Full reconciliation of every cluster at least this often (Strimzi's
  // STRIMZI_FULL_RECONCILIATION_INTERVAL_MS).
  std::chrono::milliseconds full_reconciliation{120'000};
  // The certificates controller runs: the clusters' CAs and TLS certificates are made as its
  // Certificates (security.h). Without it a TLS listener cannot be served.
  bool certificates = false;
  // The monitoring controller runs: a cluster with metricsConfig gets a PodMonitor.
  bool monitoring = false;
  // How long a node's pod may stay not Ready (after it was made or turned unready) before the
  // cluster is NotReady (Strimzi's STRIMZI_OPERATION_TIMEOUT_MS).
  std::chrono::milliseconds operation_timeout{300'000};
  // The bound of each question a reconcile asks a running cluster on the way (the availability
  // check before a broker restarts, rolling.h; a settled cluster's finalized metadata version):
  // a cluster that cannot be asked costs a reconcile this much per question at most.
  std::chrono::milliseconds check_timeout{3'000};
  // The ClusterRole (get nodes) rack-aware clusters' ServiceAccounts are bound to (rack.h).
  std::string broker_cluster_role{"capstan-kafka-broker"};
};

struct Env {
  client::Client& client;
  cache::Informer& kafkas;
  cache::Informer& pools;
  cache::Informer& pods;
  cache::Informer& secrets;
  // The clusters' Services and Ingresses (narrowed by label): the listeners' load balancer
  // addresses and node ports, and what to prune.
  cache::Informer& services;
  cache::Informer& ingresses;
  cache::Informer& nodes;  // every Node: the addresses nodeport listeners advertise
  cache::Informer* pod_monitors;  // the clusters' PodMonitors, when the monitoring controller runs
  cache::Informer& rack_bindings;  // the clusters' ClusterRoleBindings (rack.h), narrowed by label
  // The running clusters, for the broker scale-down check.
  std::shared_ptr<ClusterAdmins> admins;
  KafkaOptions options;
};

}  // namespace capstan::kafka
