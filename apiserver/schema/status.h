// The Status bodies kube-apiserver returns for schema errors (k8s.io/apimachinery/pkg/api/errors).
#pragma once

#include "runtime/validation/field.h"
#include "runtime/json/json.h"

#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::schema {

// errors.NewInvalid(...).Error():
//   <Kind>.<group> "<name>" is invalid: <cause.error()>
//   <Kind>.<group> "<name>" is invalid: [<cause1>, <cause2>]      (several distinct causes)
//   <Kind> "<name>" is invalid: ...                                (core group: no ".<group>")
//   <Kind>.<group> "<name>" is invalid                             (no causes)
// Identical cause texts are listed once (field.ErrorList.ToAggregate de-duplicates them).
std::string format_invalid(std::string_view kind, std::string_view group, std::string_view name,
                           const std::vector<validation::Cause>& causes);

// The whole 422 Status object, member order as kube-apiserver serialises it:
// {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":...,
//  "reason":"Invalid","details":{"name":...,"group":...,"kind":...,"causes":[{"reason":...,
//  "message":...,"field":...}]},"code":422}
// Every cause is listed (no de-duplication); empty name/group/field are omitted (omitempty).
json::Value invalid_status(std::string_view kind, std::string_view group, std::string_view name,
                           const std::vector<validation::Cause>& causes);

// errors.NewBadRequest(message): {"kind":"Status","apiVersion":"v1","metadata":{},
// "status":"Failure","message":...,"reason":"BadRequest","code":400}
json::Value bad_request_status(std::string_view message);

}  // namespace capstan::apiserver::schema
