#include "apiserver/aggregator/backend.h"

#include "apiserver/service_endpoint.h"
#include "runtime/http/client.h"
#include "runtime/json/json.h"

namespace capstan::apiserver::aggregator {
namespace {

std::string join_host_port(std::string_view host, std::int64_t port) {
  std::string h(host);
  if (h.find(':') != std::string::npos) h = "[" + h + "]";
  return h + ":" + std::to_string(port);
}

std::string service_ref(const ApiServiceBackend& b) { return "service \"" + b.ns + "/" + b.name + "\""; }

std::string server_name(const ApiServiceBackend& b) { return b.name + "." + b.ns + ".svc"; }

}  // namespace

Backends::Backends(const storage::Store& store, BackendOptions options) : store_(store), options_(std::move(options)) {}
Backends::~Backends() = default;

std::string Backends::resolve(const ApiService& a) const {
  if (!a.service) throw BackendError("APIService " + a.name + " is Local: it names no service");
  const auto& b = *a.service;
  auto svc = store_.get("services", b.ns, b.name);
  if (!svc) throw BackendError("APIService " + a.name + ": " + service_ref(b) + " not found");
  std::string type(json::get_string(*svc, {"spec", "type"}, "ClusterIP"));
  // Dialled at its name and the APIService's port, as kube-apiserver's cluster routing does.
  if (type == "ExternalName") return "https://" + join_host_port(json::get_string(*svc, {"spec", "externalName"}), b.port);
  const json::Value* svc_port = service_port(*svc, b.port);
  if (!svc_port)
    throw BackendError("APIService " + a.name + ": " + service_ref(b) + " has no port " + std::to_string(b.port) +
                       " (spec.service.port)");
  std::string_view port_name = json::get_string(*svc_port, {"name"});
  // EndpointSlices of the Service first (kube-apiserver's resolver reads those), then its Endpoints.
  auto slices = store_.list("endpointslices.discovery.k8s.io", b.ns, "", 0, [&](const storage::Object& o) {
    return json::get_string(*o, {"metadata", "labels", "kubernetes.io/service-name"}) == b.name;
  });
  for (const auto& slice : slices.items) {
    const auto* ports = json::get_array(*slice, {"ports"});
    const auto* endpoints = json::get_array(*slice, {"endpoints"});
    if (!ports || !endpoints) continue;
    std::int64_t port = 0;
    for (const auto& p : *ports)
      if (json::get_string(p, {"name"}) == port_name) port = json::get_int(p, {"port"}).value_or(0);
    if (port <= 0) continue;
    for (const auto& ep : *endpoints) {
      const auto* ready = json::find(ep, {"conditions", "ready"});
      if (ready && ready->is_bool() && !ready->get_bool()) continue;
      const auto* addrs = json::get_array(ep, {"addresses"});
      if (!addrs || addrs->empty() || !(*addrs)[0].is_string()) continue;
      return "https://" + join_host_port((*addrs)[0].get_string(), port);
    }
  }
  // An endpoint port with no number cannot be dialled: the next address is.
  if (auto eps = store_.get("endpoints", b.ns, b.name))
    for (const auto& e : endpoint_addresses(*eps, port_name))
      if (e.port > 0) return "https://" + join_host_port(e.ip, e.port);
  throw BackendError("APIService " + a.name + ": no endpoints available for " + service_ref(b));
}

std::shared_ptr<http::Client> Backends::client_for(const ApiService& a) {
  if (!a.ca_error.empty()) throw BackendError(a.ca_error);
  std::string name = server_name(*a.service);
  std::string key = (a.insecure_skip_tls_verify ? std::string("insecure") : a.ca_pem) + '\x1f' + name;
  std::lock_guard<std::mutex> l(mu_);
  auto it = clients_.find(key);
  if (it != clients_.end()) return it->second;
  http::ClientOptions o;
  o.tls.server_name = name;
  o.tls.insecure_skip_verify = a.insecure_skip_tls_verify;
  o.tls.ca_pem = a.insecure_skip_tls_verify ? std::string() : a.ca_pem;
  o.tls.cert_pem = options_.client_cert_pem;
  o.tls.key_pem = options_.client_key_pem;
  o.connect_timeout = options_.connect_timeout;
  o.max_idle_per_host = 4;
  o.body_limit = options_.max_response_bytes;
  std::shared_ptr<http::Client> c;
  try {
    c = std::make_shared<http::Client>(o);
  } catch (const std::exception& e) {
    throw BackendError("APIService " + a.name + ": spec.caBundle: " + e.what());
  }
  // Clients trusting the system roots build their TLS context lazily: not shared.
  if (!a.ca_pem.empty() || a.insecure_skip_tls_verify) clients_.emplace(std::move(key), c);
  return c;
}

http::Response Backends::send(const ApiService& a, std::string_view method, std::string_view target, http::Headers headers,
                              std::string_view body, std::chrono::milliseconds timeout) {
  std::string base = resolve(a);
  auto client = client_for(a);
  headers.set("Host", join_host_port(server_name(*a.service), a.service->port));
  try {
    return client->request(method, base + std::string(target), headers, body, timeout);
  } catch (const std::exception& e) {
    throw BackendError("APIService " + a.name + " (" + service_ref(*a.service) + "): " + e.what());
  }
}

}  // namespace capstan::apiserver::aggregator
