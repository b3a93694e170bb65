#include "apiserver/admission/claim_resize.h"

#include "apiserver/rest/api_error.h"
#include "runtime/meta/quantity.h"

namespace capstan::apiserver::admission {
namespace {

std::optional<long double> requested(const json::Value& claim) {
  return meta::quantity_value(json::get_string(claim, {"spec", "resources", "requests", "storage"}));
}

std::string claim_class(const json::Value& claim) {
  if (const json::Value* c = json::find(claim, {"spec", "storageClassName"}); c && c->is_string()) return std::string(c->get_string());
  return std::string(json::get_string(claim, {"metadata", "annotations", "volume.beta.kubernetes.io/storage-class"}));
}

}  // namespace

void ClaimResizeAdmission::check(const rest::AdmissionAttributes& a, const json::Value& obj) {
  if (a.operation != "UPDATE" || !a.subresource.empty() || !a.old_object || !a.resource ||
      a.resource->group_resource() != "persistentvolumeclaims")
    return;
  const auto now = requested(obj), before = requested(*a.old_object);
  if (!now || !before || *now <= *before) return;
  const std::string name = claim_class(*a.old_object);
  bool allowed = false;
  if (!name.empty())
    if (auto sc = store_.get("storageclasses.storage.k8s.io", "", name)) {
      const json::Value* expand = json::find(*sc, {"allowVolumeExpansion"});
      allowed = expand && expand->is_bool() && expand->get_bool();
    }
  if (!allowed)
    throw apiserver::forbidden(a.resource, a.name,
                          "only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize");
}

}  // namespace capstan::apiserver::admission
