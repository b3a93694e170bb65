// Helpers of the webhooks unit tests: an AdmissionReview for an object, sent through a handler.
#pragma once

#include "runtime/http/message.h"
#include "runtime/json/json.h"
#include "runtime/json/yaml.h"
#include "runtime/webhook/handler.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace capstan::webhooks::testing {

inline json::Value review(std::string_view group, std::string_view kind, std::string_view resource, std::string_view op,
                          json::Value object, json::Value old = nullptr, std::string_view sub_resource = {}) {
  json::Object req{{"uid", "0d6f1ad0-0000-4000-8000-000000000002"},
                   {"kind", json::Object{{"group", group}, {"version", "v1"}, {"kind", kind}}},
                   {"resource", json::Object{{"group", group}, {"version", "v1"}, {"resource", resource}}},
                   {"name", json::get_string(object, {"metadata", "name"})},
                   {"namespace", json::get_string(object, {"metadata", "namespace"})},
                   {"operation", op},
                   {"userInfo", json::Object{{"username", "jane"}}},
                   {"object", std::move(object)},
                   {"oldObject", std::move(old)}};
  if (!sub_resource.empty()) req["subResource"] = sub_resource;
  return json::Object{{"apiVersion", "admission.k8s.io/v1"}, {"kind", "AdmissionReview"}, {"request", std::move(req)}};
}

inline json::Value call(const webhook::Handler& h, const json::Value& body) {
  http::Request r;
  r.method = "POST";
  r.target = "/x";
  r.body = json::serialize(body);
  r.headers.set("Content-Type", "application/json");
  http::Response resp = h(r);
  EXPECT_EQ(resp.status, 200);
  return json::parse(resp.body, "review");
}

inline bool allowed(const json::Value& r) { return json::get_bool(r, {"response", "allowed"}); }
inline std::string message(const json::Value& r) { return std::string(json::get_string(r, {"response", "status", "message"})); }
inline std::int64_t code(const json::Value& r) { return json::get_int(r, {"response", "status", "code"}).value_or(0); }

}  // namespace capstan::webhooks::testing
