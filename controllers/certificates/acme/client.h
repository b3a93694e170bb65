// An RFC 8555 ACME client: directory, nonces, accounts, orders, authorizations, challenges,
// finalization and certificate download, over runtime/http's synchronous HTTPS client.
//
//   acme::Client client("https://acme.example/directory", http_options);
//   auto key = acme::Signer::from_private_key(account_private_key);
//   auto reg = client.register_account(key, "admin@example.com", /*terms_agreed=*/true);
//   acme::Account account{key, reg.url};
//   auto order = client.new_order(account, {acme::Identifier::dns("www.example.com")});
//   for (const auto& url : order.authorizations) {
//     auto authz = client.get_authorization(account, url);
//     const auto* ch = authz.find_challenge(acme::kHttp01);
//     solver.add(ch->token, acme::key_authorization(ch->token, key.jwk()));
//     client.accept_challenge(account, ch->url);
//   }
//   order = client.poll_order(account, order.url);            // ready (or invalid)
//   order = client.finalize(account, order, csr.to_der());
//   order = client.poll_order(account, order.url);            // valid
//   std::string pem = client.download_certificate(account, order.certificate);
//
// Every method is synchronous and thread-safe. Failed requests throw AcmeError (the problem
// document plus which request failed) or http::TransportError; a badNonce is retried once
// with a fresh nonce, and 429/503 answers with a short Retry-After are retried after waiting.
#pragma once

#include "controllers/certificates/acme/directory.h"
#include "controllers/certificates/acme/jws.h"
#include "controllers/certificates/acme/nonces.h"
#include "controllers/certificates/acme/problem.h"
#include "controllers/certificates/acme/resources.h"
#include "runtime/http/client.h"

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::metrics {
class Registry;
}

namespace capstan::certificates::acme {

struct ClientConfig {
  std::chrono::milliseconds request_timeout{std::chrono::seconds(30)};
  // A 429 or 503 whose Retry-After is at most this long is retried after waiting it out (at
  // most max_retries times per call); longer waits are the caller's: the AcmeError carries
  // retry_after() so a controller can requeue.
  std::chrono::seconds max_retry_after_wait{5};
  int max_retries = 2;
  std::size_t nonce_pool_capacity = 32;
};

// How long poll_order / poll_authorization wait. Between polls the client sleeps the
// response's Retry-After when it has one, else `interval`, doubling up to `max_interval`.
// Sleeps never run past the deadline; the last poll happens at it.
struct PollOptions {
  std::chrono::milliseconds timeout{std::chrono::minutes(2)};
  std::chrono::milliseconds interval{std::chrono::seconds(1)};
  std::chrono::milliseconds max_interval{std::chrono::seconds(10)};
};

// A poll that ran out of time: the resource was still pending/processing.
class PollTimeout : public std::runtime_error {
 public:
  PollTimeout(std::string what, std::string url, std::string last_status)
      : std::runtime_error(std::move(what)), url_(std::move(url)), last_status_(std::move(last_status)) {}
  const std::string& url() const noexcept { return url_; }
  const std::string& last_status() const noexcept { return last_status_; }

 private:
  std::string url_;
  std::string last_status_;
};

// RFC 8555 §7.3.4 external account binding, as an Issuer's externalAccountBinding gives it.
struct ExternalAccountBinding {
  std::string key_id;
  std::string mac_key;              // raw key bytes (the Secret holds it base64url-encoded)
  std::string algorithm = "HS256";  // HS256 | HS384 | HS512
};

// One certificate chain the server offers for an order.
struct CertificateChain {
  std::string url;
  std::string pem;  // leaf first
};

class Client {
 public:
  // `registry` nullptr = metrics::Registry::global().
  explicit Client(std::string directory_url, http::ClientOptions http_options = {},
                  metrics::Registry* registry = nullptr, ClientConfig config = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  const std::string& directory_url() const;
  // Fetched on first use and kept (a failed fetch is retried by the next call).
  Directory directory();

  // --- accounts (§7.3) ---
  // newAccount with the key's JWK. `email` (optional) becomes contact "mailto:<email>".
  // An existing account for the key is returned as is (200, created = false).
  Registration register_account(const Signer& key, std::string_view email, bool terms_agreed,
                                const std::optional<ExternalAccountBinding>& eab = std::nullopt);
  // newAccount with onlyReturnExisting: the key's account, or nullopt for accountDoesNotExist.
  std::optional<Registration> lookup_account(const Signer& key);
  // POST-as-GET of the account URL.
  Registration get_account(const Account& account);
  // Replaces the account's contacts (empty email = none).
  Registration update_account(const Account& account, std::string_view email);

  // --- orders, authorizations, challenges (§7.4, §7.5) ---
  Order new_order(const Account& account, const std::vector<Identifier>& identifiers);
  Order get_order(const Account& account, std::string_view url);
  Authorization get_authorization(const Account& account, std::string_view url);
  // Tells the server the challenge is ready to be validated (POST {}).
  Challenge accept_challenge(const Account& account, std::string_view url);
  // Polls until the order is no longer pending or processing (ready, valid or invalid).
  // Throws PollTimeout.
  Order poll_order(const Account& account, std::string_view url, const PollOptions& options = {});
  // Polls until the authorization is no longer pending. Throws PollTimeout.
  Authorization poll_authorization(const Account& account, std::string_view url, const PollOptions& options = {});
  // Why an invalid order failed: the error of the first failed challenge (with the
  // authorization's identifier and URL as context), else the order's own error. Reads the
  // order's authorizations. For the caller to throw or record.
  AcmeError order_failure(const Account& account, const Order& order);

  // --- issuance (§7.4) ---
  // Submits the DER CSR to the order's finalize URL; returns the order (processing or valid).
  Order finalize(const Account& account, const Order& order, std::string_view csr_der);
  // The PEM chain (leaf first) at `url`. With `preferred_chain`, the first of the default and
  // alternate (Link rel="alternate") chains whose top certificate is issued by, or is, a CA
  // with that common name; the default chain when none matches (cert-manager's preferredChain).
  std::string download_certificate(const Account& account, std::string_view url, std::string_view preferred_chain = {});
  // The default chain then every alternate.
  std::vector<CertificateChain> download_certificate_chains(const Account& account, std::string_view url);

  // The nonces kept for signed requests (for diagnostics and tests).
  NoncePool& nonce_pool();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Whether the top certificate of a PEM chain is issued by, or is, a CA whose subject common
// name is `name`. False when the PEM holds no certificate.
bool chain_matches(std::string_view pem, std::string_view name);

}  // namespace capstan::certificates::acme
