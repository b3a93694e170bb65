#include "apiserver/storage/object.h"

namespace capstan::apiserver::storage {

Object make_object(json::Value v, std::int64_t rv) {
  json::ensure_object(v, {"metadata"})["resourceVersion"] = std::to_string(rv);
  auto serialized = std::make_shared<const std::string>(json::serialize(v));
  return Object{std::make_shared<const json::Value>(std::move(v)), std::move(serialized), rv};
}

Object adopt_object(json::Value v, std::string serialized, std::int64_t rv) {
  return Object{std::make_shared<const json::Value>(std::move(v)), std::make_shared<const std::string>(std::move(serialized)), rv};
}

std::string object_key(std::string_view ns, std::string_view name) {
  std::string k;
  if (!ns.empty()) {
    k.reserve(ns.size() + name.size() + 1);
    k += ns;
    k += '/';
  }
  k += name;
  return k;
}

}  // namespace capstan::apiserver::storage
