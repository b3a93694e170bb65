// The key manager (pkg/controller/certificates/keymanager): while a Certificate is issuing,
// the private key of the next revision lives in a temporary Secret (labelled ours and
// next-private-key, controlled by the Certificate, PKCS#8). rotationPolicy Always generates
// a new key per issuance; Never copies the key of the current Secret when it fits the spec.
// A key that no longer fits the spec is deleted and made again.
#pragma once

#include "apis/certs/v1/certificate.h"
#include "controllers/certificates/secret_view.h"
#include "runtime/json/json.h"
#include "runtime/log/log.h"
#include "runtime/pki/key.h"

#include <optional>
#include <string>

namespace capstan::certificates {

struct Env;
namespace v1 = apis::certs::v1;

// The temporary Secret object holding `key` (pure).
json::Value next_key_secret(const v1::Certificate& crt, const json::Value& owner, const std::string& name, const pki::PrivateKey& key);

// The key a new issuance uses when none is stored yet: the target Secret's with
// rotationPolicy Never when it parses and fits the spec (reused = true), else a new one.
pki::PrivateKey choose_new_key(const v1::Certificate& crt, const SecretView* target, bool* reused);

// Ensures Secret `name` holds a key fitting the spec and returns it; nullopt when a stale one
// was deleted (the next reconcile, woken by the deletion, makes a new one).
std::optional<pki::PrivateKey> ensure_next_private_key(Env& env, const v1::Certificate& crt, const json::Value& owner,
                                                       const SecretView* target, const std::string& name,
                                                       const log::Logger& log);

}  // namespace capstan::certificates
