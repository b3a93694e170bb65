#include "runtime/client/test_support.h"

#include "runtime/json/json.h"
#include "runtime/pki/pki.h"

#include <atomic>
#include <fstream>
#include <random>
#include <unistd.h>

namespace capstan::client::testing {

FakeApiServer::FakeApiServer(Handler handler, std::optional<http::ServerTls> tls) : tls_(tls.has_value()) {
  http::ServerOptions o;
  o.name = "fake-apiserver";
  o.address = "127.0.0.1";
  o.port = 0;
  o.tls = std::move(tls);
  o.handler_threads = 4;
  server_ = std::make_unique<http::Server>(o, [this, handler](http::Request& req, http::Reply& reply) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      recorded_.push_back({req.method, std::string(req.path()), std::string(req.raw_query()), req.body, req.headers,
                           req.peer_cn});
    }
    if (handler) {
      handler(req, reply);
    } else {
      reply.send(json_response(404, status_body(404, "NotFound", "the server could not find the requested resource")));
    }
  });
  server_->start();
}

FakeApiServer::~FakeApiServer() { server_->stop(); }

std::string FakeApiServer::url() const { return std::string(tls_ ? "https" : "http") + "://" + server_->address(); }

Config FakeApiServer::config() const {
  Config c;
  c.server = url();
  c.qps = 0;
  c.timeout = std::chrono::seconds(5);
  return c;
}

std::vector<Recorded> FakeApiServer::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return recorded_;
}

Recorded FakeApiServer::last() const {
  std::lock_guard<std::mutex> lock(mu_);
  return recorded_.empty() ? Recorded{} : recorded_.back();
}

std::size_t FakeApiServer::count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return recorded_.size();
}

void FakeApiServer::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  recorded_.clear();
}

http::Response json_response(int status, std::string body) { return http::Response(status, std::move(body)); }

std::string status_body(int code, std::string_view reason, std::string_view message) {
  json::Object o;
  o["kind"] = "Status";
  o["apiVersion"] = "v1";
  o["metadata"] = json::Object();
  o["status"] = "Failure";
  o["message"] = message;
  o["reason"] = reason;
  o["code"] = code;
  return json::serialize(o);
}

std::optional<metrics::SampleSnapshot> find_sample(const metrics::Registry& registry, std::string_view name,
                                                   const std::vector<std::string>& label_values) {
  for (const auto& fam : registry.collect()) {
    if (fam.name != name) continue;
    for (const auto& sample : fam.samples)
      if (sample.label_values == label_values) return sample;
  }
  return std::nullopt;
}

double counter_value(const metrics::Registry& registry, std::string_view name,
                     const std::vector<std::string>& label_values) {
  auto s = find_sample(registry, name, label_values);
  return s ? s->value : 0;
}

const TestPki& TestPki::get() {
  static const TestPki pki = [] {
    using namespace std::chrono_literals;
    TestPki p;
    auto ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
    auto ca = pki::self_signed_ca("capstan-test-ca", 24h, ca_key);
    auto server = pki::serving_certificate({"127.0.0.1", "localhost"}, ca, ca_key, 24h);
    auto client = pki::client_certificate("admin", {"system:masters"}, ca, ca_key, 24h);
    p.ca_pem = ca.to_pem();
    p.server_cert_pem = server.certificate.to_pem();
    p.server_key_pem = server.key.to_pem();
    p.client_cert_pem = client.certificate.to_pem();
    p.client_key_pem = client.key.to_pem();
    return p;
  }();
  return pki;
}

}  // namespace capstan::client::testing
