#include "runtime/client/errors.h"
#include "runtime/client/test_support.h"
#include "runtime/http/client.h"

#include <gtest/gtest.h>

namespace capstan::client {
namespace {

RequestInfo cm_get() { return {"get", "configmaps", "default", "demo", ""}; }

ApiError from_status(int code, std::string_view reason, std::string_view message = "m") {
  return error_from_response(code, {}, testing::status_body(code, reason, message), cm_get());
}

TEST(StatusParse, FullStatusWithDetailsAndCauses) {
  const char* body = R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
    "message":"Apply failed with 1 conflict: conflict with \"kubectl\" using v1: .data.k","reason":"Conflict",
    "details":{"name":"demo","group":"apps","kind":"configmaps","uid":"u-1","retryAfterSeconds":3,
      "causes":[{"reason":"FieldManagerConflict","message":"conflict with \"kubectl\" using v1","field":".data.k"}]},
    "code":409})";
  auto st = parse_status(body);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->status, "Failure");
  EXPECT_EQ(st->reason, "Conflict");
  EXPECT_EQ(st->code, 409);
  EXPECT_EQ(st->details.name, "demo");
  EXPECT_EQ(st->details.group, "apps");
  EXPECT_EQ(st->details.kind, "configmaps");
  EXPECT_EQ(st->details.uid, "u-1");
  EXPECT_EQ(st->details.retry_after_seconds, 3);
  ASSERT_EQ(st->details.causes.size(), 1u);
  EXPECT_EQ(st->details.causes[0].reason, "FieldManagerConflict");
  EXPECT_EQ(st->details.causes[0].field, ".data.k");
  EXPECT_EQ(st->details.causes[0].message, "conflict with \"kubectl\" using v1");

  ApiError e = error_from_response(409, {}, body, {"apply", "configmaps", "default", "demo", ""});
  EXPECT_TRUE(is_conflict(e));
  EXPECT_TRUE(has_cause(e, "FieldManagerConflict"));
  EXPECT_FALSE(has_cause(e, "FieldValueInvalid"));
  EXPECT_EQ(e.retry_after_seconds(), 3);
  EXPECT_EQ(std::string(e.what()),
            "apply configmaps default/demo: 409 Conflict: Apply failed with 1 conflict: conflict with \"kubectl\" using "
            "v1: .data.k");
}

TEST(StatusParse, RejectsNonStatusDocuments) {
  EXPECT_FALSE(parse_status("not json"));
  EXPECT_FALSE(parse_status(R"({"kind":"ConfigMap","metadata":{}})"));
  EXPECT_FALSE(parse_status("[]"));
  auto kindless = parse_status(R"({"status":"Failure","code":503,"message":"x"})");
  ASSERT_TRUE(kindless);
  EXPECT_EQ(kindless->code, 503);
}

TEST(StatusPredicates, EachReason) {
  struct Case {
    int code;
    const char* reason;
    bool (*pred)(const ApiError&);
  };
  const Case cases[] = {
      {404, "NotFound", is_not_found},
      {409, "AlreadyExists", is_already_exists},
      {409, "Conflict", is_conflict},
      {422, "Invalid", is_invalid},
      {400, "BadRequest", is_bad_request},
      {410, "Expired", is_gone},
      {410, "Gone", is_gone},
      {410, "Expired", is_expired},
      {429, "TooManyRequests", is_too_many_requests},
      {401, "Unauthorized", is_unauthorized},
      {403, "Forbidden", is_forbidden},
      {504, "Timeout", is_timeout},
      {500, "ServerTimeout", is_server_timeout},
      {405, "MethodNotAllowed", is_method_not_supported},
      {406, "NotAcceptable", is_not_acceptable},
      {415, "UnsupportedMediaType", is_unsupported_media_type},
      {500, "InternalError", is_internal_error},
      {503, "ServiceUnavailable", is_service_unavailable},
  };
  bool (*all[])(const ApiError&) = {is_not_found, is_already_exists, is_conflict, is_invalid, is_bad_request,
                                     is_gone, is_too_many_requests, is_unauthorized, is_forbidden, is_timeout,
                                     is_method_not_supported, is_not_acceptable, is_unsupported_media_type,
                                     is_internal_error, is_service_unavailable, is_server_timeout};
  for (const auto& c : cases) {
    ApiError e = from_status(c.code, c.reason);
    EXPECT_TRUE(c.pred(e)) << c.reason;
    EXPECT_EQ(e.code(), c.code);
    EXPECT_EQ(e.reason(), c.reason);
    int matched = 0;
    for (auto* p : all) matched += p(e) ? 1 : 0;
    EXPECT_EQ(matched, 1) << c.reason << " should satisfy exactly one predicate";
    EXPECT_EQ(is_server_error(e), c.code >= 500) << c.reason;
  }
  // AlreadyExists is a 409 but not a Conflict; a known reason decides over the code.
  EXPECT_FALSE(is_conflict(from_status(409, "AlreadyExists")));
  EXPECT_FALSE(is_already_exists(from_status(409, "Conflict")));
  // An unknown reason falls back to the code.
  EXPECT_TRUE(is_not_found(from_status(404, "")));
  EXPECT_TRUE(is_conflict(from_status(409, "SomethingNew")));
  EXPECT_TRUE(is_gone(from_status(410, "")));
  EXPECT_FALSE(is_not_found(from_status(404, "Forbidden")));
}

TEST(StatusPredicates, ExceptionOverloads) {
  ApiError e = from_status(404, "NotFound");
  const std::exception& ex = e;
  EXPECT_TRUE(is_not_found(ex));
  EXPECT_FALSE(is_conflict(ex));
  EXPECT_EQ(as_api_error(ex), &e);
  std::runtime_error other("x");
  EXPECT_FALSE(is_not_found(other));
  EXPECT_EQ(as_api_error(other), nullptr);
}

TEST(StatusPredicates, Transient) {
  EXPECT_TRUE(is_transient(http::TransportError("GET x: connection refused")));
  EXPECT_TRUE(is_transient(from_status(429, "TooManyRequests")));
  EXPECT_TRUE(is_transient(from_status(503, "ServiceUnavailable")));
  EXPECT_TRUE(is_transient(from_status(504, "Timeout")));
  EXPECT_FALSE(is_transient(from_status(409, "Conflict")));
  EXPECT_FALSE(is_transient(from_status(410, "Expired")));
  EXPECT_FALSE(is_transient(std::runtime_error("x")));
}

TEST(StatusFromResponse, NonStatusBodyKeepsCodeAndBody) {
  http::Headers h;
  h.set("Retry-After", "7");
  ApiError e = error_from_response(503, h, "<html>upstream connect error</html>\n", cm_get());
  EXPECT_EQ(e.code(), 503);
  EXPECT_EQ(e.reason(), "ServiceUnavailable");
  EXPECT_TRUE(is_service_unavailable(e));
  EXPECT_TRUE(is_server_error(e));
  EXPECT_EQ(e.retry_after_seconds(), 7);
  EXPECT_NE(e.message().find("<html>upstream connect error</html>"), std::string::npos);
  std::string what = e.what();
  EXPECT_EQ(what.rfind("get configmaps default/demo: 503 ServiceUnavailable: ", 0), 0u) << what;

  ApiError nf = error_from_response(404, {}, "404 page not found", {"list", "widgets.example.com", "", "", ""});
  EXPECT_TRUE(is_not_found(nf));
  EXPECT_NE(std::string(nf.what()).find("list widgets.example.com: 404 NotFound"), std::string::npos) << nf.what();

  ApiError empty = error_from_response(418, {}, "", cm_get());
  EXPECT_EQ(empty.code(), 418);
  EXPECT_EQ(empty.reason(), "");
  EXPECT_FALSE(empty.message().empty());

  // A Status without a code takes the HTTP status.
  ApiError nocode = error_from_response(403, {}, R"({"kind":"Status","reason":"Forbidden","message":"no"})", cm_get());
  EXPECT_EQ(nocode.code(), 403);
  EXPECT_TRUE(is_forbidden(nocode));
}

TEST(StatusFromWatchEvent, ParsesExpiredAndWrapsOddObjects) {
  ApiError e = error_from_watch_event(
      R"json({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (3171407)","reason":"Expired","code":410})json",
      {"watch", "configmaps", "default", "", ""});
  EXPECT_TRUE(is_gone(e));
  EXPECT_EQ(e.message(), "too old resource version: 1 (3171407)");
  EXPECT_EQ(std::string(e.what()), "watch configmaps in default: 410 Expired: too old resource version: 1 (3171407)");
  ApiError odd = error_from_watch_event(R"({"kind":"ConfigMap"})", {"watch", "configmaps", "", "", ""});
  EXPECT_EQ(odd.code(), 500);
  EXPECT_TRUE(is_internal_error(odd));
}

TEST(StatusRequestInfo, Describe) {
  EXPECT_EQ((RequestInfo{"get", "configmaps", "default", "demo", ""}).describe(), "get configmaps default/demo");
  EXPECT_EQ((RequestInfo{"list", "nodes", "", "", ""}).describe(), "list nodes");
  EXPECT_EQ((RequestInfo{"update", "certificates.certs.capstan.dev", "ns", "x", "status"}).describe(),
            "update certificates.certs.capstan.dev ns/x/status");
  EXPECT_EQ((RequestInfo{"list", "pods", "kube-system", "", ""}).describe(), "list pods in kube-system");
  EXPECT_EQ((RequestInfo{"get", "nodes", "", "n1", ""}).describe(), "get nodes n1");
}

}  // namespace
}  // namespace capstan::client
