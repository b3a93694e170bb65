// kafka.capstan.dev/v1 Kafka and KafkaNodePool as C++ types. Each struct's fields are listed once,
// in kafka.cpp and node_pool.cpp, and give its decoder, encoder and CRD schema
// (apis/common/codec.h).
//
// Implemented from Strimzi (the rest of its spec is not in the CRD schema, so `kubectl apply`,
// which asks for strict field validation, refuses a manifest using it):
//   Kafka          spec.kafka{version, metadataVersion, image, listeners[{name, port, type:
//                  internal|cluster-ip|loadbalancer|nodeport|ingress, tls, authentication{type:
//                  tls|scram-sha-512}, configuration{bootstrap{host, nodePort}, brokers[{broker,
//                  host, advertisedHost, advertisedPort, nodePort}], class, externalTrafficPolicy,
//                  loadBalancerSourceRanges, preferredNodePortAddressType}}], authorization{type:
//                  simple, superUsers}, rack{topologyKey}, config{}, metricsConfig{type: jmxPrometheusExporter,
//                  valueFrom{configMapKeyRef}, podMonitor{enabled, labels} (Capstan's)}};
//                  status{..., listeners[{..., certificates}]}
//   KafkaNodePool  spec{replicas, roles[controller|broker], storage{type: ephemeral (sizeLimit) |
//                  persistent-claim (size, class, deleteClaim, kraftMetadata) | jbod (volumes[{id,
//                  type, ...}])}, resources}
//   KafkaTopic     spec{topicName, partitions, replicas, config{}}; status{topicName} (no topicId: librdkafka 2.0 does not report it)
//   KafkaUser      spec{authentication{type: tls|scram-sha-512, password{valueFrom{secretKeyRef}}},
//                  quotas{producerByteRate, consumerByteRate, requestPercentage, controllerMutationRate},
//                  authorization{type: simple, acls[{resource{type, name,
//                  patternType}, operations, type, host}]}}; status{username, secret}
// validation.h applies Strimzi's rules (listener names and ports, forbidden config prefixes,
// storage and roles) and names the field at fault. TLS listeners (`tls: true`) serve the node's
// certificate from the cluster CA, both CAs made as Capstan Certificates (controllers/kafka/
// security.h); with them the control plane (9090) and replication (9091) listeners are mutual
// TLS, as Strimzi's.
#pragma once

#include "apis/common/codec.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capstan::apis::kafka::v1 {

inline constexpr std::string_view kDefaultKafkaVersion = "4.1.0";
inline constexpr std::string_view kDefaultMetadataVersion = "4.1-IV1";
inline constexpr std::string_view kStrimziVersion = "0.48.0";

// A pool's and a cluster's node count at most (the CRD's maximum for spec.replicas): each node
// is a Pod, a ConfigMap and a claim, and its configuration lists every controller.
inline constexpr std::int64_t kMaxNodes = 1000;

struct KafkaListenerAuthentication {
  std::string type;  // tls: a client certificate of the clients CA; scram-sha-512: SASL SCRAM-SHA-512
  CAPSTAN_CODEC(KafkaListenerAuthentication);
};

// Listener types (Strimzi's): internal (the headless Service's per-node names), and the types
// with a bootstrap and a per-broker Service each: cluster-ip (ClusterIP), loadbalancer
// (LoadBalancer), nodeport (NodePort) and ingress (ClusterIP Services behind Ingresses with TLS
// passthrough). route and tlsroute (OpenShift, Gateway API) are refused.
namespace listener_type {
inline constexpr std::string_view kInternal = "internal";
inline constexpr std::string_view kClusterIp = "cluster-ip";
inline constexpr std::string_view kLoadBalancer = "loadbalancer";
inline constexpr std::string_view kNodePort = "nodeport";
inline constexpr std::string_view kIngress = "ingress";
}  // namespace listener_type

// configuration.brokers[] entries at most (one per broker; a cluster has at most kMaxNodes).
inline constexpr std::int64_t kMaxListenerBrokers = kMaxNodes;
inline constexpr std::int64_t kMaxLoadBalancerSourceRanges = 64;

struct GenericKafkaListenerConfigurationBootstrap {
  std::string host;                       // ingress: the bootstrap Ingress's host
  std::optional<std::int32_t> node_port;  // nodeport: the bootstrap Service's nodePort (unset: allocated)
  CAPSTAN_CODEC(GenericKafkaListenerConfigurationBootstrap);
};

struct GenericKafkaListenerConfigurationBroker {
  std::int32_t broker = 0;                      // the node ID
  std::string host;                             // ingress: the broker's Ingress host
  std::string advertised_host;                  // what the broker advertises instead of its address
  std::optional<std::int32_t> advertised_port;  // ... and instead of its port
  std::optional<std::int32_t> node_port;        // nodeport: the broker Service's nodePort (unset: allocated)
  CAPSTAN_CODEC(GenericKafkaListenerConfigurationBroker);
};

struct GenericKafkaListenerConfiguration {
  std::optional<GenericKafkaListenerConfigurationBootstrap> bootstrap;
  std::vector<GenericKafkaListenerConfigurationBroker> brokers;
  std::string ingress_class;  // "class": ingress: ingressClassName; loadbalancer: loadBalancerClass
  std::string external_traffic_policy;  // loadbalancer, nodeport: Cluster | Local
  std::vector<std::string> load_balancer_source_ranges;  // loadbalancer
  std::string preferred_node_port_address_type;  // nodeport: ExternalIP | ExternalDNS | InternalIP | InternalDNS | Hostname

  // The brokers[] entry of node `id`, or nullptr.
  const GenericKafkaListenerConfigurationBroker* broker_override(std::int32_t id) const;
  CAPSTAN_CODEC(GenericKafkaListenerConfiguration);
};

struct GenericKafkaListener {
  std::string name;
  std::int32_t port = 0;
  std::string type;  // listener_type::
  bool tls = false;
  std::optional<KafkaListenerAuthentication> authentication;
  std::optional<GenericKafkaListenerConfiguration> configuration;

  // Every type but internal: a bootstrap and a per-broker Service of the listener's own.
  bool per_broker_services() const { return type != listener_type::kInternal; }
  CAPSTAN_CODEC(GenericKafkaListener);
};

// Strimzi's authorization type simple: Kafka's StandardAuthorizer (ACLs), with super users
// ("CN=alice" for a TLS client, as Strimzi writes them; each becomes User:<it>).
inline constexpr std::int64_t kMaxSuperUsers = 64;
struct KafkaAuthorization {
  std::string type;  // simple
  std::vector<std::string> super_users;
  CAPSTAN_CODEC(KafkaAuthorization);
};

struct ConfigMapKeyRef {
  std::string name, key;
  CAPSTAN_CODEC(ConfigMapKeyRef);
};

struct ExternalConfigurationReference {
  ConfigMapKeyRef config_map_key_ref;
  CAPSTAN_CODEC(ExternalConfigurationReference);
};

// Capstan's: the PodMonitor made for the cluster when the monitoring controller runs too.
struct KafkaPodMonitor {
  bool enabled = true;
  std::map<std::string, std::string> labels;  // on the PodMonitor: what a Prometheus's podMonitorSelector matches
  CAPSTAN_CODEC(KafkaPodMonitor);
};

// Strimzi's metricsConfig, type jmxPrometheusExporter: Prometheus' JMX exporter agent in each
// node on port 9404 (tcp-prometheus), configured from the ConfigMap key.
struct MetricsConfig {
  std::string type;  // jmxPrometheusExporter
  ExternalConfigurationReference value_from;
  std::optional<KafkaPodMonitor> pod_monitor;
  bool pod_monitor_enabled() const { return !pod_monitor || pod_monitor->enabled; }
  CAPSTAN_CODEC(MetricsConfig);
};

// Strimzi's rack awareness (type topology-label, the only one before Strimzi 1.0): each broker's
// broker.rack is the value of this label on the Node its pod runs on, read by an init container.
struct Rack {
  std::string topology_key;  // a Node label key, e.g. topology.kubernetes.io/zone
  CAPSTAN_CODEC(Rack);
};

struct KafkaClusterSpec {
  std::string version;           // "" = kDefaultKafkaVersion
  std::string metadata_version;  // "" = the version's (kKafkaReleases), else kDefaultMetadataVersion
  std::string image;             // "" = Strimzi's image for the version
  std::vector<GenericKafkaListener> listeners;
  json::Object config;  // Kafka properties as written (strings, numbers, booleans)
  std::optional<MetricsConfig> metrics_config;
  std::optional<KafkaAuthorization> authorization;
  std::optional<Rack> rack;

  std::string effective_version() const { return version.empty() ? std::string(kDefaultKafkaVersion) : version; }
  std::string effective_metadata_version() const;
  std::string effective_image() const;
  // config as Kafka properties: strings as they are, other scalars in their JSON form.
  std::map<std::string, std::string> properties() const;
  CAPSTAN_CODEC(KafkaClusterSpec);
};

// spec.clusterCa / spec.clientsCa, Strimzi's CertificateAuthority: how long the CA's certificate
// (and those it signs) are valid, when they are renewed, and whether the CA's key is kept at
// renewal (renew-certificate) or replaced in the phased key replacement (replace-key). Capstan
// always generates the CAs (generateCertificateAuthority: false, a CA of the user's, is refused).
namespace expiration_policy {
inline constexpr std::string_view kRenewCertificate = "renew-certificate";
inline constexpr std::string_view kReplaceKey = "replace-key";
}  // namespace expiration_policy
inline constexpr std::int32_t kDefaultCaValidityDays = 365;
inline constexpr std::int32_t kDefaultCaRenewalDays = 30;
inline constexpr std::int32_t kMaxCaValidityDays = 36500;  // a hundred years: x509 and Go durations hold it

struct CertificateAuthority {
  std::optional<bool> generate_certificate_authority;  // unset = true
  std::optional<std::int32_t> validity_days;           // unset = 365
  std::optional<std::int32_t> renewal_days;            // unset = 30
  std::string certificate_expiration_policy;           // "" = renew-certificate
  std::int32_t effective_validity_days() const { return validity_days.value_or(kDefaultCaValidityDays); }
  std::int32_t effective_renewal_days() const { return renewal_days.value_or(kDefaultCaRenewalDays); }
  bool replaces_key() const { return certificate_expiration_policy == expiration_policy::kReplaceKey; }
  CAPSTAN_CODEC(CertificateAuthority);
};

struct KafkaSpec {
  KafkaClusterSpec kafka;
  std::optional<CertificateAuthority> cluster_ca;
  std::optional<CertificateAuthority> clients_ca;
  // The CA's settings, its defaults when the spec has none.
  CertificateAuthority cluster_ca_or_default() const { return cluster_ca.value_or(CertificateAuthority{}); }
  CertificateAuthority clients_ca_or_default() const { return clients_ca.value_or(CertificateAuthority{}); }
  CAPSTAN_CODEC(KafkaSpec);
};

struct ListenerAddress {
  std::string host;
  std::int32_t port = 0;
  CAPSTAN_CODEC(ListenerAddress);
};

struct ListenerStatus {
  std::string name;
  std::vector<ListenerAddress> addresses;
  std::string bootstrap_servers;
  std::vector<std::string> certificates;  // TLS listeners: the cluster CA certificate (PEM)
  CAPSTAN_CODEC(ListenerStatus);
};

struct UsedNodePoolStatus {
  std::string name;
  CAPSTAN_CODEC(UsedNodePoolStatus);
};

struct KafkaStatus {
  std::vector<meta::Condition> conditions;  // Ready, NotReady, Warning, ReconciliationPaused
  std::int64_t observed_generation = 0;
  std::vector<ListenerStatus> listeners;
  std::vector<UsedNodePoolStatus> kafka_node_pools;
  std::string cluster_id;
  std::string kafka_version;
  std::string kafka_metadata_version;  // what the cluster finalized (read from it), not the spec
  std::string operator_last_successful_version;
  CAPSTAN_CODEC(KafkaStatus);
};

// A node's single volume (Strimzi's SingleVolumeStorage), and each volume of JBOD storage, where
// its id is required.
struct StorageVolume {
  std::optional<std::int32_t> id;  // names a JBOD volume, its mount and its claims
  std::string type = "ephemeral";  // ephemeral | persistent-claim (| jbod for the pool's Storage)
  std::string size, size_limit, storage_class;
  bool delete_claim = false;
  std::string kraft_metadata;  // "shared": the volume holds the KRaft metadata log
  CAPSTAN_CODEC(StorageVolume);
};

// JBOD volumes of a node at most (each is a claim and a log directory).
inline constexpr std::int64_t kMaxJbodVolumes = 64;
// A volume's id at most (ids name mounts and claims).
inline constexpr std::int64_t kMaxVolumeId = 9999;

struct Storage : StorageVolume {
  std::vector<StorageVolume> volumes;  // type jbod
  CAPSTAN_CODEC(Storage);
};

namespace role {
inline constexpr std::string_view kController = "controller";
inline constexpr std::string_view kBroker = "broker";
}  // namespace role

struct KafkaNodePoolSpec {
  std::int32_t replicas = 0;  // as written (range-checked by validate_kafka_node_pool)
  std::vector<std::string> roles;
  Storage storage;
  std::optional<json::Value> resources;

  bool has_role(std::string_view r) const;
  bool broker() const { return has_role(role::kBroker); }
  bool controller() const { return has_role(role::kController); }
  CAPSTAN_CODEC(KafkaNodePoolSpec);
};

struct KafkaNodePoolStatus {
  std::vector<meta::Condition> conditions;
  std::int64_t observed_generation = 0;
  std::vector<std::int32_t> node_ids;
  std::string cluster_id;
  std::vector<std::string> roles;
  std::int32_t replicas = 0;
  std::string label_selector;
  CAPSTAN_CODEC(KafkaNodePoolStatus);
};

// A topic's partitions at most (each is a log on every replica) and its config entries at most.
inline constexpr std::int64_t kMaxTopicPartitions = 100'000;
inline constexpr std::int64_t kMaxTopicConfigs = 256;

struct KafkaTopicSpec {
  std::string topic_name;       // "" = metadata.name
  std::optional<std::int32_t> partitions;  // unset = the broker's num.partitions
  std::optional<std::int32_t> replicas;    // unset = the broker's default.replication.factor
  json::Object config;          // topic configuration (strings, numbers, booleans, lists)

  // config as Kafka's topic configs: strings as they are, numbers and booleans in their JSON
  // form, lists joined by commas.
  std::map<std::string, std::string> configs() const;
  CAPSTAN_CODEC(KafkaTopicSpec);
};

struct KafkaTopicStatus {
  std::vector<meta::Condition> conditions;  // Ready
  std::int64_t observed_generation = 0;
  std::string topic_name;
  CAPSTAN_CODEC(KafkaTopicStatus);
};

// KafkaUser (Strimzi's user operator): authentication tls (a client certificate of the clients
// CA, a Capstan Certificate) or scram-sha-512 (a password, generated or the user's, in the
// Secret named after the user), and authorization simple (ACLs of the user's principal).
inline constexpr std::int64_t kMaxUserAcls = 256;

struct SecretKeyRef {
  std::string name, key;
  CAPSTAN_CODEC(SecretKeyRef);
};

struct PasswordSource {
  SecretKeyRef secret_key_ref;
  CAPSTAN_CODEC(PasswordSource);
};

struct KafkaUserPassword {
  PasswordSource value_from;
  CAPSTAN_CODEC(KafkaUserPassword);
};

struct KafkaUserAuthentication {
  std::string type;  // tls | scram-sha-512
  std::optional<KafkaUserPassword> password;  // scram-sha-512: the user's own; else one is generated
  CAPSTAN_CODEC(KafkaUserAuthentication);
};

struct AclRuleResource {
  std::string type;                     // topic | group | cluster | transactionalId
  std::string name;                     // not for cluster
  std::string pattern_type = "literal"; // literal | prefix
  CAPSTAN_CODEC(AclRuleResource);
};

struct AclRule {
  AclRuleResource resource;
  std::vector<std::string> operations;  // Read, Write, Create, Delete, Alter, Describe, ClusterAction, AlterConfigs,
                                        // DescribeConfigs, IdempotentWrite, All
  std::string type = "allow";           // allow | deny
  std::string host = "*";
  CAPSTAN_CODEC(AclRule);
};

struct KafkaUserAuthorization {
  std::string type;  // simple
  std::vector<AclRule> acls;
  CAPSTAN_CODEC(KafkaUserAuthorization);
};

// Kafka's client quotas of the user (Strimzi's spec.quotas); unset: the broker's defaults.
struct KafkaUserQuotas {
  std::optional<std::int32_t> producer_byte_rate;  // bytes per second, per broker
  std::optional<std::int32_t> consumer_byte_rate;
  std::optional<std::int32_t> request_percentage;  // of one network and I/O thread
  std::optional<double> controller_mutation_rate;  // partitions created or deleted per second
  CAPSTAN_CODEC(KafkaUserQuotas);
};

struct KafkaUserSpec {
  std::optional<KafkaUserAuthentication> authentication;
  std::optional<KafkaUserAuthorization> authorization;
  std::optional<KafkaUserQuotas> quotas;
  CAPSTAN_CODEC(KafkaUserSpec);
};

struct KafkaUserStatus {
  std::vector<meta::Condition> conditions;  // Ready
  std::int64_t observed_generation = 0;
  std::string username;  // CN=<name> (tls), <name> (scram-sha-512)
  std::string secret;    // the Secret of its certificate or password
  CAPSTAN_CODEC(KafkaUserStatus);
};

using Kafka = codec::Resource<KafkaSpec, KafkaStatus>;
using KafkaUser = codec::Resource<KafkaUserSpec, KafkaUserStatus>;
using KafkaTopic = codec::Resource<KafkaTopicSpec, KafkaTopicStatus>;
using KafkaNodePool = codec::Resource<KafkaNodePoolSpec, KafkaNodePoolStatus>;

}  // namespace capstan::apis::kafka::v1
