#include "apiserver/system/workloads/volume_binder.h"

#include "runtime/json/patch.h"
#include "runtime/meta/object.h"

namespace capstan::apiserver::system::workloads {

VolumeBinder::VolumeBinder(rest::Service& service)
    : service_(service),
      writer_(service, "kube-controller-manager", controller_user("persistent-volume-binder")),
      loop_("volume-binder", service.store(), [this](const Key& k) { return reconcile(k); }) {}

void VolumeBinder::start() {
  loop_.watch("persistentvolumeclaims");
  loop_.start();
}

std::chrono::milliseconds VolumeBinder::reconcile(const Key& k) {
  const std::string resource = "persistentvolumeclaims";
  auto pvc = service_.store().get(resource, k.ns, k.name);
  if (!pvc || meta::is_deleting(*pvc)) return {};
  if (json::get_string(*pvc, {"status", "phase"}) == "Bound") return {};
  // The claim side of the binding first (as the binder does), then its status.
  std::string volume = "pvc-" + std::string(meta::uid_of(*pvc));
  writer_.mutate(resource, k.ns, k.name, false, [&](json::Value& cur) {
    json::Value before = cur;
    auto& spec = json::ensure_object(cur, {"spec"});
    if (json::get_string(cur, {"spec", "volumeName"}).empty()) spec["volumeName"] = volume;
    auto& ann = json::ensure_object(cur, {"metadata", "annotations"});
    ann["pv.kubernetes.io/bind-completed"] = "yes";
    ann["pv.kubernetes.io/bound-by-controller"] = "yes";
    return !json::deep_equal(before, cur);
  });
  writer_.mutate(resource, k.ns, k.name, true, [&](json::Value& cur) {
    if (meta::is_deleting(cur) || json::get_string(cur, {"status", "phase"}) == "Bound") return false;
    auto& status = json::ensure_object(cur, {"status"});
    status["phase"] = "Bound";
    json::Value modes = json::Array{"ReadWriteOnce"};
    if (const auto* m = json::find(cur, {"spec", "accessModes"}); m && m->is_array() && !m->as_array().empty()) modes = *m;
    status["accessModes"] = modes;
    json::Object capacity;
    if (const auto* s = json::find(cur, {"spec", "resources", "requests", "storage"})) capacity["storage"] = *s;
    status["capacity"] = std::move(capacity);
    return true;
  });
  return {};
}

}  // namespace capstan::apiserver::system::workloads
