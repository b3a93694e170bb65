#include "controllers/certificates/tests/harness.h"

#include "apis/certs/v1/crds.h"
#include "apis/trust/v1alpha1/crds.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/plugin.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"
#include "runtime/pki/pki.h"
#include "webhooks/certificates/webhooks.h"

#include <gtest/gtest.h>

namespace capstan::certificates::testing {

meta::TimePoint TestClock::now() const {
  std::lock_guard<std::mutex> l(mu_);
  return meta::Clock::now() + offset_;
}

void TestClock::advance(std::chrono::seconds d) {
  std::lock_guard<std::mutex> l(mu_);
  offset_ += d;
}

ClockFn TestClock::fn() {
  return [this] { return now(); };
}

Harness::Harness(HarnessOptions options) : opts_(std::move(options)), cluster_(opts_.backend) {
  kubeconfig_ = cluster_.kubeconfig_path();
  install_crds();
  ensure_namespace("capstan-system");
  ensure_namespace("shop");
  client::Config cfg = cluster_.config();
  grant_manager_identity(cfg);
  cfg.qps = opts_.manager_qps;
  cfg.burst = opts_.manager_burst;
  client::ClientOptions co;
  co.registry = &registry_;
  manager_client_ = std::make_unique<client::Client>(cfg, co);
  if (opts_.start) start_manager();
}

Harness::~Harness() { stop_manager(); }

void Harness::grant_manager_identity(client::Config& cfg) {
  auto& c = cluster_.client();
  const std::string ns = "capstan-system", name = "capstan-manager-certificates";
  auto apply = [&](json::Object obj) { c.apply(json::Value(std::move(obj)), "test", true); };
  apply({{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", json::Object{{"name", name}, {"namespace", ns}}}});
  apply({{"apiVersion", "rbac.authorization.k8s.io/v1"},
         {"kind", "ClusterRole"},
         {"metadata", json::Object{{"name", name}}},
         {"rules", plugin().rbac_rules()}});
  apply({{"apiVersion", "rbac.authorization.k8s.io/v1"},
         {"kind", "ClusterRoleBinding"},
         {"metadata", json::Object{{"name", name}}},
         {"roleRef", json::Object{{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", name}}},
         {"subjects", json::Array{json::Object{{"kind", "ServiceAccount"}, {"name", name}, {"namespace", ns}}}}});
  // A TokenRequest token, as the kubelet projects one into the manager's pod.
  auto r = c.raw("POST", "/api/v1/namespaces/" + ns + "/serviceaccounts/" + name + "/token",
                 R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":7200}})");
  cfg.bearer_token = std::string(json::get_string(json::parse(r.body), {"status", "token"}));
  if (cfg.bearer_token.empty()) throw std::runtime_error("TokenRequest for " + ns + "/" + name + " returned no token: " + r.body);
  cfg.client_cert_pem.clear();
  cfg.client_key_pem.clear();
  cfg.token_file.clear();
}

void Harness::install_crds() {
  const meta::GroupVersionResource crds{"apiextensions.k8s.io", "v1", "customresourcedefinitions"};
  auto all = apis::certs::v1::crds();
  for (auto& crd : apis::trust::v1alpha1::crds()) all.push_back(std::move(crd));
  for (const auto& crd : all) cluster_.client().apply(crds, "", crd, "test", true);
  for (const auto& crd : all) {
    bool ok = integration::eventually(
        [&] {
          auto c = cluster_.client().get(crds, "", meta::name_of(crd));
          auto est = meta::find_condition(c, "Established");
          return est && est->status == "True";
        },
        10s);
    if (!ok) throw std::runtime_error("CRD " + std::string(meta::name_of(crd)) + " not established");
  }
}

void Harness::ensure_namespace(const std::string& ns) {
  try {
    cluster_.client().create({"", "v1", "namespaces"}, "",
                             json::Object{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::Object{{"name", ns}}}});
  } catch (const client::ApiError& e) {
    if (!client::is_already_exists(e)) throw;
  }
}

void Harness::start_manager() {
  if (mgr_) return;
  controller::ManagerOptions mo;
  mo.metrics_bind_address = "0";
  mo.health_probe_bind_address = "0";
  mo.registry = &registry_;
  mo.graceful_shutdown = 5s;
  mgr_ = std::make_unique<controller::Manager>(*manager_client_, mo);
  CertificatesOptions co = opts_.certs;
  co.registry = &registry_;
  if (opts_.webhooks && !webhooks_) {
    auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
    auto ca = pki::self_signed_ca("certs-test-webhook-ca", 24h, key);
    auto serving = pki::serving_certificate({"127.0.0.1"}, ca, key, 24h);
    webhook_certs_.write("tls.crt", serving.certificate.to_pem());
    webhook_certs_.write("tls.key", serving.key.to_pem(pki::KeyEncoding::PKCS8));
    webhook::ServerOptions wo;
    wo.host = "127.0.0.1";
    wo.port = 0;
    wo.cert_dir = webhook_certs_.path().string();
    wo.registry = &registry_;
    webhooks_ = std::make_unique<webhook::Server>(wo);
    env_ = wire_certificates(*mgr_, co);
    webhooks::certificates::register_webhooks(*webhooks_);
    webhooks_->start();
    webhook::Endpoint ep{"https://127.0.0.1:" + std::to_string(webhooks_->port()), "", "", ca.to_pem()};
    for (const auto& cfg : webhooks::certificates::configurations(ep)) {
      bool mutating = json::get_string(cfg, {"kind"}) == "MutatingWebhookConfiguration";
      cluster_.client().apply({"admissionregistration.k8s.io", "v1",
                               mutating ? "mutatingwebhookconfigurations" : "validatingwebhookconfigurations"},
                              "", cfg, "test", true);
    }
  } else {
    env_ = wire_certificates(*mgr_, co);
  }
  // A server that cannot start fails the test instead of terminating the process.
  run_ = std::thread([this] {
    try {
      mgr_->run();
    } catch (const std::exception& e) {
      run_error_ = e.what();
      run_failed_ = true;
    }
  });
  bool synced = integration::eventually([this] { return mgr_->caches_synced() || run_failed_; }, 20s);
  if (run_failed_) throw std::runtime_error("the manager failed to start: " + run_error_);
  if (!synced) throw std::runtime_error("manager caches did not sync");
}

void Harness::stop_manager() {
  if (!mgr_) return;
  mgr_->stop();
  if (run_.joinable()) run_.join();
  env_.reset();
  mgr_.reset();
}

json::Value Harness::apply(std::string_view text) { return apply_object(json::parse(text, "test object")); }

json::Value Harness::apply_object(const json::Value& obj) { return cluster_.client().apply(obj, "test", true); }

std::optional<json::Value> Harness::get(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view name) {
  try {
    return cluster_.client().get(gvr, ns, name);
  } catch (const client::ApiError& e) {
    if (client::is_not_found(e)) return std::nullopt;
    throw;
  }
}

std::vector<json::Value> Harness::list(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view selector) {
  client::ListOptions o;
  o.label_selector = std::string(selector);
  return cluster_.client().list(gvr, ns, o).items;
}

std::string condition_status(const json::Value& obj, std::string_view type) {
  auto c = meta::find_condition(obj, type);
  return c ? c->status : "";
}
std::string condition_reason(const json::Value& obj, std::string_view type) {
  auto c = meta::find_condition(obj, type);
  return c ? c->reason : "";
}
std::int64_t revision_of(const json::Value& obj) { return json::get_int(obj, {"status", "revision"}).value_or(0); }

std::optional<json::Value> Harness::wait_for(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view name,
                                             const std::function<bool(const json::Value&)>& pred, std::chrono::milliseconds timeout) {
  std::optional<json::Value> last;
  bool ok = integration::eventually(
      [&] {
        last = get(gvr, ns, name);
        return last && pred(*last);
      },
      timeout, 25ms);
  if (!ok) return std::nullopt;
  return last;
}

json::Value Harness::wait_ready(std::string_view ns, std::string_view name, std::int64_t min_revision, std::chrono::milliseconds timeout) {
  std::optional<json::Value> last;
  bool ok = integration::eventually(
      [&] {
        last = get(kCertificateType.gvr, ns, name);
        if (!last) return false;
        auto ready = meta::find_condition(*last, "Ready");
        return ready && ready->status == "True" && ready->observed_generation == meta::generation_of(*last) &&
               revision_of(*last) >= min_revision && condition_status(*last, "Issuing").empty();
      },
      timeout, 25ms);
  EXPECT_TRUE(ok) << "Certificate " << ns << "/" << name << " not Ready (revision >= " << min_revision
                  << "): " << (last ? json::serialize(*last) : std::string("<missing>"));
  return last.value_or(json::Value());
}

bool Harness::wait_no_temporary_keys(std::string_view ns, std::chrono::milliseconds timeout) {
  return integration::eventually([&] { return list(kSecretType.gvr, ns, std::string(kNextPrivateKeyLabel) + "=true").empty(); },
                                 timeout);
}

std::map<std::string, std::string> Harness::secret_data(std::string_view ns, std::string_view name) {
  std::map<std::string, std::string> out;
  auto s = get(kSecretType.gvr, ns, name);
  if (!s) return out;
  if (const auto* d = json::get_object(*s, {"data"}))
    for (const auto& kv : *d) out[std::string(kv.key())] = meta::base64_decode(kv.value().as_string()).value_or("");
  return out;
}

double Harness::manager_requests(std::string_view method, std::string_view code) {
  double total = 0;
  for (const auto& fam : registry_.collect()) {
    if (fam.name != "rest_client_requests_total") continue;
    // labels: code, method, host
    for (const auto& s : fam.samples) {
      if (!code.empty() && s.label_values.at(0) != code) continue;
      if (!method.empty() && s.label_values.at(1) != method) continue;
      total += s.value;
    }
  }
  return total;
}

double Harness::reconcile_errors(std::string_view controller) {
  auto s = integration::find_sample(registry_, "controller_runtime_reconcile_errors_total", {std::string(controller)});
  return s ? s->value : 0;
}

}  // namespace capstan::certificates::testing
