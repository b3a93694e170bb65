// The fields of Kafka: Strimzi's names, enums and minimums, limited to what Capstan implements.
#include "apis/kafka/v1/crds.h"
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/metadata_versions.h"
#include "apis/kafka/v1/types.h"

namespace capstan::apis::kafka::v1 {
namespace {

using codec::field;
using openapi::Schema;

const auto& listener_authentication_fields() {
  static const auto table = codec::table<KafkaListenerAuthentication>(
      "How clients of the listener authenticate.",
      field("type", &KafkaListenerAuthentication::type,
            Schema::string_enum({"tls", "scram-sha-512"},
                                "tls: a client certificate the clients CA signed (the listener must be tls: true); its subject is the "
                                "user (CN=<name>). scram-sha-512: SASL SCRAM-SHA-512 with a KafkaUser's password; the user is its name."))
          .required());
  return table;
}

const auto& authorization_fields() {
  static const auto table = codec::table<KafkaAuthorization>(
      "Authorization of the brokers: simple (Kafka's StandardAuthorizer and ACLs).",
      field("type", &KafkaAuthorization::type, Schema::string_enum({"simple"}, "simple: ACLs.")).required(),
      field("superUsers", &KafkaAuthorization::super_users,
            Schema::array(Schema::string("A user allowed everything, as its principal names it (CN=alice for a TLS client).")
                              .min_length(1)
                              .max_length(256),
                          "Users allowed everything.")
                .max_items(kMaxSuperUsers)));
  return table;
}

const auto& listener_bootstrap_fields() {
  static const auto table = codec::table<GenericKafkaListenerConfigurationBootstrap>(
      "The listener's bootstrap Service (and Ingress).",
      field("host", &GenericKafkaListenerConfigurationBootstrap::host,
            Schema::string("ingress: the host of the bootstrap Ingress (required for ingress listeners).").max_length(253)),
      field("nodePort", &GenericKafkaListenerConfigurationBootstrap::node_port,
            Schema::integer("nodeport: the bootstrap Service's node port (unset: the API server allocates one).", "int32")
                .range(1, 65535)));
  return table;
}

const auto& listener_broker_fields() {
  static const auto table = codec::table<GenericKafkaListenerConfigurationBroker>(
      "Settings of one broker on the listener.",
      field("broker", &GenericKafkaListenerConfigurationBroker::broker,
            Schema::integer("The broker's node ID.", "int32").range(0, 2147483647))
          .required(),
      field("host", &GenericKafkaListenerConfigurationBroker::host,
            Schema::string("ingress: the host of the broker's Ingress (required for ingress listeners).").max_length(253)),
      field("advertisedHost", &GenericKafkaListenerConfigurationBroker::advertised_host,
            Schema::string("The host name or IP address the broker advertises on this listener instead of its own.").max_length(253)),
      field("advertisedPort", &GenericKafkaListenerConfigurationBroker::advertised_port,
            Schema::integer("The port the broker advertises on this listener instead of its own.", "int32").range(1, 65535)),
      field("nodePort", &GenericKafkaListenerConfigurationBroker::node_port,
            Schema::integer("nodeport: the broker Service's node port (unset: the API server allocates one).", "int32").range(1, 65535)));
  return table;
}

const auto& listener_configuration_fields() {
  static const auto table = codec::table<GenericKafkaListenerConfiguration>(
      "Settings of the listener's Services and Ingresses, and of what its brokers advertise.",
      field("bootstrap", &GenericKafkaListenerConfiguration::bootstrap, GenericKafkaListenerConfigurationBootstrap::schema()),
      field("brokers", &GenericKafkaListenerConfiguration::brokers,
            Schema::array(GenericKafkaListenerConfigurationBroker::schema(), "Per-broker settings, by node ID.")
                .max_items(kMaxListenerBrokers)),
      field("class", &GenericKafkaListenerConfiguration::ingress_class,
            Schema::string("ingress: the Ingresses' ingressClassName; loadbalancer: the Services' loadBalancerClass.").max_length(253)),
      field("externalTrafficPolicy", &GenericKafkaListenerConfiguration::external_traffic_policy,
            Schema::string_enum({"Local", "Cluster"}, "loadbalancer and nodeport: the Services' externalTrafficPolicy.")),
      field("loadBalancerSourceRanges", &GenericKafkaListenerConfiguration::load_balancer_source_ranges,
            Schema::array(Schema::string("A CIDR, e.g. 10.0.0.0/8.").max_length(64),
                          "loadbalancer: the CIDRs clients may connect from (the Services' loadBalancerSourceRanges).")
                .max_items(kMaxLoadBalancerSourceRanges)),
      field("preferredNodePortAddressType", &GenericKafkaListenerConfiguration::preferred_node_port_address_type,
            Schema::string_enum({"ExternalIP", "ExternalDNS", "InternalIP", "InternalDNS", "Hostname"},
                                "nodeport: the Node address type a broker advertises first (then ExternalDNS, ExternalIP, Hostname, "
                                "InternalDNS, InternalIP).")));
  return table;
}

const auto& listener_fields() {
  static const auto table = codec::table<GenericKafkaListener>(
      "A listener clients connect to.",
      field("name", &GenericKafkaListener::name,
            Schema::string("Name of the listener: 1-11 lower-case letters and digits.").pattern("^[a-z0-9]{1,11}$").max_length(11))
          .required(),
      field("port", &GenericKafkaListener::port,
            Schema::integer("Port of the listener (9092 or above; 9090 and 9091 are the operator's).", "int32").range(9092, 65535))
          .required(),
      field("type", &GenericKafkaListener::type,
            Schema::string_enum({"internal", "cluster-ip", "loadbalancer", "nodeport", "ingress", "route", "tlsroute"},
                                "internal (the headless and bootstrap Services); cluster-ip, loadbalancer, nodeport (a bootstrap and a "
                                "per-broker Service of that type each); ingress (Ingresses with TLS passthrough to ClusterIP Services). "
                                "route and tlsroute (OpenShift Routes, Gateway API TLSRoutes) are refused: not served."))
          .required(),
      field("tls", &GenericKafkaListener::tls, Schema::boolean("Whether the listener uses TLS.")).required(),
      field("authentication", &GenericKafkaListener::authentication, KafkaListenerAuthentication::schema()),
      field("configuration", &GenericKafkaListener::configuration, GenericKafkaListenerConfiguration::schema()));
  return table;
}

const auto& config_map_key_ref_fields() {
  static const auto table = codec::table<ConfigMapKeyRef>(
      "A key of a ConfigMap in the Kafka's namespace.",
      field("name", &ConfigMapKeyRef::name, Schema::string("The ConfigMap.").min_length(1).max_length(253)).required(),
      field("key", &ConfigMapKeyRef::key, Schema::string("Its key.").pattern("^[-._a-zA-Z0-9]+$").max_length(253)).required());
  return table;
}

const auto& external_reference_fields() {
  static const auto table = codec::table<ExternalConfigurationReference>(
      "Where the configuration is.",
      field("configMapKeyRef", &ExternalConfigurationReference::config_map_key_ref, ConfigMapKeyRef::schema()).required());
  return table;
}

const auto& pod_monitor_fields() {
  static const auto table = codec::table<KafkaPodMonitor>(
      "The PodMonitor made for the cluster's metrics when the monitoring controller runs too (Capstan's).",
      field("enabled", &KafkaPodMonitor::enabled, Schema::boolean("Make it (default true); false removes it.")),
      field("labels", &KafkaPodMonitor::labels,
            Schema::string_map("Labels of the PodMonitor, for the podMonitorSelector of the Prometheus that should scrape the cluster.")
                .max_properties(32)));
  return table;
}

const auto& metrics_config_fields() {
  static const auto table = codec::table<MetricsConfig>(
      "Metrics of the nodes: Prometheus' JMX exporter agent on port 9404 (tcp-prometheus), configured from a ConfigMap key.",
      field("type", &MetricsConfig::type, Schema::string_enum({"jmxPrometheusExporter"}, "The exporter: jmxPrometheusExporter.")).required(),
      field("valueFrom", &MetricsConfig::value_from, ExternalConfigurationReference::schema()).required(),
      field("podMonitor", &MetricsConfig::pod_monitor, KafkaPodMonitor::schema()));
  return table;
}

const auto& rack_fields() {
  static const auto table = codec::table<Rack>(
      "Rack awareness: each broker's broker.rack is the value of a label of the Node its pod runs on (an init container "
      "reads it); the nodes are scheduled only on Nodes with the label, spread over its values where they can be.",
      field("topologyKey", &Rack::topology_key,
            Schema::string("The Node label whose value is the rack, e.g. topology.kubernetes.io/zone.").min_length(1).max_length(317))
          .required());
  return table;
}

const auto& cluster_fields() {
  static const auto table = codec::table<KafkaClusterSpec>(
      "The Kafka brokers and controllers.",
      field("version", &KafkaClusterSpec::version, Schema::string("Kafka version (default 4.1.0).").max_length(32)),
      field("metadataVersion", &KafkaClusterSpec::metadata_version, Schema::string("KRaft metadata version, e.g. 4.1-IV1.").max_length(32)),
      field("image", &KafkaClusterSpec::image, Schema::string("Container image (default: Strimzi's for the version).").max_length(1024)),
      field("listeners", &KafkaClusterSpec::listeners,
            Schema::array(GenericKafkaListener::schema(), "The listeners, unique by name and by port.")
                .list_map({"name"})
                .min_items(1)
                .max_items(16)
                .rule("self.all(l, self.exists_one(m, m.port == l.port))", "listener ports must be unique"))
          .required(),
      field("config", &KafkaClusterSpec::config,
            Schema::open_object("Broker configuration (Kafka properties); the operator's own keys are refused.").max_properties(256)),
      field("metricsConfig", &KafkaClusterSpec::metrics_config, MetricsConfig::schema()),
      field("authorization", &KafkaClusterSpec::authorization, KafkaAuthorization::schema()),
      field("rack", &KafkaClusterSpec::rack, Rack::schema()));
  return table;
}

const auto& certificate_authority_fields() {
  static const auto table = codec::table<CertificateAuthority>(
      "A CA of the cluster (Strimzi's CertificateAuthority), issued by the certificates controller.",
      field("generateCertificateAuthority", &CertificateAuthority::generate_certificate_authority,
            Schema::boolean("Whether the operator generates the CA (default true; a CA of your own, false, is not supported).")),
      field("validityDays", &CertificateAuthority::validity_days,
            Schema::integer("Days the CA's certificate, and those it signs, are valid (default 365).", "int32").range(1, kMaxCaValidityDays)),
      field("renewalDays", &CertificateAuthority::renewal_days,
            Schema::integer("Days before expiry the certificates are renewed (default 30), fewer than validityDays.", "int32")
                .range(1, kMaxCaValidityDays)),
      field("certificateExpirationPolicy", &CertificateAuthority::certificate_expiration_policy,
            Schema::string_enum({expiration_policy::kRenewCertificate, expiration_policy::kReplaceKey},
                                "At renewal, keep the CA's key (renew-certificate, the default) or replace it in the phased CA key "
                                "replacement (replace-key).")));
  return table;
}

const auto& spec_fields() {
  static const auto table = codec::table<KafkaSpec>(
      "The Kafka cluster.", field("kafka", &KafkaSpec::kafka, KafkaClusterSpec::schema()).required(),
      field("clusterCa", &KafkaSpec::cluster_ca, CertificateAuthority::schema().description("The cluster CA: the nodes' certificates.")),
      field("clientsCa", &KafkaSpec::clients_ca,
            CertificateAuthority::schema().description("The clients CA: the certificates of KafkaUsers with TLS authentication.")));
  return table;
}

const auto& address_fields() {
  static const auto table = codec::table<ListenerAddress>("An address of the listener.",
                                                          field("host", &ListenerAddress::host, Schema::string("Host name.")),
                                                          field("port", &ListenerAddress::port, Schema::integer("Port.", "int32")));
  return table;
}

const auto& listener_status_fields() {
  static const auto table = codec::table<ListenerStatus>(
      "How clients reach a listener.", field("name", &ListenerStatus::name, Schema::string("Name of the listener.")),
      field("addresses", &ListenerStatus::addresses, Schema::array(ListenerAddress::schema(), "Addresses of the listener.")),
      field("bootstrapServers", &ListenerStatus::bootstrap_servers, Schema::string("host:port list for the clients' bootstrap.servers.")),
      field("certificates", &ListenerStatus::certificates,
            Schema::array(Schema::string("A PEM certificate.").max_length(16384), "TLS listeners: the CA certificates clients trust (the cluster CA's).")
                .max_items(4)));
  return table;
}

const auto& pool_ref_fields() {
  static const auto table =
      codec::table<UsedNodePoolStatus>("A node pool.", field("name", &UsedNodePoolStatus::name, Schema::string("Its name.")));
  return table;
}

const auto& status_fields() {
  static const auto table = codec::table<KafkaStatus>(
      "The observed state of the cluster.",
      field("conditions", &KafkaStatus::conditions,
            openapi::conditions("Conditions: Ready, NotReady, Warning, ReconciliationPaused.",
                                "Ready, NotReady, Warning, ReconciliationPaused", true)),
      field("observedGeneration", &KafkaStatus::observed_generation, openapi::observed_generation()),
      field("listeners", &KafkaStatus::listeners, Schema::array(ListenerStatus::schema(), "The listeners and their addresses.")),
      field("kafkaNodePools", &KafkaStatus::kafka_node_pools, Schema::array(UsedNodePoolStatus::schema(), "The node pools of the cluster.")),
      field("clusterId", &KafkaStatus::cluster_id, Schema::string("The KRaft cluster ID.")),
      field("kafkaVersion", &KafkaStatus::kafka_version, Schema::string("The Kafka version running.")),
      field("kafkaMetadataVersion", &KafkaStatus::kafka_metadata_version, Schema::string("The KRaft metadata version.")),
      field("operatorLastSuccessfulVersion", &KafkaStatus::operator_last_successful_version,
            Schema::string("Version of the operator that last reconciled it.")));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(KafkaListenerAuthentication, listener_authentication_fields)
CAPSTAN_CODEC_FROM(KafkaAuthorization, authorization_fields)
CAPSTAN_CODEC_FROM(GenericKafkaListenerConfigurationBootstrap, listener_bootstrap_fields)
CAPSTAN_CODEC_FROM(GenericKafkaListenerConfigurationBroker, listener_broker_fields)
CAPSTAN_CODEC_FROM(GenericKafkaListenerConfiguration, listener_configuration_fields)
CAPSTAN_CODEC_FROM(GenericKafkaListener, listener_fields)
CAPSTAN_CODEC_FROM(ConfigMapKeyRef, config_map_key_ref_fields)
CAPSTAN_CODEC_FROM(ExternalConfigurationReference, external_reference_fields)
CAPSTAN_CODEC_FROM(KafkaPodMonitor, pod_monitor_fields)
CAPSTAN_CODEC_FROM(MetricsConfig, metrics_config_fields)
CAPSTAN_CODEC_FROM(Rack, rack_fields)
CAPSTAN_CODEC_FROM(KafkaClusterSpec, cluster_fields)
CAPSTAN_CODEC_FROM(CertificateAuthority, certificate_authority_fields)
CAPSTAN_CODEC_FROM(KafkaSpec, spec_fields)
CAPSTAN_CODEC_FROM(ListenerAddress, address_fields)
CAPSTAN_CODEC_FROM(ListenerStatus, listener_status_fields)
CAPSTAN_CODEC_FROM(UsedNodePoolStatus, pool_ref_fields)
CAPSTAN_CODEC_FROM(KafkaStatus, status_fields)

const GenericKafkaListenerConfigurationBroker* GenericKafkaListenerConfiguration::broker_override(std::int32_t id) const {
  for (const auto& b : brokers)
    if (b.broker == id) return &b;
  return nullptr;
}

std::string KafkaClusterSpec::effective_image() const {
  if (!image.empty()) return image;
  return "quay.io/strimzi/kafka:" + std::string(kStrimziVersion) + "-kafka-" + effective_version();
}

std::string KafkaClusterSpec::effective_metadata_version() const {
  if (!metadata_version.empty()) return metadata_version;
  const KafkaRelease* release = kafka_release(effective_version());
  return std::string(release ? release->metadata_version : kDefaultMetadataVersion);
}

std::map<std::string, std::string> KafkaClusterSpec::properties() const {
  std::map<std::string, std::string> out;
  for (const auto& kv : config) {
    const json::Value& v = kv.value();
    out[std::string(kv.key())] = v.is_string() ? std::string(v.get_string()) : json::serialize(v);
  }
  return out;
}

json::Value kafka_schema() {
  return openapi::root(kApiVersion, "A Kafka cluster in KRaft mode; its nodes come from the KafkaNodePools labelled with its name.",
                       KafkaSpec::schema(), KafkaStatus::schema())
      .json();
}

}  // namespace capstan::apis::kafka::v1
