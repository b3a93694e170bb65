#include "controllers/gitops/decryption.h"

#include "apis/gitops/v1/group.h"
#include "controllers/gitops/manifests.h"
#include "controllers/gitops/sops/error.h"
#include "runtime/meta/base64.h"

namespace capstan::gitops {
namespace {

constexpr std::string_view kDockerConfigJson = ".dockerconfigjson";

// The format a decrypted value is written in: by its key or file name (Flux's formatForPath).
sops::Format output_format(std::string_view name) {
  if (name.ends_with(kDockerConfigJson)) return sops::Format::json;
  return sops::format_for_path(name);
}

void decrypt_data_values(json::Value& obj, const sops::Keys& keys, const std::string& id) {
  auto* data = json::find(obj, {"data"});
  if (!data || !data->is_object()) return;
  for (auto& kv : data->as_object()) {
    if (!kv.value().is_string()) continue;
    auto decoded = meta::base64_decode(kv.value().get_string());
    if (!decoded) continue;  // the API server names a bad value better
    auto in = sops::detect_format(*decoded);
    if (!in) continue;
    try {
      kv.value() = meta::base64_encode(sops::decrypt_file(*decoded, *in, output_format(kv.key()), keys));
    } catch (const sops::DecryptError& e) {
      throw BuildError(id + ": data." + std::string(kv.key()) + ": " + e.what());
    }
  }
}

}  // namespace

sops::Keys decryption_keys(const json::Value& secret, const std::string& what) {
  sops::Keys keys;
  const auto* data = json::get_object(secret, {"data"});
  if (!data) return keys;
  for (const auto& kv : *data) {
    if (!kv.key().ends_with(".agekey") || !kv.value().is_string()) continue;
    auto text = meta::base64_decode(kv.value().get_string());
    if (!text) throw BuildError(what + ": data." + std::string(kv.key()) + " is not base64");
    try {
      for (auto& id : sops::parse_age_identities(*text)) keys.age.push_back(std::move(id));
    } catch (const sops::DecryptError& e) {
      throw BuildError(what + ": data." + std::string(kv.key()) + ": " + e.what());
    }
  }
  return keys;
}

void decrypt_object(json::Value& obj, const sops::Keys* keys, const std::string& id) {
  if (json::get_string(obj, {"metadata", "annotations", kDecryptAnnotation}) == apis::gitops::v1::kDisabled) return;
  if (sops::is_encrypted(obj)) {
    if (!keys) throw BuildError(id + " is SOPS-encrypted: set spec.decryption (provider sops, secretRef to a Secret with a *.agekey entry)");
    try {
      sops::decrypt(obj, *keys);
    } catch (const sops::DecryptError& e) {
      throw BuildError(id + ": " + e.what());
    }
    return;
  }
  if (keys && json::get_string(obj, {"kind"}) == "Secret" && json::get_string(obj, {"apiVersion"}) == "v1")
    decrypt_data_values(obj, *keys, id);
}

std::string decrypt_source(const std::string& path, std::string content, const sops::Keys* keys) {
  if (!keys) return content;
  auto in = sops::detect_format(content);
  if (!in) return content;
  sops::Format out = sops::format_for_path(path);
  if (*in == sops::Format::dotenv && out == sops::Format::binary) out = sops::Format::dotenv;  // an env file without .env
  try {
    return sops::decrypt_file(content, *in, out, *keys);
  } catch (const sops::DecryptError& e) {
    throw BuildError(path + ": " + e.what());
  }
}

}  // namespace capstan::gitops
