#include "apiserver/simulator/volume_binder.h"

#include "apiserver/simulator/objects.h"
#include "runtime/json/patch.h"
#include "runtime/meta/object.h"

#include <algorithm>

namespace capstan::simulator {
namespace {

const std::string kClaims = "persistentvolumeclaims";
const std::string kVolumes = "persistentvolumes";
const std::string kPods = "pods";
constexpr std::string_view kClaimProtection = "kubernetes.io/pvc-protection";
constexpr std::string_view kVolumeProtection = "kubernetes.io/pv-protection";

std::string volume_name(const json::Value& claim) { return "pvc-" + std::string(meta::uid_of(claim)); }

json::Value access_modes(const json::Value& claim) {
  if (const auto* m = json::find(claim, {"spec", "accessModes"}); m && m->is_array() && !m->as_array().empty()) return *m;
  return json::Array{"ReadWriteOnce"};
}

bool has_finalizer(const json::Value& obj, std::string_view f) {
  if (const auto* fs = json::get_array(obj, {"metadata", "finalizers"}))
    for (const auto& x : *fs)
      if (x.is_string() && x.get_string() == f) return true;
  return false;
}

// Removes finalizer `f` from `obj`; false when it was not there.
bool drop_finalizer(json::Value& obj, std::string_view f) {
  auto* fs = json::find(obj, {"metadata", "finalizers"});
  if (!fs || !fs->is_array()) return false;
  auto& arr = fs->as_array();
  auto before = arr.size();
  arr.erase(std::remove_if(arr.begin(), arr.end(), [&](const json::Value& x) { return x.is_string() && x.get_string() == f; }),
            arr.end());
  return arr.size() != before;
}

// The claims a pod mounts.
std::vector<std::string> claims_of(const json::Value& pod) {
  std::vector<std::string> out;
  if (const auto* vols = json::get_array(pod, {"spec", "volumes"}))
    for (const auto& v : *vols)
      if (auto c = json::get_string(v, {"persistentVolumeClaim", "claimName"}); !c.empty()) out.emplace_back(c);
  return out;
}

}  // namespace

json::Value volume_for_claim(const json::Value& claim) {
  std::string name = volume_name(claim);
  json::Object spec{
      {"capacity", json::Object{{"storage", json::find(claim, {"spec", "resources", "requests", "storage"})
                                                ? *json::find(claim, {"spec", "resources", "requests", "storage"})
                                                : json::Value("1Gi")}}},
      {"accessModes", access_modes(claim)},
      {"persistentVolumeReclaimPolicy", "Delete"},
      {"volumeMode", json::get_string(claim, {"spec", "volumeMode"}, "Filesystem")},
      {"hostPath", json::Object{{"path", "/var/lib/capstan/volumes/" + name}, {"type", "DirectoryOrCreate"}}},
      {"claimRef", json::Object{{"kind", "PersistentVolumeClaim"},
                                {"apiVersion", "v1"},
                                {"namespace", meta::namespace_of(claim)},
                                {"name", meta::name_of(claim)},
                                {"uid", meta::uid_of(claim)}}}};
  if (auto sc = json::get_string(claim, {"spec", "storageClassName"}); !sc.empty()) spec["storageClassName"] = sc;
  return json::Object{
      {"apiVersion", "v1"},
      {"kind", "PersistentVolume"},
      {"metadata", json::Object{{"name", name},
                                {"annotations", json::Object{{kProvisionedByAnnotation, kSimulatedProvisioner},
                                                             {"pv.kubernetes.io/bound-by-controller", "yes"}}}}},
      {"spec", std::move(spec)}};
}

VolumeBinder::VolumeBinder(client::Client& client, Watches& watches)
    : api_(client, "kube-controller-manager"),
      loop_("volume-binder", watches, [this](const Key& k) { return reconcile(k); }) {}

void VolumeBinder::start() {
  loop_.watch(kClaims, [](const Event& e) -> std::vector<Key> {
    std::vector<Key> out{key_of(kClaims, *e.object)};
    // Its volume goes with it.
    if (e.type == EventType::Deleted) out.push_back(Key{kVolumes, "", volume_name(*e.object)});
    return out;
  });
  loop_.watch(kVolumes);
  // A pod that stops or goes may release a claim being deleted.
  loop_.watch(kPods, [](const Event& e) -> std::vector<Key> {
    if (e.type != EventType::Deleted && !pod_terminal(*e.object)) return {};
    std::vector<Key> out;
    for (auto& c : claims_of(*e.object)) out.push_back(Key{kClaims, std::string(meta::namespace_of(*e.object)), c});
    return out;
  });
  loop_.start();
}

std::chrono::milliseconds VolumeBinder::reconcile(const Key& k) {
  if (k.resource == kVolumes) sync_volume(k);
  else sync_claim(k);
  return {};
}

void VolumeBinder::release_claim(const json::Value& claim) {
  std::string_view name = meta::name_of(claim);
  for (const auto& p : api_.list(kPods, meta::namespace_of(claim))) {
    if (pod_terminal(*p)) continue;
    auto claims = claims_of(*p);
    if (std::find(claims.begin(), claims.end(), name) != claims.end()) return;  // woken when the pod goes
  }
  api_.mutate(kClaims, meta::namespace_of(claim), name, false, [&](json::Value& cur) {
    return meta::uid_of(cur) == meta::uid_of(claim) && drop_finalizer(cur, kClaimProtection);
  });
}

void VolumeBinder::provision(const json::Value& claim, const std::string& volume) {
  auto pv = api_.get(kVolumes, "", volume);
  if (!pv) {
    try {
      api_.create(kVolumes, "", volume_for_claim(claim));
    } catch (const ApiError& e) {
      if (!client::is_already_exists(e)) throw;
    }
    pv = api_.get(kVolumes, "", volume);
    if (!pv) throw std::runtime_error("persistentvolume " + volume + " for claim " + std::string(meta::namespace_of(claim)) +
                                      "/" + std::string(meta::name_of(claim)) + " vanished after creation");
  }
  if (json::get_string(*pv, {"status", "phase"}) != "Bound")
    api_.mutate(kVolumes, "", volume, true, [&](json::Value& cur) {
      if (json::get_string(cur, {"status", "phase"}) == "Bound") return false;
      json::ensure_object(cur, {"status"})["phase"] = "Bound";
      return true;
    });
}

void VolumeBinder::sync_claim(const Key& k) {
  auto pvc = api_.get(kClaims, k.ns, k.name);
  if (!pvc) return;
  if (meta::is_deleting(*pvc)) {
    if (has_finalizer(*pvc, kClaimProtection)) release_claim(*pvc);
    return;
  }
  if (json::get_string(*pvc, {"status", "phase"}) == "Bound") return;
  // The volume first, then the claim side of the binding (as the binder does), then its status.
  std::string volume(json::get_string(*pvc, {"spec", "volumeName"}));
  if (volume.empty()) volume = volume_name(*pvc);
  if (volume == volume_name(*pvc)) provision(*pvc, volume);
  api_.mutate(kClaims, k.ns, k.name, false, [&](json::Value& cur) {
    json::Value before = cur;
    auto& spec = json::ensure_object(cur, {"spec"});
    if (json::get_string(cur, {"spec", "volumeName"}).empty()) spec["volumeName"] = volume;
    auto& ann = json::ensure_object(cur, {"metadata", "annotations"});
    ann["pv.kubernetes.io/bind-completed"] = "yes";
    ann["pv.kubernetes.io/bound-by-controller"] = "yes";
    return !json::deep_equal(before, cur);
  });
  api_.mutate(kClaims, k.ns, k.name, true, [&](json::Value& cur) {
    if (meta::is_deleting(cur) || json::get_string(cur, {"status", "phase"}) == "Bound") return false;
    auto& status = json::ensure_object(cur, {"status"});
    status["phase"] = "Bound";
    status["accessModes"] = access_modes(cur);
    json::Object capacity;
    if (const auto* s = json::find(cur, {"spec", "resources", "requests", "storage"})) capacity["storage"] = *s;
    status["capacity"] = std::move(capacity);
    return true;
  });
}

void VolumeBinder::sync_volume(const Key& k) {
  auto pv = api_.get(kVolumes, "", k.name);
  if (!pv || meta::annotation(*pv, kProvisionedByAnnotation) != kSimulatedProvisioner) return;
  std::string ns(json::get_string(*pv, {"spec", "claimRef", "namespace"}));
  std::string claim(json::get_string(*pv, {"spec", "claimRef", "name"}));
  auto pvc = api_.get(kClaims, ns, claim);
  bool claim_gone = !pvc || meta::uid_of(*pvc) != json::get_string(*pv, {"spec", "claimRef", "uid"});
  if (!claim_gone) return;
  if (!meta::is_deleting(*pv)) {
    api_.remove(kVolumes, "", k.name, meta::uid_of(*pv));
    return;
  }
  api_.mutate(kVolumes, "", k.name, false, [&](json::Value& cur) { return drop_finalizer(cur, kVolumeProtection); });
}

}  // namespace capstan::simulator
