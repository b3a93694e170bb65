#include "controllers/certificates/key_manager.h"

#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/objects.h"
#include "controllers/certificates/policies/match.h"
#include "controllers/certificates/secret_builder.h"
#include "runtime/client/client.h"
#include "runtime/events/event.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/error.h"

namespace capstan::certificates {
namespace {

std::optional<pki::PrivateKey> parse_key(const SecretView& s) {
  try {
    return pki::PrivateKey::from_pem(s.get(kTlsKey));
  } catch (const pki::PkiError&) {
    return std::nullopt;
  }
}

void remove_secret(Env& env, const SecretView& s) {
  client::DeleteOptions o;
  o.ignore_not_found = true;
  o.precondition_uid = s.uid;
  try {
    env.client.remove(kSecretType.gvr, s.ns, s.name, o);
  } catch (const client::ApiError& e) {
    if (!client::is_conflict(e)) throw;  // a newer Secret of that name: not the one we judged
  }
}

}  // namespace

json::Value next_key_secret(const v1::Certificate& crt, const json::Value& owner, const std::string& name, const pki::PrivateKey& key) {
  return json::Object{
      {"apiVersion", "v1"},
      {"kind", "Secret"},
      {"metadata", json::Object{{"name", name},
                                {"namespace", std::string(crt.namespace_())},
                                {"labels", json::Object{{kFaoLabel, "true"}, {kNextPrivateKeyLabel, "true"}}},
                                {"ownerReferences", json::Array{owner_reference(v1::kCertificateKind, owner)}}}},
      {"type", "Opaque"},
      {"data", json::Object{{kTlsKey, meta::base64_encode(key.to_pem(pki::KeyEncoding::PKCS8))}}}};
}

pki::PrivateKey choose_new_key(const v1::Certificate& crt, const SecretView* target, bool* reused) {
  if (reused) *reused = false;
  if (target && v1::effective_rotation_policy(crt.spec) == v1::RotationPolicy::Never) {
    if (auto existing = parse_key(*target); existing && policies::private_key_matches_spec(*existing, crt.spec).empty()) {
      if (reused) *reused = true;
      return *existing;
    }
  }
  return pki::PrivateKey::generate(v1::effective_key_algorithm(crt.spec), v1::effective_key_size(crt.spec));
}

std::optional<pki::PrivateKey> ensure_next_private_key(Env& env, const v1::Certificate& crt, const json::Value& owner,
                                                       const SecretView* target, const std::string& name,
                                                       const log::Logger& log) {
  const std::string ns(crt.namespace_());
  auto judge = [&](const SecretView& s) -> std::optional<pki::PrivateKey> {
    auto key = parse_key(s);
    std::vector<std::string> violations;
    if (key) violations = policies::private_key_matches_spec(*key, crt.spec);
    if (key && violations.empty()) return key;
    std::string why = key ? "Regenerating private key due to change in fields: [" + join(violations, " ") + "]"
                          : "Regenerating private key as the stored one cannot be decoded";
    log.info("deleting stale next private key", {{"secret", name}, {"reason", why}});
    env.event(event_target("certs.capstan.dev/v1", v1::kCertificateKind, owner), "Normal", event_reason::kDeleted, why);
    remove_secret(env, s);
    return std::nullopt;
  };

  if (auto cached = env.secret_reader.cached(ns, name)) return judge(*cached);

  bool reused = false;
  pki::PrivateKey key = choose_new_key(crt, target, &reused);
  try {
    env.client.create(kSecretType.gvr, ns, next_key_secret(crt, owner, name, key));
  } catch (const client::ApiError& e) {
    if (!client::is_already_exists(e)) throw;
    // Made by an earlier reconcile (or before a restart) and not cached yet.
    auto live = env.secret_reader.live(ns, name);
    if (!live) throw std::runtime_error("Secret " + ns + "/" + name + " exists but cannot be read");
    return judge(*live);
  }
  auto target_ref = event_target("certs.capstan.dev/v1", v1::kCertificateKind, owner);
  if (reused) {
    env.event(target_ref, "Normal", event_reason::kReused,
              "Reusing private key stored in existing Secret resource \"" + crt.spec.secret_name + "\"");
  } else {
    env.event(target_ref, "Normal", event_reason::kGenerated, "Stored new private key in temporary Secret resource \"" + name + "\"");
  }
  log.info("stored the next private key", {{"secret", name}, {"reused", reused ? "true" : "false"}});
  return key;
}

}  // namespace capstan::certificates
