#include "apiserver/schema/status.h"

#include "apiserver/schema/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::schema {
namespace {

TEST(SchemaStatus, InvalidMessageWithOneAndSeveralCauses) {
  validation::Cause a = validation::field_required(validation::FieldPath("spec").child("secretName"));
  validation::Cause b = validation::field_not_supported(validation::FieldPath("spec").child("privateKey").child("algorithm"), json::Value("DSA"), {"RSA", "ECDSA"});
  EXPECT_EQ(format_invalid("Certificate", "certs.capstan.dev", "web", {a}),
            R"(Certificate.certs.capstan.dev "web" is invalid: spec.secretName: Required value)");
  EXPECT_EQ(format_invalid("Certificate", "certs.capstan.dev", "web", {a, b}),
            R"(Certificate.certs.capstan.dev "web" is invalid: [spec.secretName: Required value, spec.privateKey.algorithm: Unsupported value: "DSA": supported values: "RSA", "ECDSA"])");
  EXPECT_EQ(format_invalid("Certificate", "certs.capstan.dev", "web", {a, a}),
            R"(Certificate.certs.capstan.dev "web" is invalid: spec.secretName: Required value)");
  EXPECT_EQ(format_invalid("ConfigMap", "", "demo", {}), R"(ConfigMap "demo" is invalid)");
}

TEST(SchemaStatus, InvalidStatusObjectMatchesKubeApiserver) {
  validation::Cause a = validation::field_required(validation::FieldPath("spec").child("secretName"));
  validation::Cause b = validation::field_invalid(validation::FieldPath("spec").child("replicas"), json::Value(0), "spec.replicas in body should be greater than or equal to 1");
  json::Value st = invalid_status("Certificate", "certs.capstan.dev", "web", {a, b});
  EXPECT_EQ(json::serialize(st),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
            R"("message":"Certificate.certs.capstan.dev \"web\" is invalid: [spec.secretName: Required value, spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1]",)"
            R"("reason":"Invalid","details":{"name":"web","group":"certs.capstan.dev","kind":"Certificate","causes":[)"
            R"({"reason":"FieldValueRequired","message":"Required value","field":"spec.secretName"},)"
            R"({"reason":"FieldValueInvalid","message":"Invalid value: 0: spec.replicas in body should be greater than or equal to 1","field":"spec.replicas"}]},"code":422})");
}

TEST(SchemaStatus, BadRequest) {
  EXPECT_EQ(json::serialize(bad_request_status("strict decoding error: unknown field \"spec.foo\"")),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"strict decoding error: unknown field \"spec.foo\"","reason":"BadRequest","code":400})");
}

TEST(SchemaStatus, FieldErrorBodies) {
  validation::FieldPath p("spec");
  EXPECT_EQ(validation::field_too_long(p.child("name"), 1).error(), "spec.name: Too long: may not be more than 1 bytes");
  EXPECT_EQ(validation::field_too_long(p, -1).error(), "spec: Too long: value is too long");
  EXPECT_EQ(validation::field_too_many(p, 3, 1).error(), "spec: Too many: 3: must have at most 1 items");
  EXPECT_EQ(validation::field_too_many(p, -1, -1).error(), "spec: Too many: has too many items");
  EXPECT_EQ(validation::field_forbidden(p, "nope").error(), "spec: Forbidden: nope");
  EXPECT_EQ(validation::field_invalid(p, json::Value(1.5), "x").error(), "spec: Invalid value: 1.5: x");
  EXPECT_EQ(validation::field_invalid(p, json::Value(true), "x").error(), "spec: Invalid value: true: x");
  EXPECT_EQ(validation::field_invalid(p, json::Value(), "x").error(), R"(spec: Invalid value: null: x)");
  EXPECT_EQ(validation::field_invalid(validation::FieldPath(), json::Value(""), "x").error(), R"(<nil>: Invalid value: "": x)");
  EXPECT_EQ(validation::FieldPath("spec").child("items").index(2).child("name").str(), "spec.items[2].name");
  EXPECT_EQ(validation::FieldPath("x").child("properties").key("spec").str(), "x.properties[spec]");
}

}  // namespace
}  // namespace capstan::apiserver::schema
