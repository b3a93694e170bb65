// Status writes of the gitops reconcilers: runtime/controller/status.h, plus Flux's
// status.observedGeneration and status.lastHandledReconcileAt (the value of the requestedAt
// annotation handled).
#pragma once

#include "runtime/controller/builder.h"
#include "runtime/controller/status.h"

namespace capstan::gitops {

using controller::condition_current;
using controller::remove_condition;
using controller::set_condition;
using controller::status_of;

bool write_status(client::Client& client, const controller::ResourceType& type, const json::Value& before, json::Value& obj);

}  // namespace capstan::gitops
