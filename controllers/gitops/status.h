// Status writes of the gitops reconcilers: a typed status (apis/gitops/v1/types.h) written over
// the cached object's, with Flux's status.observedGeneration and status.lastHandledReconcileAt
// (the value of the requestedAt annotation handled), only when it changed
// (runtime/controller/status.h).
#pragma once

#include "apis/common/codec.h"
#include "apis/gitops/v1/group.h"
#include "runtime/controller/builder.h"
#include "runtime/controller/status.h"
#include "runtime/meta/object.h"

namespace capstan::gitops {

using controller::condition_current;
using controller::remove_condition;
using controller::set_condition;

// The object's status as far as it reads: empty when it does not (its spec could not be read
// either, and the conditions written next say why).
template <class Status>
Status read_status(const json::Value& obj) {
  const json::Value* status = json::find(obj, {"status"});
  if (!status) return {};
  try {
    return Status::from_json(*status, "status");
  } catch (const apis::codec::DecodeError&) {
    return {};
  }
}

// Returns whether it wrote.
template <class Status>
bool write_status(client::Client& client, const controller::ResourceType& type, const json::Value& before, Status& status) {
  status.observed_generation = meta::generation_of(before);
  if (auto requested = meta::annotation(before, apis::gitops::v1::kRequestedAtAnnotation); !requested.empty())
    status.last_handled_reconcile_at = std::string(requested);
  return controller::write_status(client, type.gvr, before, status);
}

}  // namespace capstan::gitops
