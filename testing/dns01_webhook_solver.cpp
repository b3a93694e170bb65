#include "testing/dns01_webhook_solver.h"

#include "runtime/http/client.h"
#include "runtime/http/server.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/pki.h"

#include <chrono>
#include <stdexcept>

namespace capstan::e2e {
namespace {

constexpr std::size_t kMaxBody = 64 * 1024;

json::Value failure(const json::Value& request, const std::string& message) {
  return json::Object{{"apiVersion", "webhook.acme.cert-manager.io/v1alpha1"},
                      {"kind", "ChallengePayload"},
                      {"response", json::Object{{"uid", json::get_string(request, {"uid"})},
                                                {"success", false},
                                                {"status", json::Object{{"status", "Failure"}, {"message", message}}}}}};
}

}  // namespace

Dns01WebhookSolver::Dns01WebhookSolver(Dns01WebhookSolverOptions options) : opts_(std::move(options)) {
  using namespace std::chrono;
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
  auto ca = pki::self_signed_ca("dns01-webhook-ca", hours(24), key);
  ca_pem_ = ca.to_pem();
  auto serving = pki::serving_certificate({opts_.service + "." + opts_.ns + ".svc", "127.0.0.1"}, ca, key, hours(24));
  challtestsrv_ = std::make_unique<http::Client>();
  http::ServerOptions so;
  so.name = "dns01-webhook";
  so.address = "127.0.0.1";
  so.port = 0;
  so.handler_threads = 2;
  so.body_limit = kMaxBody;
  http::ServerTls tls;
  tls.cert_pem = serving.certificate.to_pem();
  tls.key_pem = serving.key.to_pem(pki::KeyEncoding::PKCS8);
  so.tls = tls;
  server_ = std::make_unique<http::Server>(so, [this](http::Request& r, http::Reply& reply) {
    int status = 404;
    std::string answer;
    handle(r.method, std::string(r.path()), std::string(r.headers.get_or("X-Remote-User", "")), r.body, status, answer);
    reply.send(http::Response(status, std::move(answer)));
  });
  server_->start();
}

Dns01WebhookSolver::~Dns01WebhookSolver() { server_->stop(); }

std::uint16_t Dns01WebhookSolver::port() const { return server_->port(); }

std::vector<SolverCall> Dns01WebhookSolver::calls() const {
  std::lock_guard<std::mutex> l(mu_);
  return calls_;
}

void Dns01WebhookSolver::handle(const std::string& method, const std::string& path, const std::string& user,
                                const std::string& body, int& status, std::string& answer) {
  const std::string gv = "/apis/" + opts_.group_name + "/v1alpha1";
  if (method == "GET" && path == gv) {
    // Discovery: what the aggregator's availability check asks for.
    status = 200;
    answer = json::serialize(json::Object{
        {"kind", "APIResourceList"},
        {"apiVersion", "v1"},
        {"groupVersion", opts_.group_name + "/v1alpha1"},
        {"resources", json::Array{json::Object{{"name", opts_.solver_name},
                                               {"singularName", opts_.solver_name},
                                               {"namespaced", false},
                                               {"kind", "ChallengePayload"},
                                               {"verbs", json::Array{"create"}}}}}});
    return;
  }
  if (method != "POST" || path != gv + "/" + opts_.solver_name) {
    status = 404;
    answer = R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404})";
    return;
  }
  auto payload = json::try_parse(body);
  const json::Value* request = payload ? json::find(*payload, {"request"}) : nullptr;
  status = 200;
  if (!request || !request->is_object()) {
    answer = json::serialize(failure(json::Object{}, "no request in the ChallengePayload"));
    return;
  }
  SolverCall call;
  call.action = std::string(json::get_string(*request, {"action"}));
  call.uid = std::string(json::get_string(*request, {"uid"}));
  call.dns_name = std::string(json::get_string(*request, {"dnsName"}));
  call.resolved_fqdn = std::string(json::get_string(*request, {"resolvedFQDN"}));
  call.resolved_zone = std::string(json::get_string(*request, {"resolvedZone"}));
  call.key = std::string(json::get_string(*request, {"key"}));
  call.resource_namespace = std::string(json::get_string(*request, {"resourceNamespace"}));
  if (const auto* c = json::find(*request, {"config"})) call.config = *c;
  call.user = user;
  std::string error;
  if (json::get_string(*request, {"type"}) != "dns-01") {
    error = "type must be dns-01";
  } else if (call.action == "Present" || call.action == "CleanUp") {
    // challtestsrv adds each value to the host's TXT set and clears them all at once: a
    // wildcard and its base name share the host, and are cleaned up together when the order ends.
    std::string target = opts_.challtestsrv_management_url + (call.action == "Present" ? "/set-txt" : "/clear-txt");
    json::Object b{{"host", call.resolved_fqdn}};
    if (call.action == "Present") b["value"] = call.key;
    try {
      auto r = challtestsrv_->request("POST", target, {{"Content-Type", "application/json"}}, json::serialize(b),
                                      std::chrono::seconds(5));
      if (r.status != 200) error = "challtestsrv answered " + std::to_string(r.status) + ": " + r.body.substr(0, 200);
    } catch (const std::exception& e) {
      error = std::string("challtestsrv: ") + e.what();
    }
  } else {
    error = "unknown action \"" + call.action + "\"";
  }
  call.success = error.empty();
  {
    std::lock_guard<std::mutex> l(mu_);
    calls_.push_back(call);
  }
  if (!error.empty()) {
    answer = json::serialize(failure(*request, error));
    return;
  }
  answer = json::serialize(json::Object{{"apiVersion", "webhook.acme.cert-manager.io/v1alpha1"},
                                        {"kind", "ChallengePayload"},
                                        {"response", json::Object{{"uid", call.uid}, {"success", true}}}});
}

std::vector<json::Value> Dns01WebhookSolver::manifests() const {
  const std::int64_t port = server_->port();
  // An ExternalName Service naming 127.0.0.1 on this server's port: kube-apiserver refuses
  // loopback addresses in Endpoints and EndpointSlices, and dials an ExternalName Service at
  // its name and the APIService's port (as the embedded server does).
  json::Value service = json::Object{
      {"apiVersion", "v1"},
      {"kind", "Service"},
      {"metadata", json::Object{{"name", opts_.service}, {"namespace", opts_.ns}}},
      {"spec", json::Object{{"type", "ExternalName"},
                            {"externalName", "127.0.0.1"},
                            {"ports", json::Array{json::Object{{"name", "https"}, {"port", port}}}}}}};
  json::Value api_service = json::Object{
      {"apiVersion", "apiregistration.k8s.io/v1"},
      {"kind", "APIService"},
      {"metadata", json::Object{{"name", "v1alpha1." + opts_.group_name}}},
      {"spec", json::Object{{"group", opts_.group_name},
                            {"version", "v1alpha1"},
                            {"service", json::Object{{"namespace", opts_.ns}, {"name", opts_.service}, {"port", port}}},
                            {"caBundle", meta::base64_encode(ca_pem_)},
                            {"groupPriorityMinimum", 1000},
                            {"versionPriority", 15}}}};
  return {service, api_service};
}

}  // namespace capstan::e2e
