// The webhook serving certificate, kept by the manager itself when nothing else provides it
// (controller-runtime's cert-controller rotator and cert-manager's cainjector in one piece):
//
//   - Secret <ns>/<secret_name> (type kubernetes.io/tls) holds ca.crt, ca.key, tls.crt and
//     tls.key. When it is missing, unreadable, made for other hosts, or past two thirds of its
//     life, it is made again: the serving certificate (cert_validity) from the CA
//     (ca_validity); the CA too when it is past two thirds of its own life, with ca.crt then
//     holding the new and the old CA until the old one expires, so a caBundle not yet updated
//     keeps verifying. Replicas agree through the API server: create (409: another replica made
//     it, read it) and update with the resourceVersion read (409: read again).
//   - tls.crt and tls.key are written into cert_dir when they differ (the webhook server
//     re-reads them within its reload interval).
//   - The caBundle of every ValidatingWebhookConfiguration and MutatingWebhookConfiguration
//     (each webhook) annotated capstan.dev/inject-ca-from-secret: <namespace>/<name> is set to
//     that Secret's ca.crt (cert-manager's cert-manager.io/inject-ca-from-secret, under our
//     name): this Secret, or any other the manager may read, for webhooks of your own. So is
//     the conversion webhook's of every CustomResourceDefinition with that annotation and the
//     label capstan.dev/inject-ca=true (CRDs are listed by that label: a cluster's CRDs are
//     too big to list every minute).
//
//   webhook::CertRotator certs(client, {.ns = "capstan-system", .secret_name = "capstan-webhook-server-cert",
//                                       .hosts = {"capstan-webhook-service.capstan-system.svc"}, .cert_dir = dir});
//   certs.ensure();  // before the webhook server starts: it needs the files,
//   certs.inject();  // and every configuration its CA
//   certs.start();   // then every check_interval: ensure() and inject()
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace capstan::client {
class Client;
}

namespace capstan::webhook {

inline constexpr std::string_view kInjectCaFromSecretAnnotation = "capstan.dev/inject-ca-from-secret";
inline constexpr std::string_view kInjectCaLabel = "capstan.dev/inject-ca";
inline constexpr std::string_view kInjectCaLabelSelector = "capstan.dev/inject-ca=true";

struct CertRotatorOptions {
  std::string ns;
  std::string secret_name;
  std::vector<std::string> hosts;  // DNS names and IP addresses of the serving certificate
  std::string cert_dir;            // where tls.crt and tls.key are written
  std::chrono::seconds ca_validity{std::chrono::hours(24 * 365 * 10)};
  std::chrono::seconds cert_validity{std::chrono::hours(24 * 365)};
  std::chrono::milliseconds check_interval{std::chrono::minutes(1)};
};

class CertRotator {
 public:
  CertRotator(client::Client& client, CertRotatorOptions options);
  ~CertRotator();  // stop()
  CertRotator(const CertRotator&) = delete;
  CertRotator& operator=(const CertRotator&) = delete;

  // Makes the Secret and the files current. Throws std::runtime_error naming the Secret when
  // the API server refuses (after re-reading on conflicts, at most 5 times).
  void ensure();
  // Sets the caBundles (see above); returns how many objects it patched. An object it cannot
  // patch, or whose Secret it cannot read, is logged with its name and skipped.
  int inject();
  // A thread running ensure() and inject() every check_interval, the first after one interval
  // (the caller ran both before serving).
  void start();
  void stop();

  // The CA bundle (PEM) of the last ensure(); empty before.
  std::string ca_bundle() const;

 private:
  void loop();
  // The Secret's ca.crt by "<namespace>/<name>" (ours from memory); empty after logging why.
  std::string bundle_of(const std::string& ref);
  void write_files(const std::string& cert_pem, const std::string& key_pem);

  client::Client& client_;
  CertRotatorOptions opts_;
  mutable std::mutex mu_;
  std::string ca_bundle_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace capstan::webhook
