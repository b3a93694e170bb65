// Admission handlers with crafted AdmissionReviews, and the path helpers and metrics.
#include "testing/test_cluster.h"
#include "runtime/json/patch.h"
#include "runtime/meta/base64.h"
#include "runtime/webhook/admission.h"
#include "runtime/webhook/metrics.h"
#include "runtime/webhook/paths.h"

#include <gtest/gtest.h>

namespace capstan::webhook {
namespace {

json::Value configmap(json::Object data = {}) {
  return json::Object{{"apiVersion", "v1"},
                      {"kind", "ConfigMap"},
                      {"metadata", json::Object{{"name", "cm"}, {"namespace", "default"}}},
                      {"data", std::move(data)}};
}

json::Value review(std::string_view version, std::string_view op, json::Value object, json::Value old = nullptr) {
  json::Object req{{"uid", "705ab4f5-6393-11e8-b7cc-42010a800002"},
                   {"kind", json::Object{{"group", ""}, {"version", "v1"}, {"kind", "ConfigMap"}}},
                   {"resource", json::Object{{"group", ""}, {"version", "v1"}, {"resource", "configmaps"}}},
                   {"name", "cm"},
                   {"namespace", "default"},
                   {"operation", op},
                   {"userInfo", json::Object{{"username", "admin"}, {"groups", json::Array{"system:masters"}}}},
                   {"object", std::move(object)},
                   {"oldObject", std::move(old)},
                   {"dryRun", false}};
  return json::Object{{"apiVersion", std::string("admission.k8s.io/") + std::string(version)},
                      {"kind", "AdmissionReview"},
                      {"request", std::move(req)}};
}

http::Request post(const json::Value& body, std::string_view content_type = "application/json") {
  http::Request r;
  r.method = "POST";
  r.target = "/validate--v1-configmap?timeout=10s";
  r.body = json::serialize(body);
  if (!content_type.empty()) r.headers.set("Content-Type", content_type);
  return r;
}

// The review answered, checking the HTTP side.
json::Value call(const Handler& h, const http::Request& req) {
  http::Response resp = h(req);
  EXPECT_EQ(resp.status, 200);
  EXPECT_EQ(resp.headers.get_or("Content-Type", ""), "application/json");
  return json::parse(resp.body, "admission response");
}

struct RejectForbidden : Validator {
  Warnings validate_create(const json::Value& obj) override {
    if (json::find(obj, {"data", "forbidden"})) {
      Denied d("data.forbidden: Forbidden: not allowed", "Invalid", 422,
               {{"FieldValueForbidden", "not allowed", "data.forbidden"}});
      d.warnings = {"think again"};
      throw d;
    }
    return {"data is not validated deeply"};
  }
  Warnings validate_update(const json::Value& old_obj, const json::Value& new_obj) override {
    seen_old = old_obj;
    seen_new = new_obj;
    if (json::get_string(new_obj, {"data", "k"}) == "plain") throw Denied("plain is not allowed");
    return {};
  }
  Warnings validate_delete(const json::Value& obj) override {
    seen_deleted = obj;
    if (json::find(obj, {"data", "boom"})) throw std::runtime_error("validator exploded");
    return {};
  }
  json::Value seen_old, seen_new, seen_deleted;
};

struct SetDefaults : Defaulter {
  void default_(json::Value& obj) override {
    auto& data = json::ensure_object(obj, {"data"});
    if (!data.contains("mode")) data["mode"] = "auto";
    json::ensure_object(obj, {"metadata", "labels"})["defaulted"] = "true";
  }
};

TEST(WebhookAdmissionTest, AllowedV1ReviewCopiesTheUidAndPassesWarnings) {
  auto h = make_validating_handler(std::make_shared<RejectForbidden>());
  json::Value r = call(h, post(review("v1", "CREATE", configmap())));
  EXPECT_EQ(json::get_string(r, {"apiVersion"}), "admission.k8s.io/v1");
  EXPECT_EQ(json::get_string(r, {"kind"}), "AdmissionReview");
  EXPECT_EQ(json::find(r, {"request"}), nullptr);
  EXPECT_EQ(json::get_string(r, {"response", "uid"}), "705ab4f5-6393-11e8-b7cc-42010a800002");
  EXPECT_TRUE(json::get_bool(r, {"response", "allowed"}));
  EXPECT_EQ(json::get_int(r, {"response", "status", "code"}), 200);
  EXPECT_EQ(json::find(r, {"response", "patch"}), nullptr);
  EXPECT_EQ(json::serialize(*json::find(r, {"response", "warnings"})), R"(["data is not validated deeply"])");
}

TEST(WebhookAdmissionTest, V1beta1IsAnsweredInV1beta1) {
  auto h = make_validating_handler(std::make_shared<RejectForbidden>());
  json::Value r = call(h, post(review("v1beta1", "CREATE", configmap())));
  EXPECT_EQ(json::get_string(r, {"apiVersion"}), "admission.k8s.io/v1beta1");
  EXPECT_EQ(json::get_string(r, {"response", "uid"}), "705ab4f5-6393-11e8-b7cc-42010a800002");
  EXPECT_TRUE(json::get_bool(r, {"response", "allowed"}));
}

TEST(WebhookAdmissionTest, DenialCarriesCodeReasonMessageCausesAndWarnings) {
  auto h = make_validating_handler(std::make_shared<RejectForbidden>());
  json::Value r = call(h, post(review("v1", "CREATE", configmap({{"forbidden", "x"}}))));
  const json::Value& resp = r.at("response");
  EXPECT_FALSE(json::get_bool(resp, {"allowed"}, true));
  EXPECT_EQ(json::get_int(resp, {"status", "code"}), 422);
  EXPECT_EQ(json::get_string(resp, {"status", "reason"}), "Invalid");
  EXPECT_EQ(json::get_string(resp, {"status", "message"}), "data.forbidden: Forbidden: not allowed");
  const auto* causes = json::get_array(resp, {"status", "details", "causes"});
  ASSERT_TRUE(causes);
  ASSERT_EQ(causes->size(), 1u);
  EXPECT_EQ(json::get_string((*causes)[0], {"field"}), "data.forbidden");
  EXPECT_EQ(json::get_string((*causes)[0], {"reason"}), "FieldValueForbidden");
  EXPECT_EQ(json::serialize(*json::find(resp, {"warnings"})), R"(["think again"])");
}

TEST(WebhookAdmissionTest, DeniedDefaultsToForbidden403) {
  auto v = std::make_shared<RejectForbidden>();
  auto h = make_validating_handler(v);
  json::Value r = call(h, post(review("v1", "UPDATE", configmap({{"k", "plain"}}), configmap({{"k", "old"}}))));
  EXPECT_FALSE(json::get_bool(r, {"response", "allowed"}, true));
  EXPECT_EQ(json::get_int(r, {"response", "status", "code"}), 403);
  EXPECT_EQ(json::get_string(r, {"response", "status", "reason"}), "Forbidden");
  EXPECT_EQ(json::get_string(r, {"response", "status", "message"}), "plain is not allowed");
  EXPECT_EQ(json::get_string(v->seen_old, {"data", "k"}), "old");
  EXPECT_EQ(json::get_string(v->seen_new, {"data", "k"}), "plain");
}

TEST(WebhookAdmissionTest, DeleteValidatesTheOldObjectAndExceptionsBecome500) {
  auto v = std::make_shared<RejectForbidden>();
  auto h = make_validating_handler(v);
  json::Value ok = call(h, post(review("v1", "DELETE", nullptr, configmap({{"k", "v"}}))));
  EXPECT_TRUE(json::get_bool(ok, {"response", "allowed"}));
  EXPECT_EQ(json::get_string(v->seen_deleted, {"data", "k"}), "v");

  json::Value boom = call(h, post(review("v1", "DELETE", nullptr, configmap({{"boom", "1"}}))));
  EXPECT_FALSE(json::get_bool(boom, {"response", "allowed"}, true));
  EXPECT_EQ(json::get_int(boom, {"response", "status", "code"}), 500);
  EXPECT_EQ(json::get_string(boom, {"response", "status", "message"}), "validator exploded");
  EXPECT_EQ(json::get_string(boom, {"response", "uid"}), "705ab4f5-6393-11e8-b7cc-42010a800002");
}

TEST(WebhookAdmissionTest, ConnectIsAllowedAndUnknownOperationsAreBadRequests) {
  auto h = make_validating_handler(std::make_shared<RejectForbidden>());
  EXPECT_TRUE(json::get_bool(call(h, post(review("v1", "CONNECT", nullptr))), {"response", "allowed"}));
  json::Value r = call(h, post(review("v1", "PATCH", configmap())));
  EXPECT_FALSE(json::get_bool(r, {"response", "allowed"}, true));
  EXPECT_EQ(json::get_int(r, {"response", "status", "code"}), 400);
  EXPECT_EQ(json::get_string(r, {"response", "status", "message"}), "unknown operation \"PATCH\"");
}

TEST(WebhookAdmissionTest, MutatingPatchAppliedToTheOriginalGivesTheDefaultedObject) {
  auto h = make_mutating_handler(std::make_shared<SetDefaults>());
  json::Value original = configmap({{"k", "v"}});
  json::Value r = call(h, post(review("v1", "CREATE", original)));
  ASSERT_TRUE(json::get_bool(r, {"response", "allowed"}));
  EXPECT_EQ(json::get_string(r, {"response", "patchType"}), "JSONPatch");
  auto patch_text = meta::base64_decode(json::get_string(r, {"response", "patch"}));
  ASSERT_TRUE(patch_text);
  json::Value patched = json::apply_json_patch(original, *patch_text);
  json::Value expected = original;
  SetDefaults{}.default_(expected);
  EXPECT_TRUE(json::deep_equal(patched, expected)) << json::serialize(patched);
  EXPECT_EQ(json::get_string(patched, {"data", "mode"}), "auto");

  // The same in v1beta1.
  json::Value b = call(h, post(review("v1beta1", "UPDATE", original, original)));
  EXPECT_EQ(json::get_string(b, {"apiVersion"}), "admission.k8s.io/v1beta1");
  EXPECT_EQ(json::get_string(b, {"response", "patchType"}), "JSONPatch");
}

TEST(WebhookAdmissionTest, MutatingWithoutChangesSendsNoPatchAndSkipsDelete) {
  auto h = make_mutating_handler(std::make_shared<SetDefaults>());
  json::Value already = configmap({{"mode", "manual"}});
  SetDefaults{}.default_(already);
  json::Value r = call(h, post(review("v1", "CREATE", already)));
  EXPECT_TRUE(json::get_bool(r, {"response", "allowed"}));
  EXPECT_EQ(json::find(r, {"response", "patch"}), nullptr);
  EXPECT_EQ(json::find(r, {"response", "patchType"}), nullptr);

  json::Value del = call(h, post(review("v1", "DELETE", nullptr, configmap())));
  EXPECT_TRUE(json::get_bool(del, {"response", "allowed"}));
  EXPECT_EQ(json::find(del, {"response", "patch"}), nullptr);
}

TEST(WebhookAdmissionTest, DefaulterDenialIsADenial) {
  auto h = make_mutating_handler(std::make_shared<FuncDefaulter>([](json::Value&) { throw Denied("no defaults today"); }));
  json::Value r = call(h, post(review("v1", "CREATE", configmap())));
  EXPECT_FALSE(json::get_bool(r, {"response", "allowed"}, true));
  EXPECT_EQ(json::get_int(r, {"response", "status", "code"}), 403);
  EXPECT_EQ(json::get_string(r, {"response", "status", "message"}), "no defaults today");
}

TEST(WebhookAdmissionTest, WrongContentTypeIsABadRequest) {
  auto h = make_validating_handler(std::make_shared<RejectForbidden>());
  json::Value r = call(h, post(review("v1", "CREATE", configmap()), "text/plain"));
  EXPECT_EQ(json::get_string(r, {"apiVersion"}), "admission.k8s.io/v1");
  EXPECT_FALSE(json::get_bool(r, {"response", "allowed"}, true));
  EXPECT_EQ(json::get_int(r, {"response", "status", "code"}), 400);
  EXPECT_EQ(json::get_string(r, {"response", "status", "message"}), "contentType=text/plain, expected application/json");
  EXPECT_EQ(json::get_string(r, {"response", "uid"}), "");
  // Parameters are fine.
  json::Value ok = call(h, post(review("v1", "CREATE", configmap()), "application/json; charset=utf-8"));
  EXPECT_TRUE(json::get_bool(ok, {"response", "allowed"}));
  // No Content-Type at all.
  json::Value none = call(h, post(review("v1", "CREATE", configmap()), ""));
  EXPECT_EQ(json::get_int(none, {"response", "status", "code"}), 400);
}

TEST(WebhookAdmissionTest, OversizedEmptyAndMalformedBodies) {
  auto h = make_validating_handler(std::make_shared<RejectForbidden>());
  http::Request big = post(review("v1", "CREATE", configmap({{"blob", std::string(kMaxRequestBytes, 'x')}})));
  json::Value r = call(h, big);
  EXPECT_EQ(json::get_int(r, {"response", "status", "code"}), 413);
  EXPECT_EQ(json::get_string(r, {"response", "status", "message"}), "request entity is too large; limit is 3145728 bytes");

  http::Request empty = post(nullptr);
  empty.body.clear();
  EXPECT_EQ(json::get_int(call(h, empty), {"response", "status", "code"}), 400);

  http::Request garbage = post(nullptr);
  garbage.body = "{not json";
  json::Value g = call(h, garbage);
  EXPECT_EQ(json::get_int(g, {"response", "status", "code"}), 400);
  EXPECT_FALSE(json::get_bool(g, {"response", "allowed"}, true));

  json::Value wrong_version = review("v2", "CREATE", configmap());
  json::Value w = call(h, post(wrong_version));
  EXPECT_EQ(json::get_int(w, {"response", "status", "code"}), 400);
  EXPECT_NE(json::get_string(w, {"response", "status", "message"}).find("admission.k8s.io/v2"), std::string::npos);

  json::Value no_request = json::Object{{"apiVersion", "admission.k8s.io/v1"}, {"kind", "AdmissionReview"}};
  EXPECT_EQ(json::get_int(call(h, post(no_request)), {"response", "status", "code"}), 400);
}

TEST(WebhookAdmissionTest, DecodeReadsTheWholeRequest) {
  json::Value rv = review("v1", "UPDATE", configmap({{"a", "1"}}), configmap({{"a", "0"}}));
  rv.as_object()["request"].as_object()["dryRun"] = true;
  rv.as_object()["request"].as_object()["subResource"] = "status";
  auto [version, req] = decode_admission_review(json::serialize(rv));
  EXPECT_EQ(version, ReviewVersion::V1);
  EXPECT_EQ(req.operation, "UPDATE");
  EXPECT_EQ(req.kind.kind, "ConfigMap");
  EXPECT_EQ(req.resource.resource, "configmaps");
  EXPECT_EQ(req.sub_resource, "status");
  EXPECT_EQ(req.name, "cm");
  EXPECT_EQ(req.ns, "default");
  EXPECT_TRUE(req.dry_run);
  EXPECT_EQ(json::get_string(req.user_info, {"username"}), "admin");
  EXPECT_EQ(json::get_string(req.old_object, {"data", "a"}), "0");
  // No type meta: read as v1.
  json::Value bare = json::Object{{"request", rv.at("request")}};
  EXPECT_EQ(decode_admission_review(json::serialize(bare)).first, ReviewVersion::V1);
}

TEST(WebhookPathsTest, ControllerRuntimeConventions) {
  EXPECT_EQ(mutate_path({"certs.capstan.dev", "v1", "Certificate"}), "/mutate-certs-capstan-dev-v1-certificate");
  EXPECT_EQ(validate_path({"kafka.capstan.dev", "v1beta2", "KafkaTopic"}), "/validate-kafka-capstan-dev-v1beta2-kafkatopic");
  EXPECT_EQ(validate_path({"", "v1", "ConfigMap"}), "/validate--v1-configmap");
  EXPECT_TRUE(is_valid_path("/"));
  EXPECT_TRUE(is_valid_path("/convert"));
  EXPECT_TRUE(is_valid_path("/mutate--v1-configmap"));
  EXPECT_TRUE(is_valid_path("/a/b_c/D-1"));
  EXPECT_FALSE(is_valid_path(""));
  EXPECT_FALSE(is_valid_path("convert"));
  EXPECT_FALSE(is_valid_path("/a/"));
  EXPECT_FALSE(is_valid_path("//a"));
  EXPECT_FALSE(is_valid_path("/a.b"));
  EXPECT_FALSE(is_valid_path("/a?x=1"));
}

TEST(WebhookMetricsTest, RequestsLatencyAndInFlightPerPath) {
  metrics::Registry reg;
  std::atomic<double> in_flight_seen{-1};
  Handler inner = [&](const http::Request&) {
    auto s = integration::find_sample(reg, "controller_runtime_webhook_requests_in_flight", {"/validate-x"});
    in_flight_seen = s ? s->value : -1;
    return http::Response(200, "{}");
  };
  Handler h = instrument("/validate-x", inner, &reg);
  http::Request req;
  h(req);
  h(req);
  EXPECT_EQ(in_flight_seen.load(), 1);
  auto total = integration::find_sample(reg, "controller_runtime_webhook_requests_total", {"/validate-x", "200"});
  ASSERT_TRUE(total);
  EXPECT_EQ(total->value, 2);
  auto lat = integration::find_sample(reg, "controller_runtime_webhook_latency_seconds", {"/validate-x"});
  ASSERT_TRUE(lat);
  EXPECT_EQ(lat->count, 2u);
  EXPECT_EQ(integration::find_sample(reg, "controller_runtime_webhook_requests_in_flight", {"/validate-x"})->value, 0);

  Handler bad = instrument("/convert", [](const http::Request&) { return http::Response(400, "bad\n"); }, &reg);
  bad(req);
  EXPECT_EQ(integration::find_sample(reg, "controller_runtime_webhook_requests_total", {"/convert", "400"})->value, 1);
}

}  // namespace
}  // namespace capstan::webhook
