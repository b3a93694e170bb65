#include "apiserver/admission/test_support.h"

#include "runtime/meta/base64.h"
#include "runtime/pki/pki.h"

#include <thread>

namespace capstan::apiserver::admission::testing {
namespace {

struct Ca {
  pki::PrivateKey key;
  pki::Certificate cert;
  std::string pem;
};

const Ca& ca() {
  static const Ca c = [] {
    Ca out;
    out.key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
    out.cert = pki::self_signed_ca("admission-test-ca", std::chrono::hours(24), out.key);
    out.pem = out.cert.to_pem();
    return out;
  }();
  return c;
}

}  // namespace

const std::string& ca_pem() { return ca().pem; }
std::string ca_bundle() { return meta::base64_encode(ca_pem()); }

FakeWebhook::FakeWebhook(Responder respond, std::vector<std::string> hosts) : respond_(std::move(respond)) {
  auto serving = pki::serving_certificate(hosts, ca().cert, ca().key, std::chrono::hours(24));
  http::ServerTls tls;
  tls.cert_pem = serving.certificate.to_pem();
  tls.key_pem = serving.key.to_pem(pki::KeyEncoding::PKCS8);
  http::ServerOptions o;
  o.name = "fake-webhook";
  o.address = "127.0.0.1";
  o.tls = tls;
  o.handler_threads = 4;
  server_ = std::make_unique<http::Server>(o, [this](http::Request& req, http::Reply& reply) {
    auto review = json::try_parse(req.body);
    Responder r;
    {
      std::lock_guard<std::mutex> l(mu_);
      reviews_.push_back(review ? *review : json::Value(nullptr));
      targets_.push_back(req.target);
      hosts_.emplace_back(req.headers.get_or("Host", ""));
      r = respond_;
    }
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(delay_ms_.load());
    while (!stopping_ && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    reply.send(r(review ? *review : json::Value(nullptr)));
  });
  server_->start();
}

FakeWebhook::~FakeWebhook() { stop(); }

void FakeWebhook::stop() {
  stopping_ = true;
  if (server_) server_->stop();
}

std::uint16_t FakeWebhook::port() const { return server_->port(); }
std::string FakeWebhook::url(std::string_view path) const {
  return "https://127.0.0.1:" + std::to_string(port()) + std::string(path);
}
void FakeWebhook::set_responder(Responder r) {
  std::lock_guard<std::mutex> l(mu_);
  respond_ = std::move(r);
}
std::vector<json::Value> FakeWebhook::reviews() const {
  std::lock_guard<std::mutex> l(mu_);
  return reviews_;
}
std::vector<std::string> FakeWebhook::targets() const {
  std::lock_guard<std::mutex> l(mu_);
  return targets_;
}
std::vector<std::string> FakeWebhook::hosts() const {
  std::lock_guard<std::mutex> l(mu_);
  return hosts_;
}
std::size_t FakeWebhook::calls() const {
  std::lock_guard<std::mutex> l(mu_);
  return reviews_.size();
}

http::Response json_answer(int status, const json::Value& body) { return http::Response(status, json::serialize(body)); }

http::Response review_answer(const json::Value& review, json::Object response) {
  response["uid"] = json::get_string(review, {"request", "uid"});
  json::Object out{{"apiVersion", json::get_string(review, {"apiVersion"}, "admission.k8s.io/v1")},
                   {"kind", "AdmissionReview"},
                   {"response", std::move(response)}};
  return json_answer(200, out);
}

http::Response allow(const json::Value& review, const json::Array& patch, std::vector<std::string> warnings) {
  json::Object r{{"allowed", true}};
  if (!patch.empty()) {
    r["patchType"] = "JSONPatch";
    r["patch"] = meta::base64_encode(json::serialize(patch));
  }
  if (!warnings.empty()) {
    json::Array w;
    for (auto& s : warnings) w.emplace_back(s);
    r["warnings"] = std::move(w);
  }
  return review_answer(review, std::move(r));
}

http::Response deny(const json::Value& review, int code, std::string message, std::string reason) {
  json::Object status;
  if (code) status["code"] = code;
  if (!message.empty()) status["message"] = message;
  if (!reason.empty()) status["reason"] = reason;
  return review_answer(review, json::Object{{"allowed", false}, {"status", std::move(status)}});
}

json::Object webhook_entry(std::string name, std::string url, std::vector<std::string> resources,
                           std::vector<std::string> operations) {
  json::Array res, ops;
  for (auto& r : resources) res.emplace_back(r);
  for (auto& o : operations) ops.emplace_back(o);
  return json::Object{
      {"name", name},
      {"clientConfig", json::Object{{"url", url}, {"caBundle", ca_bundle()}}},
      {"rules", json::Array{json::Object{{"operations", std::move(ops)},
                                         {"apiGroups", json::Array{"*"}},
                                         {"apiVersions", json::Array{"*"}},
                                         {"resources", std::move(res)}}}},
      {"sideEffects", "None"},
      {"admissionReviewVersions", json::Array{"v1"}},
  };
}

std::uint16_t closed_port() {
  http::Server s(http::ServerOptions{}, [](http::Request&, http::Reply& r) { r.send(http::Response(200, "{}")); });
  s.start();
  auto port = s.port();
  s.stop();
  return port;
}

Cluster::Cluster() {
  service.set_admission(&admission);
  service.set_converter(&converter);
  admission.set_converter(&converter);
  create_namespace("default");
}

Cluster::~Cluster() = default;

rest::Target Cluster::target(std::string_view group_resource, std::string version, std::string ns, std::string name,
                             std::string subresource) {
  auto r = registry.find_group_resource(group_resource);
  if (!r) throw std::runtime_error("no resource " + std::string(group_resource));
  if (version.empty()) version = r->preferred_version().name;
  return rest::Target{r, version, std::move(ns), std::move(name), std::move(subresource)};
}

json::Value Cluster::create(std::string_view group_resource, std::string ns, json::Value body, rest::WriteOptions* o,
                            std::string version) {
  rest::WriteOptions local;
  rest::WriteOptions& opts = o ? *o : local;
  return service.create(target(group_resource, version, std::move(ns)), std::move(body), opts).object;
}

void Cluster::create_namespace(const std::string& name, json::Object labels) {
  json::Object md{{"name", name}};
  if (!labels.empty()) md["labels"] = std::move(labels);
  create("namespaces", "", json::Object{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", std::move(md)}});
}

void Cluster::add_mutating(const std::string& name, json::Array webhooks) {
  create("mutatingwebhookconfigurations.admissionregistration.k8s.io", "",
         json::Object{{"apiVersion", "admissionregistration.k8s.io/v1"},
                      {"kind", "MutatingWebhookConfiguration"},
                      {"metadata", json::Object{{"name", name}}},
                      {"webhooks", std::move(webhooks)}});
}

void Cluster::add_validating(const std::string& name, json::Array webhooks) {
  create("validatingwebhookconfigurations.admissionregistration.k8s.io", "",
         json::Object{{"apiVersion", "admissionregistration.k8s.io/v1"},
                      {"kind", "ValidatingWebhookConfiguration"},
                      {"metadata", json::Object{{"name", name}}},
                      {"webhooks", std::move(webhooks)}});
}

void Cluster::store_validating(const std::string& name, json::Array webhooks) {
  store.create("validatingwebhookconfigurations.admissionregistration.k8s.io",
               json::Object{{"apiVersion", "admissionregistration.k8s.io/v1"},
                            {"kind", "ValidatingWebhookConfiguration"},
                            {"metadata", json::Object{{"name", name}, {"uid", "stored-" + name}}},
                            {"webhooks", std::move(webhooks)}});
}

json::Value Cluster::configmap(const std::string& name, json::Object labels, json::Object data) {
  json::Object md{{"name", name}};
  if (!labels.empty()) md["labels"] = std::move(labels);
  json::Object cm{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", std::move(md)}};
  if (!data.empty()) cm["data"] = std::move(data);
  return cm;
}

registry::ResourcePtr Cluster::add_crd(std::string group, std::string plural, std::string kind,
                                       std::vector<std::string> versions, std::string storage, bool status_subresource,
                                       json::Value conversion_webhook) {
  registry::ResourceInfo r;
  r.group = group;
  r.resource = plural;
  r.singular = kind;
  for (auto& c : r.singular) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  r.kind = kind;
  r.list_kind = kind + "List";
  r.namespaced = true;
  r.has_generation = true;
  r.crd = true;
  r.crd_name = plural + "." + group;
  r.allow_unconditional_update = false;
  if (!conversion_webhook.is_null()) {
    r.conversion_strategy = "Webhook";
    r.conversion_webhook = std::move(conversion_webhook);
  }
  for (const auto& v : versions) {
    registry::VersionInfo vi;
    vi.name = v;
    vi.storage = v == storage;
    vi.status_subresource = status_subresource;
    r.versions.push_back(std::move(vi));
  }
  std::string gr = r.group_resource();
  registry.put(std::move(r));
  return registry.find_group_resource(gr);
}

}  // namespace capstan::apiserver::admission::testing
