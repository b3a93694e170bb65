#include "runtime/client/errors.h"

#include "runtime/http/client.h"
#include "runtime/json/json.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace capstan::client {
namespace {

constexpr std::array<std::string_view, 19> kKnownReasons = {
    "Unauthorized", "Forbidden",    "NotFound",           "AlreadyExists",    "Conflict",
    "Gone",         "Invalid",      "ServerTimeout",      "StoreReadError",   "Timeout",
    "TooManyRequests", "BadRequest", "MethodNotAllowed",  "NotAcceptable",    "RequestEntityTooLarge",
    "UnsupportedMediaType", "InternalError", "Expired",   "ServiceUnavailable",
};

bool known_reason(std::string_view r) {
  return std::find(kKnownReasons.begin(), kKnownReasons.end(), r) != kKnownReasons.end();
}

// A known reason decides; otherwise the HTTP code does.
bool matches(const ApiError& e, std::string_view reason, int code) {
  if (e.reason() == reason) return true;
  return !known_reason(e.reason()) && code != 0 && e.code() == code;
}

std::string_view generic_message(int code) {
  switch (code) {
    case 400: return "the server rejected the request for an unknown reason";
    case 401: return "the server asked the client to provide credentials";
    case 403: return "the server does not allow access to the requested resource";
    case 404: return "the server could not find the requested resource";
    case 405: return "the server does not allow this method on the requested resource";
    case 406: return "the server cannot respond with a content type the client accepts";
    case 409: return "the server reported a conflict";
    case 410: return "the requested resource version is no longer available";
    case 413: return "the request body is too large";
    case 415: return "the server does not accept the request body's content type";
    case 422: return "the server rejected the request because of an error in it";
    case 429: return "the server received too many requests and asked to try again later";
    case 503: return "the server is currently unable to handle the request";
    case 504: return "the server did not respond in time, but may still be processing the request";
    default: return code >= 500 ? "an error on the server prevented the request from succeeding"
                                : "the server returned an unexpected status";
  }
}

std::string body_excerpt(std::string_view body) {
  std::string s;
  s.reserve(std::min<std::size_t>(body.size(), 256));
  for (char c : body.substr(0, 256)) s += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (body.size() > 256) s += "...";
  return s;
}

std::optional<std::int64_t> parse_seconds(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

Status status_from_value(const json::Value& v) {
  Status st;
  st.status = std::string(json::get_string(v, {"status"}));
  st.message = std::string(json::get_string(v, {"message"}));
  st.reason = std::string(json::get_string(v, {"reason"}));
  if (auto c = json::get_int(v, {"code"})) st.code = static_cast<int>(*c);
  if (const json::Value* d = json::find(v, {"details"}); d && d->is_object()) {
    const json::Value& dv = *d;
    st.details.name = std::string(json::get_string(dv, {"name"}));
    st.details.group = std::string(json::get_string(dv, {"group"}));
    st.details.kind = std::string(json::get_string(dv, {"kind"}));
    st.details.uid = std::string(json::get_string(dv, {"uid"}));
    st.details.retry_after_seconds = json::get_int(dv, {"retryAfterSeconds"});
    if (const auto* causes = json::get_array(dv, {"causes"})) {
      for (const auto& c : *causes) {
        st.details.causes.push_back({std::string(json::get_string(c, {"reason"})),
                                     std::string(json::get_string(c, {"message"})),
                                     std::string(json::get_string(c, {"field"}))});
      }
    }
  }
  return st;
}

std::string compose_what(const Status& st, const RequestInfo& req) {
  std::string out = req.describe();
  out += ": ";
  out += std::to_string(st.code);
  if (!st.reason.empty()) {
    out += ' ';
    out += st.reason;
  }
  if (!st.message.empty()) {
    out += ": ";
    out += st.message;
  }
  return out;
}

}  // namespace

std::optional<Status> parse_status(std::string_view body) {
  auto v = json::try_parse(body);
  if (!v || !v->is_object()) return std::nullopt;
  std::string_view kind = json::get_string(*v, {"kind"});
  if (kind != "Status") {
    if (!kind.empty()) return std::nullopt;
    if (!json::find(*v, {"status"}) || !json::get_int(*v, {"code"})) return std::nullopt;
  }
  return status_from_value(*v);
}

std::string RequestInfo::describe() const {
  std::string out = verb.empty() ? std::string("request") : verb;
  if (!resource.empty()) {
    out += ' ';
    out += resource;
  }
  if (!name.empty()) {
    out += ' ';
    if (!ns.empty()) {
      out += ns;
      out += '/';
    }
    out += name;
  } else if (!ns.empty()) {
    out += " in ";
    out += ns;
  }
  if (!subresource.empty()) {
    out += name.empty() ? " " : "/";
    out += subresource;
  }
  return out;
}

ApiError::ApiError(Status status, RequestInfo request, std::optional<std::int64_t> retry_after_header)
    : std::runtime_error(compose_what(status, request)),
      status_(std::move(status)),
      request_(std::move(request)),
      retry_after_header_(retry_after_header) {}

std::optional<std::int64_t> ApiError::retry_after_seconds() const noexcept {
  if (retry_after_header_) return retry_after_header_;
  return status_.details.retry_after_seconds;
}

std::string_view reason_for_code(int code) {
  switch (code) {
    case 400: return "BadRequest";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "NotFound";
    case 405: return "MethodNotAllowed";
    case 406: return "NotAcceptable";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 413: return "RequestEntityTooLarge";
    case 415: return "UnsupportedMediaType";
    case 422: return "Invalid";
    case 429: return "TooManyRequests";
    case 500: return "InternalError";
    case 503: return "ServiceUnavailable";
    case 504: return "Timeout";
    default: return code > 500 ? "InternalError" : "";
  }
}

ApiError error_from_response(int http_status, const http::Headers& headers, std::string_view body,
                             RequestInfo request) {
  std::optional<std::int64_t> retry_after;
  if (auto h = headers.get("Retry-After")) retry_after = parse_seconds(*h);
  if (auto st = parse_status(body)) {
    if (st->code == 0) st->code = http_status;
    if (st->status.empty()) st->status = "Failure";
    return ApiError(std::move(*st), std::move(request), retry_after);
  }
  Status st;
  st.status = "Failure";
  st.code = http_status;
  st.reason = std::string(reason_for_code(http_status));
  st.message = std::string(generic_message(http_status));
  std::string excerpt = body_excerpt(body);
  if (!excerpt.empty()) st.message += " (body: " + excerpt + ")";
  st.details.name = request.name;
  if (retry_after) st.details.retry_after_seconds = retry_after;
  return ApiError(std::move(st), std::move(request), retry_after);
}

ApiError error_from_watch_event(std::string_view object_json, RequestInfo request) {
  if (auto st = parse_status(object_json)) {
    if (st->code == 0) st->code = 500;
    return ApiError(std::move(*st), std::move(request));
  }
  Status st;
  st.status = "Failure";
  st.code = 500;
  st.reason = "InternalError";
  st.message = "watch ERROR event without a Status object: " + body_excerpt(object_json);
  return ApiError(std::move(st), std::move(request));
}

bool is_not_found(const ApiError& e) { return matches(e, "NotFound", 404); }
bool is_already_exists(const ApiError& e) { return e.reason() == "AlreadyExists"; }
bool is_conflict(const ApiError& e) { return matches(e, "Conflict", 409); }
bool is_invalid(const ApiError& e) { return matches(e, "Invalid", 422); }
bool is_bad_request(const ApiError& e) { return matches(e, "BadRequest", 400); }
bool is_gone(const ApiError& e) { return e.reason() == "Expired" || matches(e, "Gone", 410); }
bool is_expired(const ApiError& e) { return is_gone(e); }
bool is_too_many_requests(const ApiError& e) { return matches(e, "TooManyRequests", 429); }
bool is_unauthorized(const ApiError& e) { return matches(e, "Unauthorized", 401); }
bool is_forbidden(const ApiError& e) { return matches(e, "Forbidden", 403); }
bool is_timeout(const ApiError& e) { return matches(e, "Timeout", 504); }
bool is_server_timeout(const ApiError& e) { return e.reason() == "ServerTimeout"; }
bool is_method_not_supported(const ApiError& e) { return matches(e, "MethodNotAllowed", 405); }
bool is_not_acceptable(const ApiError& e) { return matches(e, "NotAcceptable", 406); }
bool is_unsupported_media_type(const ApiError& e) { return matches(e, "UnsupportedMediaType", 415); }
bool is_internal_error(const ApiError& e) { return matches(e, "InternalError", 500); }
bool is_service_unavailable(const ApiError& e) { return matches(e, "ServiceUnavailable", 503); }
bool is_server_error(const ApiError& e) {
  const std::string& r = e.reason();
  return e.code() >= 500 || r == "InternalError" || r == "ServiceUnavailable" || r == "ServerTimeout" ||
         r == "Timeout" || r == "StoreReadError";
}

bool has_cause(const ApiError& e, std::string_view cause_reason) {
  const auto& causes = e.details().causes;
  return std::any_of(causes.begin(), causes.end(), [&](const StatusCause& c) { return c.reason == cause_reason; });
}

bool is_transient(const std::exception& e) {
  if (dynamic_cast<const http::TransportError*>(&e)) return true;
  const ApiError* a = dynamic_cast<const ApiError*>(&e);
  return a && (is_too_many_requests(*a) || is_server_error(*a));
}

const ApiError* as_api_error(const std::exception& e) { return dynamic_cast<const ApiError*>(&e); }
bool is_not_found(const std::exception& e) {
  auto* a = as_api_error(e);
  return a && is_not_found(*a);
}
bool is_already_exists(const std::exception& e) {
  auto* a = as_api_error(e);
  return a && is_already_exists(*a);
}
bool is_conflict(const std::exception& e) {
  auto* a = as_api_error(e);
  return a && is_conflict(*a);
}
bool is_invalid(const std::exception& e) {
  auto* a = as_api_error(e);
  return a && is_invalid(*a);
}
bool is_gone(const std::exception& e) {
  auto* a = as_api_error(e);
  return a && is_gone(*a);
}

}  // namespace capstan::client
