// Errors as kube-apiserver returns them: an HTTP code and a metav1.Status body whose reason,
// message and details kubectl prints verbatim.
#pragma once

#include "apiserver/registry/resource.h"
#include "runtime/validation/field.h"
#include "runtime/json/json.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace capstan::apiserver {

// Field-level causes (reason, field, message) as apimachinery's field.Error renders them.
using validation::Cause;
using validation::FieldPath;

class ApiError : public std::runtime_error {
 public:
  ApiError(int code, std::string reason, std::string message);
  int code;
  std::string reason;
  json::Object details;  // name, group, kind, uid, causes, retryAfterSeconds
  // Send "details":{} even when empty (errors.NewGenericServerResponse, apierrors.NewForbidden, ...).
  bool empty_details = false;
  std::vector<std::string> headers;  // extra "Name: value" response headers (Retry-After)

  json::Value status() const;  // the Status object

  ApiError& with_details(std::string_view name, const registry::ResourceInfo* r);
  ApiError& with_causes(const std::vector<Cause>& causes);
};

// Constructors with kube-apiserver's wording. `r` names the resource ("configmaps",
// "deployments.apps"); `name` the object.
ApiError not_found(const registry::ResourceInfo& r, std::string_view name);
ApiError namespace_not_found(std::string_view ns);
ApiError already_exists(const registry::ResourceInfo& r, std::string_view name);
ApiError conflict(const registry::ResourceInfo& r, std::string_view name, std::string_view why);
// A failed delete precondition, as the storage layer words it: "Operation cannot be fulfilled on
// <Kind>[.<group>] \"<name>\": ..." with details kind = the Kind.
ApiError precondition_failed(const registry::ResourceInfo& r, std::string_view name, std::string_view why);
ApiError optimistic_lock_conflict(const registry::ResourceInfo& r, std::string_view name);
// "<Kind> \"<name>\" is invalid: <cause>" / "...: [c1, c2]".
ApiError invalid(const registry::ResourceInfo& r, std::string_view name, const std::vector<Cause>& causes);
// The same for any kind (and group): "<Kind>[.<group>] \"<name>\" is invalid: ...".
ApiError invalid_kind(std::string_view kind, std::string_view group, std::string_view name, const std::vector<Cause>& causes);
// Invalid request options (ListOptions, CreateOptions, PatchOptions, DeleteOptions, ...):
// "<Kind>.meta.k8s.io \"\" is invalid: <causes>", details group meta.k8s.io, kind <Kind>.
ApiError invalid_options(std::string_view kind, const std::vector<Cause>& causes);
ApiError bad_request(std::string message);
ApiError forbidden(const registry::ResourceInfo* r, std::string_view name, std::string message);
ApiError method_not_allowed();
ApiError unsupported_media_type(std::string_view content_type, const std::vector<std::string>& accepted);
ApiError not_acceptable(const std::vector<std::string>& supported);
// What go-restful answers on kube-apiserver's own routes (built-in resources, /api, /api/v1,
// /apis/G/V of built-in groups, /version) when Accept names nothing the route produces, or a
// PATCH's Content-Type nothing it consumes.
ApiError route_not_acceptable(const std::vector<std::string>& produces);
ApiError route_unsupported_media_type();
ApiError expired(std::string message);
ApiError too_many_requests(int retry_after_seconds);
ApiError internal_error(std::string message);
ApiError service_unavailable(std::string message);
ApiError unauthorized();
ApiError path_not_found();  // "the server could not find the requested resource"
// kube-apiserver's answer to a path none of its handlers serves (an unknown group, a custom
// resource group's unknown version or resource): the text "404 page not found", no Status.
struct PageNotFound : std::exception {
  const char* what() const noexcept override { return "404 page not found"; }
};
ApiError timeout(std::string message);

}  // namespace capstan::apiserver
