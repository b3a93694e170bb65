// Typed API errors: metav1.Status bodies (and non-Status error bodies) turned into ApiError,
// plus the apimachinery predicates controllers branch on (IsNotFound, IsConflict, ...).
//
//   try { client.get(gvr, "default", "demo"); }
//   catch (const client::ApiError& e) { if (!client::is_not_found(e)) throw; }
#pragma once

#include "runtime/http/message.h"

#include <cstdint>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::client {

// metav1.StatusCause
struct StatusCause {
  std::string reason;   // "FieldValueInvalid", "FieldManagerConflict", ...
  std::string message;
  std::string field;    // "spec.replicas", ".data.k"
};

// metav1.StatusDetails
struct StatusDetails {
  std::string name;
  std::string group;
  std::string kind;
  std::string uid;
  std::vector<StatusCause> causes;
  std::optional<std::int64_t> retry_after_seconds;
};

// metav1.Status (the fields clients use).
struct Status {
  std::string status;   // "Failure" | "Success"
  std::string message;
  std::string reason;   // "NotFound", "Conflict", ... ("" = unknown)
  int code = 0;
  StatusDetails details;
};

// Parses a body as metav1.Status; nullopt when it is not JSON with kind "Status" (a Status
// without kind is accepted when it carries "status" and "code", as some proxies strip kind).
std::optional<Status> parse_status(std::string_view body);

// Which request failed: the context carried in ApiError messages.
struct RequestInfo {
  std::string verb;         // "get", "list", "create", "update", "patch", "delete", "watch", ...
  std::string resource;     // "configmaps", "certificates.certs.capstan.dev", or a raw path
  std::string ns;
  std::string name;
  std::string subresource;  // "status"

  // "get configmaps default/demo", "list nodes", "list pods in kube-system",
  // "update certificates.certs.capstan.dev ns/x/status"
  std::string describe() const;
};

class ApiError : public std::runtime_error {
 public:
  ApiError(Status status, RequestInfo request, std::optional<std::int64_t> retry_after_header = std::nullopt);

  int code() const noexcept { return status_.code; }
  const std::string& reason() const noexcept { return status_.reason; }
  // The server's message, without the request context that what() adds.
  const std::string& message() const noexcept { return status_.message; }
  const StatusDetails& details() const noexcept { return status_.details; }
  const Status& status() const noexcept { return status_; }
  const RequestInfo& request() const noexcept { return request_; }
  // Retry-After header, else details.retryAfterSeconds.
  std::optional<std::int64_t> retry_after_seconds() const noexcept;

 private:
  Status status_;
  RequestInfo request_;
  std::optional<std::int64_t> retry_after_header_;
};

// Builds the error for a non-2xx response. A Status body is used as is (its code defaults to
// the HTTP status when missing); any other body yields a Status whose reason is derived from
// the HTTP code (404 -> NotFound, 409 -> Conflict, 429 -> TooManyRequests, ...) and whose
// message is client-go's generic text plus the start of the body.
ApiError error_from_response(int http_status, const http::Headers& headers, std::string_view body,
                             RequestInfo request);

// The Status carried by a watch ERROR event's object; a non-Status object becomes a 500
// InternalError naming the event.
ApiError error_from_watch_event(std::string_view object_json, RequestInfo request);

// The reason apimachinery assumes for a bare HTTP code ("" when there is none).
std::string_view reason_for_code(int code);

// Predicates, as in k8s.io/apimachinery/pkg/api/errors: a known reason decides; a missing or
// unknown reason falls back to the HTTP code.
bool is_not_found(const ApiError& e);
bool is_already_exists(const ApiError& e);
bool is_conflict(const ApiError& e);
bool is_invalid(const ApiError& e);
bool is_bad_request(const ApiError& e);
bool is_gone(const ApiError& e);     // 410, reason Gone or Expired (too old resourceVersion / continue)
bool is_expired(const ApiError& e);  // same as is_gone
bool is_too_many_requests(const ApiError& e);
bool is_unauthorized(const ApiError& e);
bool is_forbidden(const ApiError& e);
bool is_timeout(const ApiError& e);         // 504 Timeout
bool is_server_timeout(const ApiError& e);  // ServerTimeout (500 with a retry hint)
bool is_method_not_supported(const ApiError& e);
bool is_not_acceptable(const ApiError& e);
bool is_unsupported_media_type(const ApiError& e);
bool is_internal_error(const ApiError& e);
bool is_service_unavailable(const ApiError& e);
bool is_server_error(const ApiError& e);  // any 5xx, or a server-side reason
// Whether details.causes holds a cause with this reason (e.g. "FieldManagerConflict").
bool has_cause(const ApiError& e, std::string_view cause_reason);

// Worth retrying later with backoff: a transport failure (http::TransportError), 429, 5xx
// and server timeouts. Not: 4xx client errors, conflicts, Gone (relist instead).
bool is_transient(const std::exception& e);

// The same predicates over any exception (false unless it is an ApiError), for catch-all blocks.
const ApiError* as_api_error(const std::exception& e);
bool is_not_found(const std::exception& e);
bool is_already_exists(const std::exception& e);
bool is_conflict(const std::exception& e);
bool is_invalid(const std::exception& e);
bool is_gone(const std::exception& e);

}  // namespace capstan::client
