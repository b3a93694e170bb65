// The /scale subresource: autoscaling/v1 Scale views of workloads and custom resources.
#pragma once

#include "apiserver/registry/resource.h"
#include "runtime/json/json.h"

namespace capstan::apiserver::rest {

// The Scale object for `obj` (spec.replicas, status.replicas, status.selector).
json::Value to_scale(const registry::ResourceInfo& r, std::string_view version, const json::Value& obj);
// Applies a Scale's spec.replicas to `obj` (through the CRD's specReplicasPath).
void apply_scale(const registry::ResourceInfo& r, std::string_view version, json::Value& obj, const json::Value& scale);

// Reads / writes a simple dotted JSON path (".spec.replicas") as used by the scale subresource.
const json::Value* dotted_find(const json::Value& obj, std::string_view path);
void dotted_set(json::Value& obj, std::string_view path, json::Value v);

}  // namespace capstan::apiserver::rest
