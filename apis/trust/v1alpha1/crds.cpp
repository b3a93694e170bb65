#include "apis/trust/v1alpha1/crds.h"

#include "apis/common/crd.h"
#include "apis/trust/v1alpha1/bundle.h"
#include "apis/trust/v1alpha1/group.h"

namespace capstan::apis::trust::v1alpha1 {

json::Value bundle_crd() {
  return make_crd({kGroup, kVersion}, {kBundleKind, "bundles", "bundle", {}}, false, Bundle::schema().json(),
                  {{"ConfigMap Target", "string", ".spec.target.configMap.key", 0, "Key of the bundle in the target ConfigMaps"},
                   {"Secret Target", "string", ".spec.target.secret.key", 0, "Key of the bundle in the target Secrets"},
                   {"Synced", "string", R"(.status.conditions[?(@.type == "Synced")].status)", 0, "Written to every selected namespace"},
                   {"Reason", "string", R"(.status.conditions[?(@.type == "Synced")].reason)"},
                   age_column()});
}

std::vector<json::Value> crds() { return {bundle_crd()}; }

}  // namespace capstan::apis::trust::v1alpha1
