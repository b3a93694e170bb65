#include "controllers/gitops/status.h"

#include "apis/gitops/v1/group.h"
#include "runtime/meta/object.h"

namespace capstan::gitops {

bool write_status(client::Client& client, const controller::ResourceType& type, const json::Value& before, json::Value& obj) {
  status_of(obj)["observedGeneration"] = meta::generation_of(obj);
  if (auto requested = meta::annotation(obj, apis::gitops::v1::kRequestedAtAnnotation); !requested.empty())
    status_of(obj)["lastHandledReconcileAt"] = requested;
  return controller::write_status(client, type.gvr, before, obj);
}

}  // namespace capstan::gitops
