#include "controllers/kafka/security.h"

#include "apis/certs/v1/group.h"
#include "controllers/kafka/ca_replacement.h"
#include "controllers/kafka/objects.h"
#include "runtime/cache/informer.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"

#include <algorithm>

namespace capstan::kafka {
namespace {

std::string selfsigned_issuer_name(std::string_view cluster) { return std::string(cluster) + "-ca-selfsigned"; }

json::Object typed(std::string_view kind, json::Object metadata) {
  return json::Object{{"apiVersion", apis::certs::v1::kApiVersion}, {"kind", kind}, {"metadata", std::move(metadata)}};
}

json::Object issuer_ref(std::string name) { return json::Object{{"name", std::move(name)}, {"kind", "Issuer"}}; }

json::Object secret_template(json::Object labels) {
  labels.erase("app.kubernetes.io/managed-by");  // the certificates controller writes the Secret
  return json::Object{{"labels", std::move(labels)}};
}

const json::Value* ca_spec(const json::Value& kafka, CaRole ca) {
  return json::find(kafka, {"spec", ca == CaRole::Cluster ? "clusterCa" : "clientsCa"});
}
std::int64_t validity_days(const json::Value* ca) {
  return ca ? json::get_int(*ca, {"validityDays"}).value_or(apis::kafka::v1::kDefaultCaValidityDays) : apis::kafka::v1::kDefaultCaValidityDays;
}
std::int64_t renewal_days(const json::Value* ca) {
  return ca ? json::get_int(*ca, {"renewalDays"}).value_or(apis::kafka::v1::kDefaultCaRenewalDays) : apis::kafka::v1::kDefaultCaRenewalDays;
}

json::Value ca_certificate(const json::Value& kafka, CaRole role, const std::string& name, std::string_view common_name) {
  const std::string cluster(meta::name_of(kafka));
  CertificateLifetime lifetime = certificate_lifetime(kafka, role);
  // replace-key: the Kafka controller replaces the key when the renewal window opens
  // (ca_replacement.h); the certificates controller's own renewal, which keeps the key, comes
  // only halfway through the window, should the Kafka controller not have run by then.
  if (replaces_ca_key(kafka, role)) lifetime.renew_before = std::to_string(ca_renewal_days(kafka, role) * 12) + "h";
  auto o = typed("Certificate", owned_metadata(kafka, name, cluster_labels(cluster)));
  o["spec"] = json::Object{{"isCA", true},
                           {"commonName", common_name},
                           {"subject", json::Object{{"organizations", json::Array{"capstan.dev"}}}},
                           {"secretName", name},
                           {"secretTemplate", secret_template(cluster_labels(cluster))},
                           {"duration", lifetime.duration},
                           {"renewBefore", lifetime.renew_before},
                           // A renewal keeps the key (and the subject): certificates the CA signed before stay
                           // valid under the renewed CA certificate, so nodes and clients never lose trust.
                           // Replacing the key is Strimzi's phased CA key replacement (ca_replacement.h).
                           {"privateKey", json::Object{{"algorithm", "ECDSA"}, {"size", 256}, {"rotationPolicy", "Never"}}},
                           {"issuerRef", issuer_ref(selfsigned_issuer_name(cluster))}};
  return o;
}

json::Value ca_issuer(const json::Value& kafka, const std::string& name) {
  const std::string cluster(meta::name_of(kafka));
  auto o = typed("Issuer", owned_metadata(kafka, name, cluster_labels(cluster)));
  o["spec"] = json::Object{{"ca", json::Object{{"secretName", name}}}};
  return o;
}

// A name with the forms a client inside the cluster may use: short, namespaced, .svc and the
// cluster domain.
void add_service_names(json::Array& out, const std::string& service, std::string_view ns) {
  for (const std::string& n : {service, service + "." + std::string(ns), service + "." + std::string(ns) + ".svc",
                               service + "." + std::string(ns) + ".svc.cluster.local"})
    out.push_back(json::Value(n));
}

}  // namespace

json::Value leaf_certificate(const json::Value& owner, const std::string& name, const json::Object& labels, std::string_view common_name,
                             const std::string& issuer, json::Array usages, json::Object more) {
  auto o = typed("Certificate", owned_metadata(owner, name, labels));
  json::Object spec{{"commonName", common_name},
                    {"secretName", name},
                    {"secretTemplate", secret_template(labels)},
                    {"usages", std::move(usages)},
                    // Kafka's PEM keystore and librdkafka read a PKCS#8 key.
                    {"privateKey", json::Object{{"algorithm", "ECDSA"}, {"size", 256}, {"encoding", "PKCS8"}, {"rotationPolicy", "Always"}}},
                    {"issuerRef", issuer_ref(issuer)}};
  for (auto& kv : more) spec[kv.key()] = std::move(kv.value());
  o["spec"] = std::move(spec);
  return o;
}

std::int64_t ca_renewal_days(const json::Value& kafka, CaRole ca) { return renewal_days(ca_spec(kafka, ca)); }

bool replaces_ca_key(const json::Value& kafka, CaRole ca) {
  const json::Value* spec = ca_spec(kafka, ca);
  return spec && json::get_string(*spec, {"certificateExpirationPolicy"}) == apis::kafka::v1::expiration_policy::kReplaceKey;
}

CertificateLifetime certificate_lifetime(const json::Value& kafka, CaRole ca) {
  const json::Value* spec = ca_spec(kafka, ca);
  return {std::to_string(validity_days(spec) * 24) + "h", std::to_string(renewal_days(spec) * 24) + "h"};
}

std::string cluster_ca_name(std::string_view cluster) { return std::string(cluster) + "-cluster-ca"; }
std::string clients_ca_name(std::string_view cluster) { return std::string(cluster) + "-clients-ca"; }
std::string ca_cert_secret_name(std::string_view ca_name) { return std::string(ca_name) + "-cert"; }

bool serves_tls(const apis::kafka::v1::KafkaClusterSpec& spec) {
  return std::any_of(spec.listeners.begin(), spec.listeners.end(), [](const auto& l) { return l.tls; });
}

bool authenticates_clients(const apis::kafka::v1::KafkaClusterSpec& spec) {
  return std::any_of(spec.listeners.begin(), spec.listeners.end(), [](const auto& l) { return l.authentication && l.authentication->type == "tls"; });
}

bool needs_certificates_controller(const apis::kafka::v1::KafkaClusterSpec& spec) { return serves_tls(spec) || spec.authorization; }

std::string super_users(const apis::kafka::v1::KafkaClusterSpec& spec, std::string_view cluster) {
  // The subjects are the common names alone (no organization), so the principals are exact.
  std::string out = "User:CN=" + std::string(cluster) + "-kafka;User:CN=cluster-operator";
  if (spec.authorization)
    for (const auto& u : spec.authorization->super_users) out += ";User:" + u;
  return out;
}

bool needs_certificate(const apis::kafka::v1::KafkaClusterSpec& spec, const Node& node, bool internal_tls) {
  return internal_tls || (node.broker && serves_tls(spec));
}

std::string operator_certificate_name(std::string_view cluster) { return std::string(cluster) + "-cluster-operator-certs"; }

json::Value operator_certificate(const json::Value& kafka) {
  const std::string cluster(meta::name_of(kafka));
  const std::string name = operator_certificate_name(cluster);
  // The principal User:CN=cluster-operator.
  const CertificateLifetime lifetime = certificate_lifetime(kafka, CaRole::Cluster);
  return leaf_certificate(kafka, name, cluster_labels(cluster), "cluster-operator", cluster_ca_name(cluster),
                          json::Array{"client auth", "digital signature"},
                          {{"duration", lifetime.duration}, {"renewBefore", lifetime.renew_before}});
}

std::vector<json::Value> ca_objects(const json::Value& kafka, std::int64_t cluster_ca_key_generation, std::int64_t clients_ca_key_generation) {
  const std::string cluster(meta::name_of(kafka));
  auto selfsigned = typed("Issuer", owned_metadata(kafka, selfsigned_issuer_name(cluster), cluster_labels(cluster)));
  selfsigned["spec"] = json::Object{{"selfSigned", json::Object{}}};
  return {selfsigned,
          ca_certificate(kafka, CaRole::Cluster, cluster_ca_name(cluster), ca_common_name("cluster-ca", cluster_ca_key_generation)),
          ca_issuer(kafka, cluster_ca_name(cluster)),
          ca_certificate(kafka, CaRole::Clients, clients_ca_name(cluster), ca_common_name("clients-ca", clients_ca_key_generation)),
          ca_issuer(kafka, clients_ca_name(cluster))};
}

json::Value node_certificate(const json::Value& kafka, const Node& node, const CertificateNames& listeners) {
  const std::string cluster(meta::name_of(kafka));
  const std::string ns(meta::namespace_of(kafka));
  const std::string name = node.pod_name(cluster);
  json::Array dns{json::Value(node_host(cluster, ns, node)), json::Value(node_host(cluster, ns, node) + ".cluster.local")};
  add_service_names(dns, bootstrap_service_name(cluster), ns);
  add_service_names(dns, brokers_service_name(cluster), ns);
  for (const auto& n : listeners.dns_names)
    if (std::find(dns.begin(), dns.end(), json::Value(n)) == dns.end()) dns.push_back(json::Value(n));
  const CertificateLifetime lifetime = certificate_lifetime(kafka, CaRole::Cluster);
  json::Object more{{"dnsNames", std::move(dns)},
                    {"duration", lifetime.duration},
                    {"renewBefore", lifetime.renew_before},
                    {"additionalOutputFormats", json::Array{json::Object{{"type", "CombinedPEM"}}}}};
  if (!listeners.ip_addresses.empty()) {
    json::Array ips;
    for (const auto& ip : listeners.ip_addresses) ips.emplace_back(ip);
    more["ipAddresses"] = std::move(ips);
  }
  // The principal User:CN=<c>-kafka; CombinedPEM is the key followed by the chain, Kafka's PEM keystore.
  return leaf_certificate(kafka, name, node_labels(cluster, node), cluster + "-kafka", cluster_ca_name(cluster),
                          json::Array{"server auth", "client auth", "digital signature"}, std::move(more));
}

std::string cached_secret_value(const cache::Informer& secrets, std::string_view ns, std::string_view name, std::string_view key) {
  auto secret = secrets.get(ns, name);
  if (!secret) return "";
  const json::Value value = secret->value();
  return meta::base64_decode(json::get_string(value, {"data", key})).value_or("");
}

json::Value ca_cert_secret(const json::Value& kafka, std::string_view ca_name, const std::string& ca_pem) {
  const std::string cluster(meta::name_of(kafka));
  return json::Object{{"apiVersion", "v1"},
                      {"kind", "Secret"},
                      {"metadata", owned_metadata(kafka, ca_cert_secret_name(ca_name), cluster_labels(cluster))},
                      {"type", "Opaque"},
                      {"data", json::Object{{"ca.crt", meta::base64_encode(ca_pem)}}}};
}

}  // namespace capstan::kafka
