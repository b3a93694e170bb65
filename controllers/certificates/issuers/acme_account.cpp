#include "controllers/certificates/issuers/acme_account.h"

#include "apis/certs/v1/group.h"
#include "controllers/certificates/acme/client.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/issuers/lookup.h"
#include "runtime/client/client.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/error.h"

namespace capstan::certificates {
namespace {

namespace r = v1::issuer_reason;

std::string key_field(const v1::AcmeIssuer& a) {
  return a.private_key_secret_ref.key.empty() ? std::string(kTlsKey) : a.private_key_secret_ref.key;
}

// The account key, generating and storing it when allowed. Throws with context.
pki::PrivateKey account_key(Env& env, const v1::Issuer& issuer, const log::Logger& log) {
  const auto& a = *issuer.spec.acme;
  std::string ns = resource_namespace(env, issuer);
  const std::string& name = a.private_key_secret_ref.name;
  auto secret = env.secret_reader.get(ns, name);
  if (secret) {
    const std::string& pem = secret->get(key_field(a));
    if (pem.empty()) throw std::runtime_error("Secret " + ns + "/" + name + " has no \"" + key_field(a) + "\"");
    try {
      return pki::PrivateKey::from_pem(pem);
    } catch (const pki::PkiError& e) {
      throw std::runtime_error("the account key in Secret " + ns + "/" + name + " is invalid: " + e.what());
    }
  }
  if (a.disable_account_key_generation)
    throw std::runtime_error("Secret " + ns + "/" + name + " not found and account key generation is disabled");
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::RSA, 2048);
  json::Value obj = json::Object{
      {"apiVersion", "v1"},
      {"kind", "Secret"},
      {"metadata", json::Object{{"name", name}, {"namespace", ns}}},
      {"type", "Opaque"},
      {"data", json::Object{{key_field(a), meta::base64_encode(key.to_pem(pki::KeyEncoding::PKCS1))}}}};
  try {
    env.client.create(kSecretType.gvr, ns, obj);
    log.info("generated an ACME account key", {{"secret", ns + "/" + name}});
  } catch (const client::ApiError& e) {
    if (!client::is_already_exists(e)) throw;
    auto live = env.secret_reader.live(ns, name);
    if (!live) throw std::runtime_error("Secret " + ns + "/" + name + " exists but cannot be read");
    return pki::PrivateKey::from_pem(live->get(key_field(a)));
  }
  env.secret_reader.forget(ns, name);
  return key;
}

std::string origin(std::string_view url) {
  auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return std::string(url);
  auto slash = url.find('/', scheme + 3);
  return std::string(url.substr(0, slash));
}

}  // namespace

IssuerCondition setup_acme(Env& env, const v1::Issuer& issuer, v1::IssuerStatus& status, const log::Logger& log) {
  const auto& a = *issuer.spec.acme;
  auto fail = [&](const std::string& why) {
    return IssuerCondition{"False", std::string(r::kErrRegisterAccount), "Failed to register ACME account: " + why,
                           env.options.issuer_retry_interval};
  };
  pki::PrivateKey key;
  try {
    key = account_key(env, issuer, log);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  acme::Signer signer;
  try {
    signer = acme::Signer::from_private_key(key);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  const std::string hash = signer.thumbprint();
  const auto* ready = issuer.status.condition(v1::condition::kReady);
  const auto& prev = issuer.status.acme;
  if (prev && !prev->uri.empty() && prev->last_private_key_hash == hash && prev->last_registered_email == a.email &&
      origin(prev->uri) == origin(a.server) && ready && ready->status == "True")
    return {"True", std::string(r::kAccountRegistered), "The ACME account was registered with the ACME server",
            env.options.issuer_recheck_interval};
  try {
    auto client = env.acme_clients.get(a.server, a.ca_bundle, a.skip_tls_verify);
    auto reg = client->register_account(signer, a.email, true);
    if (!reg.created && prev && prev->last_registered_email != a.email) reg = client->update_account({signer, reg.url}, a.email);
    if (!reg.status.empty() && reg.status != acme::status::kValid) return fail("the account is " + reg.status);
    status.acme = v1::AcmeIssuerStatus{reg.url, a.email, hash};
    log.info("ACME account registered", {{"server", a.server}, {"account", reg.url}, {"created", reg.created ? "true" : "false"}});
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  return {"True", std::string(r::kAccountRegistered), "The ACME account was registered with the ACME server",
          env.options.issuer_recheck_interval};
}

std::optional<acme::Account> load_account(Env& env, const v1::Issuer& issuer, std::string* why) {
  const auto& a = *issuer.spec.acme;
  if (!issuer.status.acme || issuer.status.acme->uri.empty()) {
    *why = "the issuer has no registered ACME account yet";
    return std::nullopt;
  }
  std::string ns = resource_namespace(env, issuer);
  auto secret = env.secret_reader.get(ns, a.private_key_secret_ref.name);
  if (!secret) {
    *why = "the account key Secret " + ns + "/" + a.private_key_secret_ref.name + " is missing";
    return std::nullopt;
  }
  try {
    auto signer = acme::Signer::from_private_key(pki::PrivateKey::from_pem(secret->get(key_field(a))));
    return acme::Account{signer, issuer.status.acme->uri};
  } catch (const std::exception& e) {
    *why = std::string("the account key is invalid: ") + e.what();
    return std::nullopt;
  }
}

}  // namespace capstan::certificates
