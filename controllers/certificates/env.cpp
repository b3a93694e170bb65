#include "controllers/certificates/env.h"

#include "controllers/certificates/acme/client.h"
#include "controllers/certificates/acme/solver.h"
#include "runtime/events/recorder.h"
#include "runtime/http/client.h"

namespace capstan::certificates {

AcmeClients::AcmeClients(metrics::Registry* registry, std::chrono::milliseconds request_timeout)
    : registry_(registry), timeout_(request_timeout) {}

AcmeClients::~AcmeClients() = default;

std::shared_ptr<acme::Client> AcmeClients::get(const std::string& server, const std::string& ca_bundle_pem, bool skip_tls_verify) {
  std::string key = server + "\n" + (skip_tls_verify ? "1" : "0") + "\n" + ca_bundle_pem;
  std::lock_guard<std::mutex> l(mu_);
  auto& slot = clients_[key];
  if (!slot) {
    http::ClientOptions ho;
    ho.tls.ca_pem = ca_bundle_pem;
    ho.tls.insecure_skip_verify = skip_tls_verify;
    acme::ClientConfig cc;
    cc.request_timeout = timeout_;
    slot = std::make_shared<acme::Client>(server, ho, registry_, cc);
  }
  return slot;
}

Env::Env(client::Client& client, cache::Informer& certificates, cache::Informer& requests, cache::Informer& issuers,
         cache::Informer& cluster_issuers, cache::Informer& secrets, CertificatesOptions opts)
    : client(client),
      certificates(certificates),
      requests(requests),
      issuers(issuers),
      cluster_issuers(cluster_issuers),
      secrets(secrets),
      options(std::move(opts)),
      secret_reader(client, &secrets, options.live_secret_ttl),
      acme_clients(options.registry, options.acme_request_timeout) {}

Env::~Env() = default;

void Env::event(const json::Value& target, std::string_view type, std::string_view reason, std::string_view message) const {
  if (recorder) recorder->event(target, type, reason, message);
}

}  // namespace capstan::certificates
