// Decryption of SOPS-encrypted documents (https://github.com/getsops/sops, file format 3.x) with
// age identities, as Flux's kustomize-controller decrypts them:
//   - an object with a top-level `sops` member holding a `mac` is decrypted value by value: every
//     value the metadata marks encrypted (unencrypted_suffix, encrypted_suffix,
//     unencrypted_regex, encrypted_regex; the rules apply to every key on the value's path) is an
//     `ENC[AES256_GCM,data:...,iv:...,tag:...,type:...]` string, opened with the file's data key
//     and its path ("data:password:") as additional data, and turned back into its type (str,
//     int, float, bool, bytes); `sops` is removed;
//   - a whole file (a Secret's data value or a secretGenerator source) in SOPS' YAML, JSON,
//     dotenv or binary form is decrypted into the format its name asks for.
// The data key comes from the `age` recipients (also inside a single key group); other key
// kinds (PGP, cloud KMS, Vault) and Shamir-split key groups are refused by name. As Flux does by
// default, the MAC over the whole document is not checked (kustomize changes unencrypted fields
// such as labels, which are under it); each value is authenticated with its own tag and path.
#pragma once

#include "controllers/gitops/sops/age.h"
#include "runtime/json/json.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::gitops::sops {

struct Keys {
  std::vector<AgeIdentity> age;
};

enum class Format { yaml, json, dotenv, ini, binary };

// By extension, as sops picks a store: .yaml/.yml, .json, .env, .ini; anything else is binary.
Format format_for_path(std::string_view path);
// The format of SOPS-encrypted text, by the marker its metadata leaves (Flux's
// detectFormatFromMarkerBytes); nullopt: not SOPS-encrypted.
std::optional<Format> detect_format(std::string_view text);

// Whether `obj` carries SOPS metadata (a top-level `sops` object with a `mac`).
bool is_encrypted(const json::Value& obj);
// Decrypts `obj` and removes its `sops` member (on failure `obj` is left as it was). Throws DecryptError naming the value's
// path ("data:password") or the key problem, never a value.
void decrypt(json::Value& obj, const Keys& keys);
// Decrypts a whole SOPS file from format `in` into format `out` (binary: the raw bytes).
std::string decrypt_file(std::string_view text, Format in, Format out, const Keys& keys);

}  // namespace capstan::gitops::sops
