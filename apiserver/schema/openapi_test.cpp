#include "apiserver/schema/openapi.h"

#include "apiserver/schema/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::schema {
namespace {

using testing::S;

TEST(SchemaOpenAPI, ComponentNameReversesTheGroup) {
  EXPECT_EQ(openapi_component_name("certs.capstan.dev", "v1", "Certificate"), "dev.capstan.certs.v1.Certificate");
  EXPECT_EQ(openapi_component_name("cert-manager.io", "v1", "Issuer"), "io.cert-manager.v1.Issuer");
  EXPECT_EQ(openapi_component_name("example", "v1", "X"), "example.v1.X");
}

TEST(SchemaOpenAPI, SchemaRoundTripsWithExtensions) {
  auto s = S(R"({"type":"object","description":"A thing.","properties":{"spec":{"type":"object","required":["a"],
      "properties":{"a":{"type":"string","enum":["x","y"],"default":"x","maxLength":3},
                    "p":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
                    "l":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
                    "m":{"type":"object","additionalProperties":{"type":"integer","minimum":0}}}}}})");
  EXPECT_EQ(json::serialize(to_openapi(*s)),
            R"({"description":"A thing.","type":"object","properties":{"spec":{"type":"object","required":["a"],"properties":{)"
            R"("a":{"type":"string","default":"x","maxLength":3,"enum":["x","y"]},)"
            R"("l":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set"},)"
            R"("m":{"type":"object","additionalProperties":{"type":"integer","minimum":0}},)"
            R"("p":{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}}}}})");
}

TEST(SchemaOpenAPI, ComponentCarriesGvkAndTypeMeta) {
  auto s = S(R"({"type":"object","properties":{"spec":{"type":"object"}}})");
  json::Value c = openapi_component(*s, "certs.capstan.dev", "v1", "Certificate");
  const auto& o = c.get_object();
  EXPECT_EQ(json::serialize(o.at("x-kubernetes-group-version-kind")),
            R"([{"group":"certs.capstan.dev","kind":"Certificate","version":"v1"}])");
  EXPECT_TRUE(o.at("properties").get_object().contains("apiVersion"));
  EXPECT_TRUE(o.at("properties").get_object().contains("metadata"));
  EXPECT_EQ(o.at("properties").get_object().at("kind").get_object().at("type"), json::Value("string"));
  EXPECT_EQ(json::serialize(o.at("properties").get_object().at("metadata").get_object().at("allOf")),
            R"([{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}])");

  json::Value doc = openapi_document("certs.capstan.dev", "v1", {{"Certificate", s, "certificates"}});
  const auto& schemas = doc.get_object().at("components").get_object().at("schemas").get_object();
  EXPECT_TRUE(schemas.contains("dev.capstan.certs.v1.Certificate"));
  EXPECT_TRUE(schemas.contains("dev.capstan.certs.v1.CertificateList"));
  EXPECT_EQ(doc.get_object().at("openapi"), json::Value("3.0.0"));
  EXPECT_EQ(json::get_string(schemas.at("dev.capstan.certs.v1.CertificateList"), {"properties", "items", "description"}),
            "List of certificates. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md");
}

TEST(SchemaOpenAPI, EmbeddedResourcesGetTypeMetaAndObjectMeta) {
  auto s = S(R"({"type":"object","properties":{"spec":{"type":"object","properties":{
      "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}})");
  json::Value c = openapi_component(*s, "example.com", "v1", "Thing");
  const auto* t = json::find(c, {"properties", "spec", "properties", "template"});
  ASSERT_TRUE(t);
  EXPECT_EQ(json::serialize(*json::find(*t, {"required"})), R"(["kind","apiVersion"])");
  EXPECT_EQ(json::get_string(*t, {"properties", "kind", "type"}), "string");
  EXPECT_TRUE(json::find(*t, {"properties", "metadata", "allOf"}));
}

}  // namespace
}  // namespace capstan::apiserver::schema
