// Flux's SOPS decryption (spec.decryption) over a Kustomization's build, with the age keys of
// its decryption Secret (sops/sops.h does the cryptography):
//   - an object with top-level `sops` metadata is decrypted whole after the build (any kind);
//     without spec.decryption it fails the build, never reaching the API server encrypted;
//   - a Secret's data value that is a whole SOPS file (YAML, JSON, dotenv, binary: detected by
//     its metadata's marker) is decrypted into the format its key names (`.env`, `.yaml`, ...);
//   - secretGenerator files and env files, and patch files, are decrypted before kustomize reads
//     them;
//   - an object annotated gitops.capstan.dev/decrypt: disabled is left as it is.
// Errors name the object or file and the value's path, never a secret.
#pragma once

#include "controllers/gitops/sops/sops.h"
#include "runtime/json/json.h"

#include <string>
#include <string_view>

namespace capstan::gitops {

inline constexpr std::string_view kDecryptAnnotation = "gitops.capstan.dev/decrypt";

// The age identities of a decryption Secret: every data entry whose key ends in ".agekey".
// Throws BuildError naming `what` and the entry when one does not parse.
sops::Keys decryption_keys(const json::Value& secret, const std::string& what);

// Decrypts `obj` (named `id` in errors) as above; `keys` null: decryption is not configured.
void decrypt_object(json::Value& obj, const sops::Keys* keys, const std::string& id);

// A secretGenerator source or patch file at `path`: decrypted into the format its name asks for
// (a dotenv file stays dotenv) when it is SOPS-encrypted and `keys` are given, else returned as it is.
std::string decrypt_source(const std::string& path, std::string content, const sops::Keys* keys);

}  // namespace capstan::gitops
