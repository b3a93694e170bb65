// End to end: a Certificate-like CRD schema (cert-manager's shape) through parse, prune, default,
// validate and the 422 Status.
#include "apiserver/schema/schema.h"

#include "apiserver/schema/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::schema {
namespace {

using testing::J;
using Strings = std::vector<std::string>;

const char* kCertificateSchema = R"({
  "type": "object",
  "description": "A Certificate resource should be created to ensure an up to date and signed X.509 certificate is stored in the Kubernetes Secret resource named in spec.secretName.",
  "required": ["spec"],
  "properties": {
    "apiVersion": {"type": "string"},
    "kind": {"type": "string"},
    "metadata": {"type": "object"},
    "spec": {
      "type": "object",
      "required": ["issuerRef", "secretName"],
      "properties": {
        "secretName": {"type": "string", "minLength": 1, "maxLength": 253},
        "commonName": {"type": "string", "maxLength": 64},
        "dnsNames": {"type": "array", "maxItems": 3, "items": {"type": "string", "pattern": "^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"}},
        "duration": {"type": "string", "default": "2160h"},
        "renewBefore": {"type": "string"},
        "revisionHistoryLimit": {"type": "integer", "format": "int32", "minimum": 1},
        "usages": {"type": "array", "x-kubernetes-list-type": "set",
                   "items": {"type": "string", "enum": ["digital signature", "key encipherment", "server auth", "client auth"]}},
        "issuerRef": {
          "type": "object", "required": ["name"],
          "properties": {"name": {"type": "string"}, "kind": {"type": "string", "default": "Issuer"}, "group": {"type": "string"}}
        },
        "privateKey": {
          "type": "object",
          "default": {},
          "properties": {
            "algorithm": {"type": "string", "enum": ["RSA", "ECDSA", "Ed25519"], "default": "RSA"},
            "size": {"type": "integer"},
            "rotationPolicy": {"type": "string", "enum": ["Never", "Always"]}
          }
        },
        "secretTemplate": {
          "type": "object",
          "properties": {
            "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}}
          }
        },
        "keystores": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
      }
    },
    "status": {
      "type": "object",
      "properties": {
        "conditions": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["type"],
          "items": {"type": "object", "required": ["status", "type"],
            "properties": {"type": {"type": "string"}, "status": {"type": "string", "enum": ["True", "False", "Unknown"]},
                           "observedGeneration": {"type": "integer", "format": "int64", "minimum": 0},
                           "lastTransitionTime": {"type": "string", "format": "date-time"}}}}
      }
    }
  }
})";

SchemaPtr certificate() {
  static SchemaPtr s = [] {
    auto r = parse(J(kCertificateSchema));
    EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors.front().error());
    return r.schema;
  }();
  return s;
}

// The request path of kube-apiserver for a CR body: decode, prune, default, validate.
struct Outcome {
  std::vector<std::string> unknown;
  std::vector<validation::Cause> causes;
  json::Value obj;
};
Outcome submit(std::string_view body) {
  Outcome o;
  o.obj = J(body);
  o.unknown = prune_and_default(o.obj, *certificate());
  o.causes = validate_custom_resource(o.obj, *certificate());
  return o;
}

TEST(SchemaCrd, ValidCertificateIsDefaulted) {
  auto o = submit(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"web","namespace":"default"},
      "spec":{"secretName":"web-tls","dnsNames":["web.example.com","*.example.com"],"issuerRef":{"name":"letsencrypt"},
              "usages":["server auth"],"keystores":{"pkcs12":{"create":true}}}})");
  EXPECT_TRUE(o.unknown.empty());
  EXPECT_TRUE(o.causes.empty()) << o.causes.front().error();
  EXPECT_EQ(json::serialize(o.obj.at("spec")),
            R"({"secretName":"web-tls","dnsNames":["web.example.com","*.example.com"],"issuerRef":{"name":"letsencrypt","kind":"Issuer"},)"
            R"("usages":["server auth"],"keystores":{"pkcs12":{"create":true}},"duration":"2160h","privateKey":{"algorithm":"RSA"}})");
}

TEST(SchemaCrd, InvalidCertificateProducesKubeApiserverStatus) {
  auto o = submit(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"web"},
      "spec":{"dnsNames":["Bad_Name"],"issuerRef":{},"privateKey":{"algorithm":"DSA"},"revisionHistoryLimit":0,"colour":"blue",
              "usages":["server auth","server auth"]}})");
  EXPECT_EQ(o.unknown, Strings{"spec.colour"});
  EXPECT_EQ(testing::errors_of(o.causes),
            (Strings{R"(spec.dnsNames[0]: Invalid value: "Bad_Name": spec.dnsNames[0] in body should match '^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$')",
                     "spec.issuerRef.name: Required value",
                     R"(spec.privateKey.algorithm: Unsupported value: "DSA": supported values: "RSA", "ECDSA", "Ed25519")",
                     "spec.revisionHistoryLimit: Invalid value: 0: spec.revisionHistoryLimit in body should be greater than or equal to 1",
                     "spec.secretName: Required value",
                     R"(spec.usages[1]: Duplicate value: "server auth")"}));
  json::Value st = invalid_status("Certificate", "certs.capstan.dev", "web", o.causes);
  const auto& obj = st.get_object();
  EXPECT_EQ(obj.at("code"), json::Value(422));
  EXPECT_EQ(obj.at("reason"), json::Value("Invalid"));
  std::string msg(obj.at("message").get_string());
  EXPECT_EQ(msg.rfind(R"(Certificate.certs.capstan.dev "web" is invalid: [spec.dnsNames[0]: Invalid value: "Bad_Name": )", 0), 0u) << msg;
  const auto& causes = obj.at("details").get_object().at("causes").get_array();
  ASSERT_EQ(causes.size(), 6u);
  EXPECT_EQ(json::serialize(causes[1]), R"({"reason":"FieldValueRequired","message":"Required value","field":"spec.issuerRef.name"})");
  // Strict field validation would have refused the body before validation.
  EXPECT_EQ(strict_decoding_error_for_object("Certificate", "v1", o.unknown),
            R"(Certificate in version "v1" cannot be handled as a Certificate: strict decoding error: unknown field "spec.colour")");
}

TEST(SchemaCrd, StoredObjectsGainNewDefaultsOnRead) {
  // An object stored before privateKey had a default gains it when read back through the decoder.
  json::Value stored = J(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"old"},
                             "spec":{"secretName":"s","issuerRef":{"name":"i","kind":"ClusterIssuer"}}})");
  prune_and_default(stored, *certificate());
  EXPECT_EQ(json::serialize(stored.at("spec").at("privateKey")), R"({"algorithm":"RSA"})");
  EXPECT_EQ(stored.at("spec").at("issuerRef").at("kind"), json::Value("ClusterIssuer"));
}

TEST(SchemaCrd, StatusConditionsListMap) {
  auto o = submit(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"web"},
      "spec":{"secretName":"s","issuerRef":{"name":"i"}},
      "status":{"conditions":[{"type":"Ready","status":"Maybe","lastTransitionTime":"2024-01-01T00:00:00Z"},
                              {"type":"Ready","status":"True","observedGeneration":-1,"lastTransitionTime":"now"}]}})");
  EXPECT_EQ(testing::errors_of(o.causes),
            (Strings{R"(status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown")",
                     R"(status.conditions[1].lastTransitionTime: Invalid value: "now": status.conditions[1].lastTransitionTime in body must be of type date-time: "now")",
                     "status.conditions[1].observedGeneration: Invalid value: -1: status.conditions[1].observedGeneration in body should be greater than or equal to 0",
                     R"(status.conditions[1]: Duplicate value: {"type":"Ready"})"}));
}

TEST(SchemaCrd, CrdCreateRejectsNonStructuralSchema) {
  auto r = parse(J(R"({"type":"object","properties":{"spec":{"properties":{"x":{"type":"string"}}},"status":{"type":"object","uniqueItems":true}}})"));
  EXPECT_EQ(format_invalid("CustomResourceDefinition", "apiextensions.k8s.io", "certificates.certs.capstan.dev", r.errors),
            "CustomResourceDefinition.apiextensions.k8s.io \"certificates.certs.capstan.dev\" is invalid: ["
            "spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields, "
            "spec.versions[0].schema.openAPIV3Schema.properties[status].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic]");
}

}  // namespace
}  // namespace capstan::apiserver::schema
