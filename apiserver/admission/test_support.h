// Test helpers for apiserver/admission: an in-process HTTPS webhook (http::Server with a
// serving certificate from a test CA) and an in-process cluster (Store + Registry + Service
// with WebhookAdmission and WebhookConverter wired in).
#pragma once

#include "apiserver/admission/webhook_admission.h"
#include "apiserver/admission/webhook_converter.h"
#include "apiserver/registry/resource.h"
#include "apiserver/rest/service.h"
#include "apiserver/storage/store.h"
#include "runtime/http/server.h"
#include "runtime/json/json.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace capstan::apiserver::admission::testing {

// The test CA (one per process): its PEM and base64 form for caBundle.
const std::string& ca_pem();
std::string ca_bundle();

// An HTTPS server standing in for a webhook. Every POST is parsed as JSON, recorded, and
// answered by the responder.
class FakeWebhook {
 public:
  using Responder = std::function<http::Response(const json::Value& review)>;
  // `hosts` go into the serving certificate (IP addresses and DNS names).
  explicit FakeWebhook(Responder respond, std::vector<std::string> hosts = {"127.0.0.1"});
  ~FakeWebhook();
  FakeWebhook(const FakeWebhook&) = delete;
  FakeWebhook& operator=(const FakeWebhook&) = delete;

  std::uint16_t port() const;
  std::string url(std::string_view path = "/") const;  // https://127.0.0.1:<port><path>
  void set_responder(Responder r);
  // Holds each answer this long (interruptible: the destructor releases waiting handlers).
  void set_delay(std::chrono::milliseconds d) { delay_ms_ = d.count(); }

  std::vector<json::Value> reviews() const;
  std::vector<std::string> targets() const;  // request targets (path?query)
  std::vector<std::string> hosts() const;    // Host headers
  std::size_t calls() const;
  void stop();

 private:
  mutable std::mutex mu_;
  Responder respond_;
  std::vector<json::Value> reviews_;
  std::vector<std::string> targets_;
  std::vector<std::string> hosts_;
  std::atomic<long long> delay_ms_{0};
  std::atomic<bool> stopping_{false};
  std::unique_ptr<http::Server> server_;
};

// Answers for admission reviews, echoing the request's apiVersion and uid.
http::Response review_answer(const json::Value& review, json::Object response);
http::Response allow(const json::Value& review, const json::Array& patch = {}, std::vector<std::string> warnings = {});
http::Response deny(const json::Value& review, int code, std::string message, std::string reason = "");
http::Response json_answer(int status, const json::Value& body);

// A webhook entry for a configuration (url + caBundle, sideEffects None, v1 reviews, rules for
// `resources` in every group/version with `operations`).
json::Object webhook_entry(std::string name, std::string url, std::vector<std::string> resources = {"*"},
                           std::vector<std::string> operations = {"*"});

// A closed local port (a server was there and stopped).
std::uint16_t closed_port();

class Cluster {
 public:
  Cluster();
  ~Cluster();

  storage::Store store{storage::StoreOptions{}};
  registry::Registry registry;
  rest::Service service{store, registry};
  WebhookConverter converter{store};
  WebhookAdmission admission{store, registry};

  rest::Target target(std::string_view group_resource, std::string version = "", std::string ns = "",
                      std::string name = "", std::string subresource = "");
  json::Value create(std::string_view group_resource, std::string ns, json::Value body, rest::WriteOptions* o = nullptr,
                     std::string version = "");
  void create_namespace(const std::string& name, json::Object labels = {});
  // Creates a Mutating/ValidatingWebhookConfiguration named `name` with `webhooks`.
  void add_mutating(const std::string& name, json::Array webhooks);
  void add_validating(const std::string& name, json::Array webhooks);
  // A ValidatingWebhookConfiguration written straight into the store, unvalidated: what v1
  // refuses today but an older API version or release may have left stored (sideEffects Some,
  // no known review version), which admission must still handle.
  void store_validating(const std::string& name, json::Array webhooks);
  // A ConfigMap body.
  static json::Value configmap(const std::string& name, json::Object labels = {}, json::Object data = {});
  // Registers a schema-less custom resource (versions in priority order; `storage` names the
  // storage version) and returns it.
  registry::ResourcePtr add_crd(std::string group, std::string plural, std::string kind, std::vector<std::string> versions,
                                std::string storage, bool status_subresource = false,
                                json::Value conversion_webhook = nullptr);
};

}  // namespace capstan::apiserver::admission::testing
