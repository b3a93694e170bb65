#include "runtime/client/options.h"

namespace capstan::client {

std::string_view content_type(PatchType t) {
  switch (t) {
    case PatchType::Json: return "application/json-patch+json";
    case PatchType::Merge: return "application/merge-patch+json";
    case PatchType::StrategicMerge: return "application/strategic-merge-patch+json";
    case PatchType::Apply: return "application/apply-patch+yaml";
  }
  return "application/merge-patch+json";
}

std::string_view watch_end_name(WatchEnd e) {
  switch (e) {
    case WatchEnd::Closed: return "closed";
    case WatchEnd::Cancelled: return "cancelled";
    case WatchEnd::Stopped: return "stopped";
  }
  return "closed";
}

json::Value delete_options_body(const DeleteOptions& o) {
  json::Object body;
  switch (o.propagation) {
    case Propagation::Unset: break;
    case Propagation::Orphan: body["propagationPolicy"] = "Orphan"; break;
    case Propagation::Background: body["propagationPolicy"] = "Background"; break;
    case Propagation::Foreground: body["propagationPolicy"] = "Foreground"; break;
  }
  if (o.grace_period_seconds) body["gracePeriodSeconds"] = *o.grace_period_seconds;
  if (!o.precondition_uid.empty() || !o.precondition_resource_version.empty()) {
    json::Object pre;
    if (!o.precondition_uid.empty()) pre["uid"] = o.precondition_uid;
    if (!o.precondition_resource_version.empty()) pre["resourceVersion"] = o.precondition_resource_version;
    body["preconditions"] = std::move(pre);
  }
  if (o.dry_run) body["dryRun"] = json::Array{"All"};
  return body;
}

}  // namespace capstan::client
