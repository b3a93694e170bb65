#include "controllers/certificates/secret_view.h"

#include "runtime/meta/base64.h"

namespace capstan::certificates {
namespace {

std::map<std::string, std::string> string_map(const json::Value& obj, json::Path path) {
  std::map<std::string, std::string> out;
  if (const auto* o = json::get_object(obj, path))
    for (const auto& kv : *o)
      if (kv.value().is_string()) out.emplace(std::string(kv.key()), std::string(kv.value().get_string()));
  return out;
}

}  // namespace

SecretView SecretView::from_json(const json::Value& secret) {
  SecretView s;
  s.ns = std::string(json::get_string(secret, {"metadata", "namespace"}));
  s.name = std::string(json::get_string(secret, {"metadata", "name"}));
  s.uid = std::string(json::get_string(secret, {"metadata", "uid"}));
  s.type = std::string(json::get_string(secret, {"type"}));
  s.labels = string_map(secret, {"metadata", "labels"});
  s.annotations = string_map(secret, {"metadata", "annotations"});
  if (const auto* d = json::get_object(secret, {"data"})) {
    for (const auto& kv : *d) {
      std::string value;
      if (kv.value().is_string())
        if (auto decoded = meta::base64_decode(kv.value().get_string())) value = std::move(*decoded);
      s.data.emplace(std::string(kv.key()), std::move(value));
    }
  }
  return s;
}

const std::string& SecretView::get(std::string_view key) const {
  static const std::string empty;
  auto it = data.find(std::string(key));
  return it == data.end() ? empty : it->second;
}

bool SecretView::has_label(std::string_view key, std::string_view value) const {
  auto it = labels.find(std::string(key));
  return it != labels.end() && it->second == value;
}

}  // namespace capstan::certificates
