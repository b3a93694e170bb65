#include "controllers/kafka/nodes.h"

#include "controllers/kafka/listeners.h"
#include "controllers/kafka/rack.h"
#include "controllers/kafka/security.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/random.h"


#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

namespace capstan::kafka {
namespace {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

// Strimzi's listener names in Kafka's configuration: "<NAME>-<PORT>".
std::string listener_name(const apis::kafka::v1::GenericKafkaListener& l) { return upper(l.name) + "-" + std::to_string(l.port); }
// ... as the prefix listener.name.<name>. spells it.
std::string name_lower(const apis::kafka::v1::GenericKafkaListener& l) { return l.name + "-" + std::to_string(l.port); }

}  // namespace

std::map<std::string, std::vector<std::int32_t>> assign_node_ids(const std::vector<PoolNodes>& pools) {
  std::map<std::string, std::vector<std::int32_t>> out;
  std::set<std::int32_t> used;
  for (const auto& p : pools) {
    auto ids = p.current;
    std::sort(ids.begin(), ids.end());
    if (static_cast<std::int32_t>(ids.size()) > p.replicas) ids.resize(static_cast<std::size_t>(std::max(0, p.replicas)));
    out[p.name] = ids;
    used.insert(ids.begin(), ids.end());
  }
  for (const auto& p : pools) {
    auto& ids = out[p.name];
    for (std::int32_t next = 0; static_cast<std::int32_t>(ids.size()) < p.replicas; ++next) {
      if (used.contains(next)) continue;
      ids.push_back(next);
      used.insert(next);
    }
    std::sort(ids.begin(), ids.end());
  }
  return out;
}

std::string Node::pod_name(std::string_view cluster) const { return std::string(cluster) + "-" + pool + "-" + std::to_string(id); }

std::string new_cluster_id() {
  for (;;) {
    const std::string bytes = pki::random_bytes(16);
    const bool reserved = std::all_of(bytes.begin(), bytes.begin() + 15, [](char b) { return b == 0; }) &&
                          static_cast<unsigned char>(bytes[15]) <= 1;
    std::string id = meta::base64url_encode(bytes);
    if (!reserved && id.front() != '-') return id;
  }
}

std::string node_host(std::string_view cluster, std::string_view ns, const Node& node) {
  return node.pod_name(cluster) + "." + std::string(cluster) + "-kafka-brokers." + std::string(ns) + ".svc";
}

std::string server_config(const apis::kafka::v1::KafkaClusterSpec& spec, std::string_view cluster, std::string_view ns, const Node& node,
                          const std::vector<Node>& all, bool internal_tls, const ListenerAddresses* addresses) {
  std::string roles = node.broker && node.controller ? "broker,controller" : node.broker ? "broker" : "controller";
  std::string voters;
  for (const auto& n : all)
    if (n.controller) voters += (voters.empty() ? "" : ",") + std::to_string(n.id) + "@" + node_host(cluster, ns, n) + ":9090";

  std::string listeners, advertised,
      protocols = internal_tls ? "CONTROLPLANE-9090:SSL,REPLICATION-9091:SSL" : "CONTROLPLANE-9090:PLAINTEXT,REPLICATION-9091:PLAINTEXT";
  if (node.controller) listeners = "CONTROLPLANE-9090://0.0.0.0:9090";
  if (node.broker) {
    listeners += std::string(listeners.empty() ? "" : ",") + "REPLICATION-9091://0.0.0.0:9091";
    advertised = "REPLICATION-9091://" + node_host(cluster, ns, node) + ":9091";
    for (const auto& l : spec.listeners) {
      listeners += "," + listener_name(l) + "://0.0.0.0:" + std::to_string(l.port);
      if (!addresses) {
        advertised += "," + listener_name(l) + "://" + node_host(cluster, ns, node) + ":" + std::to_string(l.port);
      } else if (const Address* a = addresses->advertised(l.name, node.id)) {
        // An IPv6 address in brackets, as Kafka's listener URIs need it.
        const std::string host = a->host.find(':') != std::string::npos ? "[" + a->host + "]" : a->host;
        advertised += "," + listener_name(l) + "://" + host + ":" + std::to_string(a->port);
      }
    }
  }
  for (const auto& l : spec.listeners) {
    const bool sasl = l.authentication && l.authentication->type == "scram-sha-512";
    protocols += "," + listener_name(l) + ":" + (sasl ? "SASL_" : "") + (l.tls ? "SSL" : "PLAINTEXT");
  }

  std::string out;
  out += "##############################\n# Node configuration (set by Capstan)\n##############################\n";
  out += "node.id=" + std::to_string(node.id) + "\n";
  out += "process.roles=" + roles + "\n";
  out += "controller.listener.names=CONTROLPLANE-9090\n";
  out += "controller.quorum.voters=" + voters + "\n";
  out += "listeners=" + listeners + "\n";
  if (!advertised.empty()) out += "advertised.listeners=" + advertised + "\n";
  out += "listener.security.protocol.map=" + protocols + "\n";
  if (node.broker) out += "inter.broker.listener.name=REPLICATION-9091\n";
  // Kafka's listener prefixes are lower case; the keystore is the node Certificate's CombinedPEM.
  const std::string keystore = std::string(kBrokerCertsPath) + "/" + std::string(kKeystoreFile);
  if (internal_tls)
    for (const char* internal : {"controlplane-9090", "replication-9091"}) {
      // The same settings make the listener's server side and the node's client side (quorum
      // and replication connections to its peers).
      const std::string prefix = std::string("listener.name.") + internal + ".ssl.";
      out += prefix + "client.auth=required\n";
      out += prefix + "endpoint.identification.algorithm=HTTPS\n";
      out += prefix + "keystore.location=" + keystore + "\n";
      out += prefix + "keystore.type=PEM\n";
      out += prefix + "truststore.location=" + std::string(kClusterCaCertsPath) + "/ca.crt\n";
      out += prefix + "truststore.type=PEM\n";
    }
  if (node.broker)
    for (const auto& l : spec.listeners) {
      const std::string type = l.authentication ? l.authentication->type : "";
      if (type == "scram-sha-512") {  // users' credentials are the user operator's (SCRAM-SHA-512 only)
        out += "listener.name." + name_lower(l) + ".sasl.enabled.mechanisms=SCRAM-SHA-512\n";
        out += "listener.name." + name_lower(l) + ".scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;\n";
      }
      if (!l.tls) continue;
      const std::string prefix = "listener.name." + name_lower(l) + ".ssl.";
      if (type == "tls") out += prefix + "client.auth=required\n";
      out += prefix + "keystore.location=" + keystore + "\n";
      out += prefix + "keystore.type=PEM\n";
      if (type == "tls") {  // clients present a certificate of the clients CA
        out += prefix + "truststore.location=" + std::string(kClientsCaCertsPath) + "/ca.crt\n";
        out += prefix + "truststore.type=PEM\n";
        // The nodes' and the operator's principals are the cluster CA's to give: a client
        // certificate naming them is someone else.
        out += prefix + "principal.mapping.rules=RULE:^(CN=" + std::string(cluster) + "-kafka|CN=cluster-operator)$/forged:$1/,DEFAULT\n";
      }
    }
  if (spec.authorization) {
    out += "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer\n";
    out += "super.users=" + super_users(spec, cluster) + "\n";
  }
  out += log_dirs_config(node.volumes, node.id);
  auto properties = spec.properties();
  if (spec.rack) {  // the rack line declares its config provider after the user's own (theirs kept)
    const std::string user_providers = properties.contains("config.providers") ? properties["config.providers"] : "";
    if (const std::string rack = rack_config(node, user_providers); !rack.empty()) {
      out += rack;
      properties.erase("config.providers");
    }
  }
  if (!properties.empty()) {
    out += "##############################\n# User configuration (spec.kafka.config)\n##############################\n";
    for (const auto& [k, v] : properties) out += k + "=" + v + "\n";
  }
  return out;
}

}  // namespace capstan::kafka
