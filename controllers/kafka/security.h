// A Kafka cluster's certificates, made by the certificates controller (Capstan Certificates and
// Issuers in the cluster's namespace, each controlled by the Kafka), where Strimzi's cluster
// operator makes its own:
//
//   Issuer       <c>-ca-selfsigned       self-signed: signs the two CAs
//   Certificate  <c>-cluster-ca          the cluster CA (isCA), Secret <c>-cluster-ca (tls.crt, tls.key)
//   Issuer       <c>-cluster-ca          signs the nodes' certificates
//   Certificate  <c>-clients-ca          the clients CA, Secret <c>-clients-ca
//   Issuer       <c>-clients-ca          signs the users' certificates
//   Secret       <c>-cluster-ca-cert     ca.crt only: what clients trust (Strimzi's name and key)
//   Secret       <c>-clients-ca-cert     ca.crt only
//   Certificate  <c>-<pool>-<id>         a node's certificate, Secret of the same name (Strimzi's
//                                        per-node Secret): its DNS names, the bootstrap and brokers
//                                        Services', PKCS#8 key, tls-combined.pem for Kafka's PEM
//                                        keystore; server and client auth (the internal listeners
//                                        are mutual TLS)
//   Certificate  <c>-cluster-operator-certs  the operator's client certificate
//
// Strimzi's key Secret <c>-cluster-ca holds only ca.key; here it is the CA Certificate's Secret
// (tls.crt, tls.key, ca.crt), and the public <c>-cluster-ca-cert keeps Strimzi's shape. Every
// Secret carries the cluster's labels, so the controller's label-narrowed Secret cache sees them
// and no other Secret of the cluster is cached.
#pragma once

#include "apis/kafka/v1/types.h"
#include "controllers/kafka/listeners.h"
#include "controllers/kafka/nodes.h"
#include "runtime/json/json.h"

#include <string>
#include <vector>

namespace capstan::cache {
class Informer;
}

namespace capstan::kafka {

// How long the certificates of a CA live, as the certificates controller reads them (Go
// durations): spec.clusterCa / spec.clientsCa's validityDays and renewalDays, Strimzi's defaults
// 365 and 30. The CA's own certificate and those it signs (the nodes' and the operator's for the
// cluster CA, KafkaUsers' for the clients CA) share them, as Strimzi's do.
struct CertificateLifetime {
  std::string duration;      // "8760h"
  std::string renew_before;  // "720h"
};
enum class CaRole { Cluster, Clients };
CertificateLifetime certificate_lifetime(const json::Value& kafka, CaRole ca);
// The CA's renewalDays, and whether its certificateExpirationPolicy is replace-key (ca_replacement.h).
std::int64_t ca_renewal_days(const json::Value& kafka, CaRole ca);
bool replaces_ca_key(const json::Value& kafka, CaRole ca);

std::string cluster_ca_name(std::string_view cluster);       // <c>-cluster-ca
std::string clients_ca_name(std::string_view cluster);       // <c>-clients-ca
std::string ca_cert_secret_name(std::string_view ca_name);  // <ca>-cert

// Where a broker's pod mounts its certificate Secret and the cluster CA's public Secret.
inline constexpr std::string_view kBrokerCertsPath = "/opt/kafka/broker-certs";
inline constexpr std::string_view kClusterCaCertsPath = "/opt/kafka/cluster-ca-certs";
// ... and, with a listener authenticating clients, the clients CA's public Secret.
inline constexpr std::string_view kClientsCaCertsPath = "/opt/kafka/client-ca-certs";
// The CombinedPEM output of the node Certificate: its key then its chain, Kafka's PEM keystore.
inline constexpr std::string_view kKeystoreFile = "tls-combined.pem";

// Whether the cluster serves a listener with TLS.
bool serves_tls(const apis::kafka::v1::KafkaClusterSpec& spec);
// Whether a listener authenticates clients by their certificate of the clients CA.
bool authenticates_clients(const apis::kafka::v1::KafkaClusterSpec& spec);
// Whether the cluster cannot run without the certificates controller: TLS listeners, and
// authorization (which needs the internal listeners' mutual TLS to tell the nodes apart).
bool needs_certificates_controller(const apis::kafka::v1::KafkaClusterSpec& spec);
// The users allowed everything: the nodes' and the operator's certificates' subjects, then the
// spec's superUsers (Kafka's super.users, "User:CN=..;User:..").
std::string super_users(const apis::kafka::v1::KafkaClusterSpec& spec, std::string_view cluster);
// Whether `node` needs its certificate: every node when the internal listeners are mutual TLS,
// else the brokers of a cluster serving TLS.
bool needs_certificate(const apis::kafka::v1::KafkaClusterSpec& spec, const Node& node, bool internal_tls);

// The operator's client certificate for the internal listeners (Strimzi's
// <c>-cluster-operator-certs): from the cluster CA, for client auth. The topic operator and the
// scale-down check use it on the replication listener.
std::string operator_certificate_name(std::string_view cluster);
json::Value operator_certificate(const json::Value& kafka);

// The self-signed Issuer, the two CA Certificates and their Issuers; each CA's common name says
// its key generation (ca_replacement.h).
std::vector<json::Value> ca_objects(const json::Value& kafka, std::int64_t cluster_ca_key_generation = 0,
                                    std::int64_t clients_ca_key_generation = 0);
// The broker's Certificate; `listeners` adds the names of its listeners beyond the internal
// ones (listeners.h listener_certificate_names).
json::Value node_certificate(const json::Value& kafka, const Node& node, const CertificateNames& listeners = {});
// A Certificate `name` (its Secret of the same name, labelled `labels`) controlled by `owner` and
// signed by the Issuer `issuer` of owner's namespace: a PKCS#8 ECDSA P-256 key replaced at each
// renewal, `common_name` the principal Kafka sees, then the `more` spec fields.
json::Value leaf_certificate(const json::Value& owner, const std::string& name, const json::Object& labels, std::string_view common_name,
                             const std::string& issuer, json::Array usages, json::Object more = {});
// The decoded `key` of Secret ns/`name` in the clusters' Secret cache, or "".
std::string cached_secret_value(const cache::Informer& secrets, std::string_view ns, std::string_view name, std::string_view key);
// The public Secret <ca>-cert of the CA whose certificate is `ca_pem`.
json::Value ca_cert_secret(const json::Value& kafka, std::string_view ca_name, const std::string& ca_pem);

}  // namespace capstan::kafka
