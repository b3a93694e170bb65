// OpenAPI v3 components generated from the schema tables.
#include "apiserver/typed/openapi.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::typed {
namespace {

TEST(TypedOpenApi, DeploymentComponentsReferenceEachOtherAsKubeOpenApiNamesThem) {
  json::Object schemas;
  ASSERT_TRUE(add_kind_schemas(schemas, "apps", "v1", "Deployment"));
  const auto& d = schemas.at("io.k8s.api.apps.v1.Deployment");
  EXPECT_EQ(json::serialize(*json::find(d, {"x-kubernetes-group-version-kind"})),
            R"([{"group":"apps","kind":"Deployment","version":"v1"}])");
  EXPECT_EQ(json::serialize(*json::find(d, {"properties", "spec"})),
            R"({"allOf":[{"$ref":"#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec"}],"default":{}})");
  EXPECT_EQ(json::get_string(d, {"properties", "kind", "type"}), "string");
  const auto& spec = schemas.at("io.k8s.api.apps.v1.DeploymentSpec");
  EXPECT_EQ(json::serialize(*json::find(spec, {"properties", "replicas"})), R"({"type":"integer","format":"int32"})");
  const auto& pod = schemas.at("io.k8s.api.core.v1.PodSpec");
  EXPECT_EQ(json::serialize(*json::find(pod, {"properties", "containers"})),
            R"({"type":"array","items":{"allOf":[{"$ref":"#/components/schemas/io.k8s.api.core.v1.Container"}]},)"
            R"("x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],)"
            R"("x-kubernetes-patch-merge-key":"name","x-kubernetes-patch-strategy":"merge"})");
  EXPECT_EQ(json::serialize(schemas.at("io.k8s.apimachinery.pkg.util.intstr.IntOrString")),
            R"({"format":"int-or-string","oneOf":[{"type":"integer"},{"type":"string"}]})");
  EXPECT_EQ(json::serialize(schemas.at("io.k8s.apimachinery.pkg.apis.meta.v1.Time")), R"({"type":"string","format":"date-time"})");
  EXPECT_FALSE(schemas.contains("io.k8s.api.core.v1.Secret")) << "only what a Deployment reaches";
  EXPECT_TRUE(schemas.contains("io.k8s.api.apps.v1.DeploymentList"));
  EXPECT_EQ(json::serialize(*json::find(schemas.at("io.k8s.api.apps.v1.DeploymentList"), {"x-kubernetes-group-version-kind"})),
            R"([{"group":"apps","kind":"DeploymentList","version":"v1"}])");
}

TEST(TypedOpenApi, BytesMapsAndUnknownKinds) {
  json::Object schemas;
  ASSERT_TRUE(add_kind_schemas(schemas, "", "v1", "Secret"));
  EXPECT_EQ(json::serialize(*json::find(schemas.at("io.k8s.api.core.v1.Secret"), {"properties", "data"})),
            R"({"type":"object","additionalProperties":{"type":"string","format":"byte"}})");
  EXPECT_FALSE(add_kind_schemas(schemas, "example.com", "v1", "Widget"));
}

}  // namespace
}  // namespace capstan::apiserver::typed
