#include "testing/error_webhook.h"

#include "testing/kubectl.h"
#include "testing/process.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/pki.h"
#include "runtime/webhook/admission.h"
#include "runtime/webhook/server.h"

#include <filesystem>
#include <random>
#include <stdexcept>

namespace capstan::e2e {

ErrorWebhook::ErrorWebhook(const TempDir& dir, Kubectl& kubectl, std::string name) : kubectl_(kubectl), name_(std::move(name)) {
  auto ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  auto ca = pki::self_signed_ca("capstan e2e error webhook", std::chrono::hours(24), ca_key);
  auto serving = pki::serving_certificate({"127.0.0.1"}, ca, ca_key, std::chrono::hours(24));
  std::string cert_dir = dir.file(name_ + "-certs");
  std::filesystem::create_directories(cert_dir);
  write_file(cert_dir + "/tls.key", serving.key.to_pem(pki::KeyEncoding::PKCS8));
  write_file(cert_dir + "/tls.crt", serving.certificate.to_pem());

  webhook::ServerOptions so;
  so.host = "127.0.0.1";
  so.port = 0;
  so.cert_dir = cert_dir;
  server_ = std::make_unique<webhook::Server>(so);
  server_->register_path("/errors", webhook::make_admission_handler([this](const webhook::AdmissionRequest&) {
    thread_local std::mt19937_64 rng(std::random_device{}());
    ++reviewed_;
    double draw = std::uniform_real_distribution<double>(0, 1)(rng);
    if (draw < rate429_.load()) {
      ++injected_;
      return webhook::errored(429, "injected by the e2e error webhook: too many requests, retry later");
    }
    if (draw < rate429_.load() + rate500_.load()) {
      ++injected_;
      return webhook::errored(500, "injected by the e2e error webhook: internal error");
    }
    return webhook::allowed();
  }));
  server_->start();

  std::string url = "https://127.0.0.1:" + std::to_string(server_->port()) + "/errors";
  kubectl_.ok({"apply", "-f", "-"}, R"(apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: )" + name_ + R"(}
webhooks:
- name: errors.e2e.capstan.dev
  clientConfig: {url: ")" + url + R"(", caBundle: )" + meta::base64_encode(ca.to_pem()) + R"(}
  rules:
  - operations: [CREATE, UPDATE, DELETE]
    apiGroups: ["", apps, certs.capstan.dev, monitoring.capstan.dev, kafka.capstan.dev, gitops.capstan.dev]
    apiVersions: ["*"]
    resources: ["*/*"]
  failurePolicy: Ignore
  sideEffects: None
  admissionReviewVersions: [v1]
  timeoutSeconds: 5
)");
}

ErrorWebhook::~ErrorWebhook() {
  set_rates(0, 0);
  kubectl_({"delete", "validatingwebhookconfiguration", name_, "--ignore-not-found"});
  server_->stop();
}

void ErrorWebhook::set_rates(double rate429, double rate500) {
  if (rate429 < 0 || rate500 < 0 || rate429 + rate500 > 1) throw std::invalid_argument("ErrorWebhook: rates must add up to at most 1");
  rate429_ = rate429;
  rate500_ = rate500;
}

}  // namespace capstan::e2e
