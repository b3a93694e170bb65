// The listeners' Services, Ingresses and advertised addresses per type (listeners.h).
#include "controllers/kafka/listeners.h"
#include "controllers/kafka/nodes.h"
#include "controllers/kafka/objects.h"
#include "controllers/kafka/security.h"

#include "apis/kafka/v1/group.h"
#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::kafka {
namespace {

namespace v1 = apis::kafka::v1;

json::Value kafka_object(const std::string& spec_kafka) {
  return json::from_yaml(R"(apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: events, namespace: data, uid: 6c1c8a7e-0000-4000-8000-000000000001}
spec:
  kafka:
)" + spec_kafka);
}

v1::KafkaClusterSpec spec_of(const json::Value& kafka) { return v1::Kafka::from_json(kafka).spec.kafka; }

const std::vector<Node> kNodes{{0, "ctl", false, true}, {1, "brk", true, false}, {2, "brk", true, false}};

// name -> object
std::map<std::string, json::Value> by_name(const std::vector<json::Value>& objects) {
  std::map<std::string, json::Value> out;
  for (const auto& o : objects) out[std::string(json::get_string(o, {"metadata", "name"}))] = o;
  return out;
}

std::string str(const json::Value& v, std::initializer_list<std::string_view> path) { return std::string(json::get_string(v, path)); }

const char* kAllTypes = R"(    listeners:
      - {name: plain, port: 9092, type: internal, tls: false}
      - {name: cip, port: 9093, type: cluster-ip, tls: false}
      - name: lb
        port: 9094
        type: loadbalancer
        tls: false
        configuration: {class: metallb, externalTrafficPolicy: Local, loadBalancerSourceRanges: [10.0.0.0/8]}
      - name: np
        port: 9095
        type: nodeport
        tls: false
        configuration:
          bootstrap: {nodePort: 32000}
          brokers: [{broker: 1, nodePort: 32001}]
      - name: ing
        port: 9096
        type: ingress
        tls: true
        configuration:
          class: nginx
          bootstrap: {host: bootstrap.example.com}
          brokers: [{broker: 1, host: b1.example.com}, {broker: 2, host: b2.example.com, advertisedPort: 8443}]
)";

TEST(KafkaListenerObjects, ServicesPerTypeWithStrimzisNames) {
  const auto kafka = kafka_object(kAllTypes);
  auto services = by_name(listener_services(kafka, spec_of(kafka), kNodes));
  // internal has none of its own; the others a bootstrap and one per broker (not the controller).
  std::set<std::string> names;
  for (const auto& [n, _] : services) names.insert(n);
  EXPECT_EQ(names, (std::set<std::string>{"events-kafka-cip-bootstrap", "events-brk-cip-1", "events-brk-cip-2",
                                          "events-kafka-lb-bootstrap", "events-brk-lb-1", "events-brk-lb-2",
                                          "events-kafka-np-bootstrap", "events-brk-np-1", "events-brk-np-2",
                                          "events-kafka-ing-bootstrap", "events-brk-ing-1", "events-brk-ing-2"}));
  EXPECT_EQ(str(services["events-brk-cip-1"], {"spec", "type"}), "ClusterIP");
  EXPECT_EQ(str(services["events-kafka-lb-bootstrap"], {"spec", "type"}), "LoadBalancer");
  EXPECT_EQ(str(services["events-brk-np-2"], {"spec", "type"}), "NodePort");
  EXPECT_EQ(str(services["events-brk-ing-1"], {"spec", "type"}), "ClusterIP");

  const auto& one = services["events-brk-lb-2"];
  EXPECT_EQ(str(one, {"spec", "selector", "kafka.capstan.dev/pod-name"}), "events-brk-2");
  EXPECT_EQ(str(one, {"spec", "selector", "kafka.capstan.dev/cluster"}), "events");
  EXPECT_EQ(json::find(one, {"spec", "selector", "app.kubernetes.io/managed-by"}), nullptr);
  EXPECT_EQ(str(one, {"spec", "externalTrafficPolicy"}), "Local");
  EXPECT_EQ(str(one, {"spec", "loadBalancerClass"}), "metallb");
  EXPECT_EQ(json::serialize(*json::find(one, {"spec", "loadBalancerSourceRanges"})), R"(["10.0.0.0/8"])");
  EXPECT_EQ(json::serialize(*json::find(one, {"spec", "ports"})), R"([{"name":"tcp-lb","port":9094,"protocol":"TCP","targetPort":9094}])");
  EXPECT_EQ(str(one, {"metadata", "labels", "app.kubernetes.io/managed-by"}), "capstan-kafka");
  const json::Array* owners = json::get_array(one, {"metadata", "ownerReferences"});
  ASSERT_TRUE(owners && owners->size() == 1);
  EXPECT_EQ(str((*owners)[0], {"uid"}), "6c1c8a7e-0000-4000-8000-000000000001");
  EXPECT_TRUE(json::get_bool((*owners)[0], {"controller"}));

  const auto& bootstrap = services["events-kafka-np-bootstrap"];
  EXPECT_EQ(str(bootstrap, {"spec", "selector", "kafka.capstan.dev/broker-role"}), "true");
  EXPECT_EQ(json::get_int((*json::get_array(bootstrap, {"spec", "ports"}))[0], {"nodePort"}).value_or(0), 32000);
  EXPECT_EQ(json::get_int((*json::get_array(services["events-brk-np-1"], {"spec", "ports"}))[0], {"nodePort"}).value_or(0), 32001);
  EXPECT_FALSE(json::get_int((*json::get_array(services["events-brk-np-2"], {"spec", "ports"}))[0], {"nodePort"}).has_value())
      << "unset: allocated by the API server";
  EXPECT_EQ(json::find(services["events-brk-cip-1"], {"spec", "externalTrafficPolicy"}), nullptr);
}

TEST(KafkaListenerObjects, IngressesPassTlsThroughToTheServices) {
  const auto kafka = kafka_object(kAllTypes);
  auto ingresses = by_name(listener_ingresses(kafka, spec_of(kafka), kNodes));
  ASSERT_EQ(ingresses.size(), 3u);
  const auto& b1 = ingresses.at("events-brk-ing-1");
  EXPECT_EQ(str(b1, {"apiVersion"}), "networking.k8s.io/v1");
  EXPECT_EQ(str(b1, {"metadata", "annotations", "nginx.ingress.kubernetes.io/ssl-passthrough"}), "true");
  EXPECT_EQ(str(b1, {"metadata", "annotations", "nginx.ingress.kubernetes.io/backend-protocol"}), "HTTPS");
  EXPECT_EQ(str(b1, {"spec", "ingressClassName"}), "nginx");
  EXPECT_EQ(json::serialize(*json::find(b1, {"spec", "rules"})),
            R"([{"host":"b1.example.com","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"events-brk-ing-1","port":{"number":9096}}}}]}}])");
  EXPECT_EQ(json::serialize(*json::find(b1, {"spec", "tls"})), R"([{"hosts":["b1.example.com"]}])");
  EXPECT_EQ(str((*json::get_array(ingresses.at("events-kafka-ing-bootstrap"), {"spec", "rules"}))[0], {"host"}), "bootstrap.example.com");
}

json::Value lb_service(const std::string& ip, const std::string& hostname = "") {
  json::Object ingress;
  if (!ip.empty()) ingress["ip"] = ip;
  if (!hostname.empty()) ingress["hostname"] = hostname;
  return json::Object{{"status", json::Object{{"loadBalancer", json::Object{{"ingress", json::Array{std::move(ingress)}}}}}}};
}

json::Value np_service(std::int64_t node_port) {
  return json::Object{{"spec", json::Object{{"ports", json::Array{json::Object{{"port", 9095}, {"nodePort", node_port}}}}}}};
}

json::Value node(std::initializer_list<std::pair<const char*, const char*>> addresses) {
  json::Array a;
  for (const auto& [t, v] : addresses) a.push_back(json::Object{{"type", t}, {"address", v}});
  return json::Object{{"status", json::Object{{"addresses", std::move(a)}}}};
}

LiveState all_known() {
  LiveState live;
  live.services["events-kafka-lb-bootstrap"] = lb_service("192.0.2.10");
  live.services["events-brk-lb-1"] = lb_service("192.0.2.11");
  live.services["events-brk-lb-2"] = lb_service("192.0.2.12", "lb2.example.com");
  live.services["events-kafka-np-bootstrap"] = np_service(32000);
  live.services["events-brk-np-1"] = np_service(32001);
  live.services["events-brk-np-2"] = np_service(32002);
  live.pod_nodes = {{"events-brk-1", "node-a"}, {"events-brk-2", "node-b"}};
  live.nodes["node-a"] = node({{"InternalIP", "10.0.0.1"}, {"ExternalIP", "203.0.113.1"}});
  live.nodes["node-b"] = node({{"InternalIP", "10.0.0.2"}, {"Hostname", "node-b"}});
  return live;
}

TEST(KafkaListenerAddresses, AdvertisedPerType) {
  const auto kafka = kafka_object(kAllTypes);
  const auto spec = spec_of(kafka);
  const auto addresses = resolve_listener_addresses(spec, "events", "data", kNodes, all_known());
  EXPECT_TRUE(addresses.pending.empty()) << addresses.pending.front();
  EXPECT_EQ(addresses.advertised("plain", 1)->host, "events-brk-1.events-kafka-brokers.data.svc");
  EXPECT_EQ(*addresses.advertised("cip", 2), (Address{"events-brk-cip-2.data.svc", 9093}));
  EXPECT_EQ(*addresses.advertised("lb", 1), (Address{"192.0.2.11", 9094}));
  EXPECT_EQ(*addresses.advertised("lb", 2), (Address{"lb2.example.com", 9094})) << "the hostname before the ip";
  EXPECT_EQ(*addresses.advertised("np", 1), (Address{"203.0.113.1", 32001})) << "ExternalIP before InternalIP";
  EXPECT_EQ(*addresses.advertised("np", 2), (Address{"node-b", 32002})) << "Hostname before InternalIP";
  EXPECT_EQ(*addresses.advertised("ing", 1), (Address{"b1.example.com", 443}));
  EXPECT_EQ(*addresses.advertised("ing", 2), (Address{"b2.example.com", 8443})) << "advertisedPort overrides";
  EXPECT_EQ(addresses.advertised("lb", 0), nullptr) << "controllers advertise no client listener";

  EXPECT_EQ(addresses.bootstrap.at("plain"), (std::vector<Address>{{"events-kafka-bootstrap.data.svc", 9092}}));
  EXPECT_EQ(addresses.bootstrap.at("cip"), (std::vector<Address>{{"events-kafka-cip-bootstrap.data.svc", 9093}}));
  EXPECT_EQ(addresses.bootstrap.at("lb"), (std::vector<Address>{{"192.0.2.10", 9094}}));
  EXPECT_EQ(addresses.bootstrap.at("np"), (std::vector<Address>{{"203.0.113.1", 32000}, {"node-b", 32000}}));
  EXPECT_EQ(addresses.bootstrap.at("ing"), (std::vector<Address>{{"bootstrap.example.com", 443}}));

  const std::string config = server_config(spec, "events", "data", kNodes[1], kNodes, false, &addresses);
  const std::string want =
      "advertised.listeners=REPLICATION-9091://events-brk-1.events-kafka-brokers.data.svc:9091,"
      "PLAIN-9092://events-brk-1.events-kafka-brokers.data.svc:9092,CIP-9093://events-brk-cip-1.data.svc:9093,"
      "LB-9094://192.0.2.11:9094,NP-9095://203.0.113.1:32001,ING-9096://b1.example.com:443\n";
  EXPECT_NE(config.find(want), std::string::npos) << config;
}

TEST(KafkaListenerAddresses, OverridesAndPreferredNodeAddressType) {
  const auto kafka = kafka_object(R"(    listeners:
      - name: np
        port: 9095
        type: nodeport
        tls: false
        configuration:
          preferredNodePortAddressType: InternalIP
          brokers: [{broker: 2, advertisedHost: kafka-2.example.com, advertisedPort: 19092}]
      - name: cip
        port: 9093
        type: cluster-ip
        tls: false
        configuration: {brokers: [{broker: 1, advertisedHost: 198.51.100.7}]}
)");
  const auto addresses = resolve_listener_addresses(spec_of(kafka), "events", "data", kNodes, all_known());
  EXPECT_EQ(*addresses.advertised("np", 1), (Address{"10.0.0.1", 32001})) << "the preferred type first";
  EXPECT_EQ(*addresses.advertised("np", 2), (Address{"kafka-2.example.com", 19092}));
  EXPECT_EQ(*addresses.advertised("cip", 1), (Address{"198.51.100.7", 9093}));
  EXPECT_EQ(*addresses.advertised("cip", 2), (Address{"events-brk-cip-2.data.svc", 9093}));

  // The certificate names the listeners' Services and what the broker advertises.
  const auto names = listener_certificate_names(spec_of(kafka), "events", "data", kNodes[1], addresses);
  EXPECT_EQ(names.ip_addresses, (std::vector<std::string>{"10.0.0.1", "198.51.100.7"}));
  for (const char* n : {"events-brk-cip-1.data.svc", "events-kafka-np-bootstrap.data.svc.cluster.local", "events-brk-np-1"})
    EXPECT_NE(std::find(names.dns_names.begin(), names.dns_names.end(), n), names.dns_names.end()) << n;
  const auto crt = node_certificate(kafka, kNodes[1], names);
  EXPECT_EQ(json::serialize(*json::find(crt, {"spec", "ipAddresses"})), R"(["10.0.0.1","198.51.100.7"])");
}

TEST(KafkaListenerAddresses, NodeAddressPreference) {
  const auto n = node({{"InternalIP", "10.0.0.1"}, {"InternalDNS", "n.internal"}, {"Hostname", "n"}, {"ExternalIP", "203.0.113.1"},
                       {"ExternalDNS", "n.example.com"}});
  EXPECT_EQ(node_address(n, ""), "n.example.com");
  EXPECT_EQ(node_address(n, "InternalDNS"), "n.internal");
  EXPECT_EQ(node_address(node({{"InternalIP", "10.0.0.1"}, {"InternalDNS", "n.internal"}}), ""), "n.internal");
  EXPECT_EQ(node_address(node({{"InternalIP", "10.0.0.1"}}), "ExternalIP"), "10.0.0.1") << "the preferred type missing: the order";
  EXPECT_EQ(node_address(node({}), ""), "");
}

TEST(KafkaListenerAddresses, PendingLoadBalancerAndNodeAreNotAdvertised) {
  const auto kafka = kafka_object(kAllTypes);
  const auto spec = spec_of(kafka);
  LiveState live = all_known();
  live.services["events-brk-lb-2"] = json::Object{};  // no address yet
  live.services.erase("events-kafka-lb-bootstrap");
  live.pod_nodes["events-brk-2"] = "";  // not scheduled
  const auto addresses = resolve_listener_addresses(spec, "events", "data", kNodes, live);
  EXPECT_EQ(addresses.advertised("lb", 2), nullptr);
  EXPECT_EQ(addresses.advertised("np", 2), nullptr);
  EXPECT_NE(addresses.advertised("lb", 1), nullptr);
  EXPECT_FALSE(addresses.bootstrap.contains("lb"));
  std::string all;
  for (const auto& p : addresses.pending) all += p + "\n";
  EXPECT_NE(all.find("Service data/events-brk-lb-2 (listener lb) has no load balancer address yet"), std::string::npos) << all;
  EXPECT_NE(all.find("Service data/events-kafka-lb-bootstrap (listener lb) has no load balancer address yet"), std::string::npos) << all;
  EXPECT_NE(all.find("pod data/events-brk-2 (listener np, Service events-brk-np-2) is not on a Node yet"), std::string::npos) << all;

  const std::string config = server_config(spec, "events", "data", kNodes[2], kNodes, false, &addresses);
  EXPECT_NE(config.find("listeners=REPLICATION-9091://0.0.0.0:9091,PLAIN-9092://0.0.0.0:9092,CIP-9093://0.0.0.0:9093,LB-9094://0.0.0.0:9094,"
                        "NP-9095://0.0.0.0:9095,ING-9096://0.0.0.0:9096\n"),
            std::string::npos)
      << "every port is bound\n" << config;
  EXPECT_EQ(config.find("LB-9094://192"), std::string::npos) << config;
  EXPECT_EQ(config.find("NP-9095://"), config.find("NP-9095://0.0.0.0")) << "not advertised\n" << config;

  // Mid-roll (the new pod not on a Node yet) a broker keeps the nodeport host it advertises.
  live.configs["events-brk-2"] = "node.id=2\nadvertised.listeners=REPLICATION-9091://x:9091,NP-9095://198.51.100.2:32002,LB-9094://[2001:db8::1]:9094\n";
  EXPECT_EQ(advertised_host_in(live.configs["events-brk-2"], "LB-9094"), "2001:db8::1");
  EXPECT_EQ(advertised_host_in(live.configs["events-brk-2"], "CIP-9093"), "");
  const auto kept = resolve_listener_addresses(spec, "events", "data", kNodes, live);
  EXPECT_EQ(*kept.advertised("np", 2), (Address{"198.51.100.2", 32002}));

  // An advertisedHost needs no load balancer address.
  const auto overridden = kafka_object(R"(    listeners:
      - {name: lb, port: 9094, type: loadbalancer, tls: false, configuration: {brokers: [{broker: 2, advertisedHost: lb.example.com}]}}
)");
  const auto a2 = resolve_listener_addresses(spec_of(overridden), "events", "data", kNodes, live);
  EXPECT_EQ(*a2.advertised("lb", 2), (Address{"lb.example.com", 9094}));
}

}  // namespace
}  // namespace capstan::kafka
