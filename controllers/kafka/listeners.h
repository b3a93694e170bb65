// The listeners of a Kafka cluster beyond the internal ones, as Strimzi exposes them: every
// listener of type cluster-ip, loadbalancer, nodeport or ingress gets
//
//   Service  <c>-kafka-<listener>-bootstrap   the listener's brokers (ClusterIP, LoadBalancer or
//                                             NodePort as the type says; ClusterIP for ingress)
//   Service  <c>-<pool>-<listener>-<id>       one per broker, selecting that broker's pod
//   Ingress  the same two names               ingress only: TLS passthrough to the Services
//                                             (ingress-nginx's ssl-passthrough), host from
//                                             configuration.bootstrap.host / brokers[].host
//
// and each broker advertises on the listener (configuration.brokers[].advertisedHost and
// advertisedPort override either part, for every type):
//
//   internal      <pod>.<c>-kafka-brokers.<ns>.svc:<port>
//   cluster-ip    <its Service>.<ns>.svc:<port>
//   loadbalancer  its Service's status.loadBalancer.ingress[0] hostname (else ip):<port>
//   nodeport      the address of the Node its pod runs on (preferredNodePortAddressType, then
//                 ExternalDNS, ExternalIP, Hostname, InternalDNS, InternalIP, as Strimzi's
//                 NodeUtils):<its Service's nodePort>
//   ingress       <brokers[].host>:443
//
// An address not known yet (no load balancer address, no node, no nodePort allocated) is not
// advertised: the listener is left out of the broker's advertised.listeners and the address is
// reported pending (the Kafka is NotReady naming the Service) until it is.
#pragma once

#include "apis/kafka/v1/types.h"
#include "controllers/kafka/nodes.h"
#include "runtime/json/json.h"

#include <map>
#include <string>
#include <vector>

namespace capstan::kafka {

inline constexpr std::int32_t kIngressPort = 443;

// <c>-kafka-<listener>-bootstrap
std::string listener_bootstrap_name(std::string_view cluster, const apis::kafka::v1::GenericKafkaListener& listener);
// <c>-<pool>-<listener>-<id>
std::string listener_broker_name(std::string_view cluster, const Node& node, const apis::kafka::v1::GenericKafkaListener& listener);

// The Services of the listeners with their own (bootstrap and one per broker of `nodes`).
std::vector<json::Value> listener_services(const json::Value& kafka, const apis::kafka::v1::KafkaClusterSpec& spec,
                                           const std::vector<Node>& nodes);
// The Ingresses of the ingress listeners (bootstrap and one per broker of `nodes`).
std::vector<json::Value> listener_ingresses(const json::Value& kafka, const apis::kafka::v1::KafkaClusterSpec& spec,
                                            const std::vector<Node>& nodes);

// The address of a Node (its status.addresses) a nodeport listener advertises: the `preferred`
// type when it has one, else ExternalDNS, ExternalIP, Hostname, InternalDNS, InternalIP; "" when
// it has none of them.
std::string node_address(const json::Value& node, std::string_view preferred);

struct Address {
  std::string host;
  std::int32_t port = 0;
  bool operator==(const Address&) const = default;
};

// What the addresses depend on, as live: the cluster's Services by name, each pod's Node
// (spec.nodeName) by pod name, and the Nodes by name.
//
// A broker whose pod is not on a Node (between a roll's delete and the new pod's scheduling)
// keeps the nodeport host its node's current server.config advertises (`configs`, by pod name):
// dropping it would change the configuration and roll the new pod again.
struct LiveState {
  std::map<std::string, json::Value> services;
  std::map<std::string, std::string> pod_nodes;
  std::map<std::string, json::Value> nodes;
  std::map<std::string, std::string> configs;
};

// The host `config` (a server.config) advertises for Kafka listener `name` ("NP-9095"), or "".
std::string advertised_host_in(const std::string& config, const std::string& name);

struct ListenerAddresses {
  // listener name -> node ID -> what the broker advertises (absent: not known yet).
  std::map<std::string, std::map<std::int32_t, Address>> brokers;
  // listener name -> the addresses of its bootstrap for status.listeners (absent: not known yet).
  std::map<std::string, std::vector<Address>> bootstrap;
  // What is not known yet, each naming its Service or Node.
  std::vector<std::string> pending;

  const Address* advertised(const std::string& listener, std::int32_t id) const;
};

// The addresses of every listener of `spec` for the brokers among `nodes`.
ListenerAddresses resolve_listener_addresses(const apis::kafka::v1::KafkaClusterSpec& spec, std::string_view cluster, std::string_view ns,
                                             const std::vector<Node>& nodes, const LiveState& live);

// The names a broker's certificate carries for its listeners beyond the internal ones: its
// per-broker and the bootstrap Services' names, the Ingress hosts, and what it advertises (IP
// addresses separately).
struct CertificateNames {
  std::vector<std::string> dns_names, ip_addresses;
};
CertificateNames listener_certificate_names(const apis::kafka::v1::KafkaClusterSpec& spec, std::string_view cluster, std::string_view ns,
                                            const Node& node, const ListenerAddresses& addresses);

}  // namespace capstan::kafka
