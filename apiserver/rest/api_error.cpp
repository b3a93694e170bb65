#include "apiserver/rest/api_error.h"

#include "apiserver/schema/status.h"

namespace capstan::apiserver {

ApiError::ApiError(int c, std::string r, std::string m) : std::runtime_error(m), code(c), reason(std::move(r)) {}

json::Value ApiError::status() const {
  json::Object s;
  s["kind"] = "Status";
  s["apiVersion"] = "v1";
  s["metadata"] = json::Object{};
  s["status"] = "Failure";
  s["message"] = what();
  if (!reason.empty()) s["reason"] = reason;
  if (!details.empty() || empty_details) s["details"] = details;
  s["code"] = code;
  return s;
}

ApiError& ApiError::with_details(std::string_view name, const registry::ResourceInfo* r) {
  if (!name.empty()) details["name"] = name;
  if (r) {
    if (!r->group.empty()) details["group"] = r->group;
    details["kind"] = r->resource;
  }
  return *this;
}

ApiError& ApiError::with_causes(const std::vector<Cause>& causes) {
  json::Array arr;
  for (const auto& c : causes) {
    json::Object o;
    o["reason"] = c.reason;
    o["message"] = c.message;
    if (!c.field.empty()) o["field"] = c.field;
    arr.push_back(std::move(o));
  }
  details["causes"] = std::move(arr);
  return *this;
}

ApiError not_found(const registry::ResourceInfo& r, std::string_view name) {
  ApiError e(404, "NotFound", r.group_resource() + " \"" + std::string(name) + "\" not found");
  e.with_details(name, &r);
  return e;
}

ApiError namespace_not_found(std::string_view ns) {
  ApiError e(404, "NotFound", "namespaces \"" + std::string(ns) + "\" not found");
  e.details["name"] = ns;
  e.details["kind"] = "namespaces";
  return e;
}

ApiError already_exists(const registry::ResourceInfo& r, std::string_view name) {
  ApiError e(409, "AlreadyExists", r.group_resource() + " \"" + std::string(name) + "\" already exists");
  e.with_details(name, &r);
  return e;
}

ApiError conflict(const registry::ResourceInfo& r, std::string_view name, std::string_view why) {
  ApiError e(409, "Conflict",
             "Operation cannot be fulfilled on " + r.group_resource() + " \"" + std::string(name) + "\": " + std::string(why));
  e.with_details(name, &r);
  return e;
}

ApiError precondition_failed(const registry::ResourceInfo& r, std::string_view name, std::string_view why) {
  std::string what = r.group.empty() ? r.kind : r.kind + "." + r.group;
  ApiError e(409, "Conflict", "Operation cannot be fulfilled on " + what + " \"" + std::string(name) + "\": " + std::string(why));
  e.details["name"] = name;
  if (!r.group.empty()) e.details["group"] = r.group;
  e.details["kind"] = r.kind;
  return e;
}

ApiError optimistic_lock_conflict(const registry::ResourceInfo& r, std::string_view name) {
  return conflict(r, name, "the object has been modified; please apply your changes to the latest version and try again");
}

ApiError invalid(const registry::ResourceInfo& r, std::string_view name, const std::vector<Cause>& causes) {
  return invalid_kind(r.kind, r.group, name, causes);
}

ApiError invalid_kind(std::string_view kind, std::string_view group, std::string_view name, const std::vector<Cause>& causes) {
  json::Value st = schema::invalid_status(kind, group, name, causes);
  ApiError e(422, "Invalid", std::string(json::get_string(st, {"message"})));
  if (const auto* d = json::get_object(st, {"details"})) e.details = *d;
  return e;
}

ApiError invalid_options(std::string_view kind, const std::vector<Cause>& causes) { return invalid_kind(kind, "meta.k8s.io", "", causes); }

ApiError bad_request(std::string message) { return ApiError(400, "BadRequest", std::move(message)); }

ApiError forbidden(const registry::ResourceInfo* r, std::string_view name, std::string message) {
  std::string what = r ? r->group_resource() : std::string();
  std::string prefix = name.empty() ? what : what + " \"" + std::string(name) + "\"";
  ApiError e(403, "Forbidden", prefix.empty() ? message : prefix + " is forbidden: " + message);
  e.with_details(name, r);
  return e;
}

ApiError method_not_allowed() {
  ApiError e(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
  e.empty_details = true;
  return e;
}

namespace {

std::string comma_list(const std::vector<std::string>& media_types) {
  std::string list;
  for (const auto& a : media_types) list += (list.empty() ? "" : ", ") + a;
  return list;
}

}  // namespace

ApiError unsupported_media_type(std::string_view content_type, const std::vector<std::string>& accepted) {
  return ApiError(415, "UnsupportedMediaType",
                  "the body of the request was in an unknown format - accepted media types include: " + comma_list(accepted));
}

ApiError not_acceptable(const std::vector<std::string>& supported) {
  return ApiError(406, "NotAcceptable", "only the following media types are accepted: " + comma_list(supported));
}

ApiError route_not_acceptable(const std::vector<std::string>& produces) {
  ApiError e(406, "NotAcceptable", "406: Not Acceptable\n\nAvailable representations: " + comma_list(produces));
  e.empty_details = true;
  return e;
}

ApiError route_unsupported_media_type() {
  ApiError e(415, "UnsupportedMediaType", "415: Unsupported Media Type");
  e.empty_details = true;
  return e;
}

ApiError expired(std::string message) { return ApiError(410, "Expired", std::move(message)); }

ApiError too_many_requests(int retry_after_seconds) {
  ApiError e(429, "TooManyRequests", "Too many requests, please try again later.");
  e.details["retryAfterSeconds"] = retry_after_seconds;
  e.headers.push_back("Retry-After: " + std::to_string(retry_after_seconds));
  return e;
}

ApiError internal_error(std::string message) {
  ApiError e(500, "InternalError", "Internal error occurred: " + message);
  e.details["causes"] = json::Array{json::Object{{"message", message}}};
  return e;
}

ApiError service_unavailable(std::string message) { return ApiError(503, "ServiceUnavailable", std::move(message)); }

ApiError unauthorized() { return ApiError(401, "Unauthorized", "Unauthorized"); }

ApiError path_not_found() {
  ApiError e(404, "NotFound", "the server could not find the requested resource");
  e.empty_details = true;
  return e;
}

ApiError timeout(std::string message) { return ApiError(504, "Timeout", std::move(message)); }

}  // namespace capstan::apiserver
