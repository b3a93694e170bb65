#include "apiserver/builtin/claim_validation.h"

#include "runtime/meta/quantity.h"

namespace capstan::apiserver::builtin {
namespace {

using validation::FieldPath;

constexpr std::string_view kBetaClassAnnotation = "volume.beta.kubernetes.io/storage-class";

const json::Value* find(const json::Value& v, std::initializer_list<std::string_view> path) {
  const json::Value* m = json::find(v, path);
  return m && !m->is_null() ? m : nullptr;
}

long double storage_of(const json::Value& claim, std::initializer_list<std::string_view> path) {
  return meta::quantity_value(json::get_string(claim, path)).value_or(0);
}

}  // namespace

std::vector<validation::Cause> validate_claim_update(const json::Value& claim, const json::Value& old) {
  std::vector<validation::Cause> out;
  const json::Value* now_found = find(claim, {"spec"});
  const json::Value* old_found = find(old, {"spec"});
  if (!now_found || !old_found || !now_found->is_object() || !old_found->is_object()) return out;
  json::Value now_spec = *now_found, old_spec = *old_found;
  auto& now = now_spec.as_object();
  auto& was = old_spec.as_object();
  // The persistent-volume controller binds a claim once.
  if (!find(old, {"spec", "volumeName"}) || json::get_string(old, {"spec", "volumeName"}).empty()) {
    if (now.contains("volumeName")) was["volumeName"] = now.at("volumeName");
    else was.erase("volumeName");
  }
  // A class may be set where there was none (retroactive default StorageClass).
  if (!find(old, {"spec", "storageClassName"}) && !find(old, {"metadata", "annotations", kBetaClassAnnotation})) {
    if (now.contains("storageClassName")) was["storageClassName"] = now.at("storageClassName");
  }
  if (json::get_string(claim, {"status", "phase"}) == "Bound") {
    if (const json::Value* size = find(old, {"spec", "resources", "requests", "storage"}); size && find(claim, {"spec", "resources", "requests"}))
      json::ensure_object(now_spec, {"resources", "requests"})["storage"] = *size;
    if (was.contains("volumeAttributesClassName")) now["volumeAttributesClassName"] = was.at("volumeAttributesClassName");
    else now.erase("volumeAttributesClassName");
  }
  if (now_spec != old_spec)
    out.push_back(validation::field_forbidden(FieldPath("spec"),
                                              "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"));
  const long double size = storage_of(claim, {"spec", "resources", "requests", "storage"});
  if (size < storage_of(old, {"spec", "resources", "requests", "storage"}) && size <= storage_of(old, {"status", "capacity", "storage"}))
    out.push_back(validation::field_forbidden(FieldPath("spec").child("resources").child("requests").child("storage"),
                                              "field can not be less than status.capacity"));
  return out;
}

}  // namespace capstan::apiserver::builtin
