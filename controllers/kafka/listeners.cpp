#include "controllers/kafka/listeners.h"

#include "apis/kafka/v1/group.h"
#include "controllers/kafka/objects.h"
#include "runtime/meta/object.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace capstan::kafka {
namespace {

namespace v1 = apis::kafka::v1;
namespace type = v1::listener_type;

// What the Services select: the cluster's pods (its labels without managed-by), as objects.cpp's.
json::Object pod_selector(std::string_view cluster) {
  auto l = cluster_labels(cluster);
  l.erase("app.kubernetes.io/managed-by");
  return l;
}

std::string service_type(const v1::GenericKafkaListener& l) {
  if (l.type == type::kLoadBalancer) return "LoadBalancer";
  if (l.type == type::kNodePort) return "NodePort";
  return "ClusterIP";
}

const v1::GenericKafkaListenerConfiguration& configuration(const v1::GenericKafkaListener& l) {
  static const v1::GenericKafkaListenerConfiguration none;
  return l.configuration ? *l.configuration : none;
}

json::Value listener_service(const json::Value& kafka, const v1::GenericKafkaListener& l, std::string name, json::Object selector,
                             std::optional<std::int32_t> node_port) {
  const std::string cluster(meta::name_of(kafka));
  const auto& conf = configuration(l);
  json::Object port{{"name", "tcp-" + l.name}, {"port", l.port}, {"protocol", "TCP"}, {"targetPort", l.port}};
  if (l.type == type::kNodePort && node_port) port["nodePort"] = *node_port;
  json::Object spec{{"type", service_type(l)}, {"selector", std::move(selector)}, {"ports", json::Array{std::move(port)}}};
  if ((l.type == type::kLoadBalancer || l.type == type::kNodePort) && !conf.external_traffic_policy.empty())
    spec["externalTrafficPolicy"] = conf.external_traffic_policy;
  if (l.type == type::kLoadBalancer) {
    if (!conf.load_balancer_source_ranges.empty()) {
      json::Array ranges;
      for (const auto& r : conf.load_balancer_source_ranges) ranges.emplace_back(r);
      spec["loadBalancerSourceRanges"] = std::move(ranges);
    }
    if (!conf.ingress_class.empty()) spec["loadBalancerClass"] = conf.ingress_class;
  }
  return json::Object{{"apiVersion", "v1"},
                      {"kind", "Service"},
                      {"metadata", owned_metadata(kafka, std::move(name), cluster_labels(cluster))},
                      {"spec", std::move(spec)}};
}

json::Value listener_ingress(const json::Value& kafka, const v1::GenericKafkaListener& l, std::string name, const std::string& host) {
  const std::string cluster(meta::name_of(kafka));
  auto metadata = owned_metadata(kafka, name, cluster_labels(cluster));
  // ingress-nginx passes the TLS connection through to the broker, which serves its certificate.
  metadata["annotations"] = json::Object{{"nginx.ingress.kubernetes.io/backend-protocol", "HTTPS"},
                                         {"nginx.ingress.kubernetes.io/ssl-passthrough", "true"}};
  json::Object backend{{"service", json::Object{{"name", name}, {"port", json::Object{{"number", l.port}}}}}};
  json::Object spec{
      {"rules", json::Array{json::Object{
                    {"host", host},
                    {"http", json::Object{{"paths", json::Array{json::Object{
                                                        {"path", "/"}, {"pathType", "Prefix"}, {"backend", std::move(backend)}}}}}}}}},
      {"tls", json::Array{json::Object{{"hosts", json::Array{json::Value(host)}}}}}};
  if (!configuration(l).ingress_class.empty()) spec["ingressClassName"] = configuration(l).ingress_class;
  return json::Object{{"apiVersion", "networking.k8s.io/v1"}, {"kind", "Ingress"}, {"metadata", std::move(metadata)}, {"spec", std::move(spec)}};
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

bool is_ip(const std::string& s) {
  unsigned char buf[16];
  return inet_pton(AF_INET, s.c_str(), buf) == 1 || inet_pton(AF_INET6, s.c_str(), buf) == 1;
}

// status.loadBalancer.ingress[0]: its hostname, else its ip; "" when none yet.
std::string load_balancer_address(const json::Value& service) {
  const json::Array* ingress = json::get_array(service, {"status", "loadBalancer", "ingress"});
  if (!ingress || ingress->empty()) return "";
  const json::Value& first = (*ingress)[0];
  std::string_view host = json::get_string(first, {"hostname"});
  return std::string(host.empty() ? json::get_string(first, {"ip"}) : host);
}

// The nodePort the API server gave the Service's (only) port, 0 when none yet.
std::int32_t allocated_node_port(const json::Value& service) {
  const json::Array* ports = json::get_array(service, {"spec", "ports"});
  if (!ports || ports->empty()) return 0;
  return static_cast<std::int32_t>(json::get_int((*ports)[0], {"nodePort"}).value_or(0));
}

}  // namespace

std::string listener_bootstrap_name(std::string_view cluster, const v1::GenericKafkaListener& l) {
  return std::string(cluster) + "-kafka-" + l.name + "-bootstrap";
}

std::string listener_broker_name(std::string_view cluster, const Node& node, const v1::GenericKafkaListener& l) {
  return std::string(cluster) + "-" + node.pool + "-" + l.name + "-" + std::to_string(node.id);
}

std::vector<json::Value> listener_services(const json::Value& kafka, const v1::KafkaClusterSpec& spec, const std::vector<Node>& nodes) {
  const std::string cluster(meta::name_of(kafka));
  std::vector<json::Value> out;
  for (const auto& l : spec.listeners) {
    if (!l.per_broker_services()) continue;
    const auto& conf = configuration(l);
    auto selector = pod_selector(cluster);
    selector[v1::kBrokerRoleLabel] = "true";
    out.push_back(listener_service(kafka, l, listener_bootstrap_name(cluster, l), std::move(selector),
                                   conf.bootstrap ? conf.bootstrap->node_port : std::nullopt));
    for (const auto& n : nodes) {
      if (!n.broker) continue;
      auto one = pod_selector(cluster);
      one[v1::kPodNameLabel] = n.pod_name(cluster);
      const auto* b = conf.broker_override(n.id);
      out.push_back(listener_service(kafka, l, listener_broker_name(cluster, n, l), std::move(one), b ? b->node_port : std::nullopt));
    }
  }
  return out;
}

std::vector<json::Value> listener_ingresses(const json::Value& kafka, const v1::KafkaClusterSpec& spec, const std::vector<Node>& nodes) {
  const std::string cluster(meta::name_of(kafka));
  std::vector<json::Value> out;
  for (const auto& l : spec.listeners) {
    if (l.type != type::kIngress) continue;
    const auto& conf = configuration(l);
    if (conf.bootstrap && !conf.bootstrap->host.empty())
      out.push_back(listener_ingress(kafka, l, listener_bootstrap_name(cluster, l), conf.bootstrap->host));
    for (const auto& n : nodes) {
      if (!n.broker) continue;
      const auto* b = conf.broker_override(n.id);
      if (b && !b->host.empty()) out.push_back(listener_ingress(kafka, l, listener_broker_name(cluster, n, l), b->host));
    }
  }
  return out;
}

std::string node_address(const json::Value& node, std::string_view preferred) {
  const json::Array* addresses = json::get_array(node, {"status", "addresses"});
  if (!addresses) return "";
  auto find = [&](std::string_view t) -> std::string {
    for (const auto& a : *addresses)
      if (json::get_string(a, {"type"}) == t && !json::get_string(a, {"address"}).empty()) return std::string(json::get_string(a, {"address"}));
    return "";
  };
  if (!preferred.empty())
    if (auto a = find(preferred); !a.empty()) return a;
  for (std::string_view t : {"ExternalDNS", "ExternalIP", "Hostname", "InternalDNS", "InternalIP"})
    if (auto a = find(t); !a.empty()) return a;
  return "";
}

std::string advertised_host_in(const std::string& config, const std::string& name) {
  const std::string key = "\nadvertised.listeners=";
  auto at = config.find(key);
  if (at == std::string::npos) return "";
  auto end = config.find('\n', at + key.size());
  const std::string line = config.substr(at + key.size(), end == std::string::npos ? std::string::npos : end - at - key.size());
  const std::string prefix = name + "://";
  for (std::size_t start = 0; start <= line.size();) {
    auto comma = line.find(',', start);
    const std::string entry = line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (entry.rfind(prefix, 0) == 0) {
      std::string hostport = entry.substr(prefix.size());
      auto colon = hostport.rfind(':');
      std::string host = colon == std::string::npos ? hostport : hostport.substr(0, colon);
      if (host.size() > 1 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
      return host;
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return "";
}

const Address* ListenerAddresses::advertised(const std::string& listener, std::int32_t id) const {
  auto l = brokers.find(listener);
  if (l == brokers.end()) return nullptr;
  auto a = l->second.find(id);
  return a == l->second.end() ? nullptr : &a->second;
}

ListenerAddresses resolve_listener_addresses(const v1::KafkaClusterSpec& spec, std::string_view cluster, std::string_view ns,
                                             const std::vector<Node>& nodes, const LiveState& live) {
  ListenerAddresses out;
  const std::string svc_suffix = "." + std::string(ns) + ".svc";
  auto service = [&](const std::string& name) -> const json::Value* {
    auto it = live.services.find(name);
    return it == live.services.end() ? nullptr : &it->second;
  };
  for (const auto& l : spec.listeners) {
    const auto& conf = configuration(l);
    auto& advertised = out.brokers[l.name];
    std::vector<Address> bootstrap;
    bool bootstrap_known = true;
    const std::string bootstrap_service = listener_bootstrap_name(cluster, l);
    if (l.type == type::kInternal) {
      bootstrap.push_back({bootstrap_service_name(cluster) + svc_suffix, l.port});
    } else if (l.type == type::kClusterIp) {
      bootstrap.push_back({bootstrap_service + svc_suffix, l.port});
    } else if (l.type == type::kIngress) {
      bootstrap.push_back({conf.bootstrap ? conf.bootstrap->host : "", kIngressPort});
    } else if (l.type == type::kLoadBalancer) {
      const auto* s = service(bootstrap_service);
      std::string host = s ? load_balancer_address(*s) : "";
      if (host.empty()) {
        bootstrap_known = false;
        out.pending.push_back("Service " + std::string(ns) + "/" + bootstrap_service + " (listener " + l.name +
                              ") has no load balancer address yet");
      } else {
        bootstrap.push_back({host, l.port});
      }
    } else if (l.type == type::kNodePort) {
      const auto* s = service(bootstrap_service);
      std::int32_t port = s ? allocated_node_port(*s) : 0;
      if (port == 0) {
        bootstrap_known = false;
        out.pending.push_back("Service " + std::string(ns) + "/" + bootstrap_service + " (listener " + l.name + ") has no node port yet");
      }
      // The addresses of the brokers' Nodes with the bootstrap node port (below).
      (void)port;
    }
    for (const auto& n : nodes) {
      if (!n.broker) continue;
      const auto* o = conf.broker_override(n.id);
      const std::string svc = listener_broker_name(cluster, n, l);
      Address a;
      std::string missing;
      if (l.type == type::kInternal) {
        a = {node_host(cluster, ns, n), l.port};
      } else if (l.type == type::kClusterIp) {
        a = {svc + svc_suffix, l.port};
      } else if (l.type == type::kIngress) {
        a = {o ? o->host : "", kIngressPort};
      } else if (l.type == type::kLoadBalancer) {
        a.port = l.port;
        if (!(o && !o->advertised_host.empty())) {
          const auto* s = service(svc);
          a.host = s ? load_balancer_address(*s) : "";
          if (a.host.empty()) missing = "Service " + std::string(ns) + "/" + svc + " (listener " + l.name + ") has no load balancer address yet";
        }
      } else if (l.type == type::kNodePort) {
        if (!(o && o->advertised_port)) {
          const auto* s = service(svc);
          a.port = s ? allocated_node_port(*s) : 0;
          if (a.port == 0) missing = "Service " + std::string(ns) + "/" + svc + " (listener " + l.name + ") has no node port yet";
        }
        if (!(o && !o->advertised_host.empty()) && missing.empty()) {
          const std::string pod = n.pod_name(cluster);
          auto node_name = live.pod_nodes.find(pod);
          auto node = node_name == live.pod_nodes.end() || node_name->second.empty() ? live.nodes.end() : live.nodes.find(node_name->second);
          a.host = node == live.nodes.end() ? "" : node_address(node->second, conf.preferred_node_port_address_type);
          const bool unscheduled = node_name == live.pod_nodes.end() || node_name->second.empty();
          if (a.host.empty())  // kept from its current configuration until its Node is known
            if (auto c = live.configs.find(pod); c != live.configs.end())
              a.host = advertised_host_in(c->second, upper(l.name) + "-" + std::to_string(l.port));
          if (!a.host.empty()) {
          } else if (unscheduled)
            missing = "pod " + std::string(ns) + "/" + pod + " (listener " + l.name + ", Service " + svc + ") is not on a Node yet";
          else if (a.host.empty())
            missing = "Node " + node_name->second + " of pod " + std::string(ns) + "/" + pod + " (listener " + l.name + ", Service " + svc +
                      ") has no address";
        }
      }
      if (o && !o->advertised_host.empty()) a.host = o->advertised_host;
      if (o && o->advertised_port) a.port = *o->advertised_port;
      if (!missing.empty()) {
        out.pending.push_back(missing);
        continue;
      }
      advertised[n.id] = a;
      if (l.type == type::kNodePort && bootstrap_known) {
        const auto* s = service(bootstrap_service);
        Address b{a.host, s ? allocated_node_port(*s) : 0};
        if (std::find(bootstrap.begin(), bootstrap.end(), b) == bootstrap.end()) bootstrap.push_back(b);
      }
    }
    if (bootstrap_known && !bootstrap.empty()) out.bootstrap[l.name] = std::move(bootstrap);
  }
  return out;
}

CertificateNames listener_certificate_names(const v1::KafkaClusterSpec& spec, std::string_view cluster, std::string_view ns, const Node& node,
                                            const ListenerAddresses& addresses) {
  std::set<std::string> dns, ips;
  auto add_host = [&](const std::string& h) {
    if (h.empty()) return;
    (is_ip(h) ? ips : dns).insert(h);
  };
  auto add_service = [&](const std::string& s) {
    for (const std::string& n : {s, s + "." + std::string(ns), s + "." + std::string(ns) + ".svc", s + "." + std::string(ns) + ".svc.cluster.local"})
      dns.insert(n);
  };
  for (const auto& l : spec.listeners) {
    if (l.per_broker_services()) {
      add_service(listener_bootstrap_name(cluster, l));
      add_service(listener_broker_name(cluster, node, l));
    }
    if (const auto* a = addresses.advertised(l.name, node.id)) add_host(a->host);
    if (auto b = addresses.bootstrap.find(l.name); b != addresses.bootstrap.end() && l.per_broker_services())
      for (const auto& a : b->second) add_host(a.host);
  }
  return {{dns.begin(), dns.end()}, {ips.begin(), ips.end()}};
}

}  // namespace capstan::kafka
