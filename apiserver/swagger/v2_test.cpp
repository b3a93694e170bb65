// Swagger 2.0 from v3 component schemas, and its gnostic protobuf encoding read back with the
// project's protobuf wire reader.
#include "apiserver/protobuf/wire.h"
#include "apiserver/swagger/v2.h"

#include <gtest/gtest.h>

#include <map>

namespace capstan::apiserver::swagger {
namespace {

namespace pb = protobuf;

TEST(SwaggerV2, SchemasUseDefinitionsReferencesAndV2Forms) {
  json::Value v3 = json::parse(R"({"type":"object","properties":{
    "spec":{"allOf":[{"$ref":"#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec"}]},
    "surge":{"format":"int-or-string","oneOf":[{"type":"integer"},{"type":"string"}]},
    "cpu":{"oneOf":[{"type":"string"},{"type":"number"}]},
    "items":{"type":"array","items":{"allOf":[{"$ref":"#/components/schemas/io.k8s.api.core.v1.Container"}]}},
    "note":{"type":"string","nullable":true}},
    "x-kubernetes-group-version-kind":[{"group":"apps","kind":"Deployment","version":"v1"}]})");
  EXPECT_EQ(json::serialize(to_v2_schema(v3)),
            R"({"type":"object","properties":{"spec":{"$ref":"#/definitions/io.k8s.api.apps.v1.DeploymentSpec"},)"
            R"("surge":{"type":"string","format":"int-or-string"},"cpu":{"type":"string"},)"
            R"("items":{"type":"array","items":{"$ref":"#/definitions/io.k8s.api.core.v1.Container"}},)"
            R"("note":{"type":"string"}},)"
            R"("x-kubernetes-group-version-kind":[{"group":"apps","kind":"Deployment","version":"v1"}]})");
}

// Field number -> payloads of a message (length-delimited fields only).
std::multimap<std::uint32_t, std::string_view> fields(std::string_view data) {
  std::multimap<std::uint32_t, std::string_view> out;
  pb::WireReader r(data);
  while (!r.done()) {
    auto tag = r.read_tag();
    if (tag.wire == pb::WireType::LengthDelimited) out.emplace(tag.field, r.read_length_delimited());
    else r.skip(tag.wire);
  }
  return out;
}

TEST(SwaggerV2, ProtobufCarriesDefinitionsTypesAndExtensions) {
  json::Object schemas;
  schemas["io.k8s.api.apps.v1.Deployment"] = json::parse(R"({"type":"object",
    "properties":{"replicas":{"type":"integer","format":"int32"}},
    "x-kubernetes-group-version-kind":[{"group":"apps","kind":"Deployment","version":"v1"}]})");
  std::string bin = to_protobuf(document(schemas));
  auto doc = fields(bin);
  ASSERT_EQ(doc.count(1), 1u);
  EXPECT_EQ(doc.find(1)->second, "2.0");
  auto defs = fields(doc.find(9)->second);      // Definitions
  auto named = fields(defs.find(1)->second);     // NamedSchema
  EXPECT_EQ(named.find(1)->second, "io.k8s.api.apps.v1.Deployment");
  auto schema = fields(named.find(2)->second);   // Schema
  EXPECT_EQ(fields(schema.find(22)->second).find(1)->second, "object");  // type
  auto props = fields(schema.find(25)->second);  // Properties
  auto replicas = fields(props.find(1)->second);
  EXPECT_EQ(replicas.find(1)->second, "replicas");
  auto rs = fields(replicas.find(2)->second);
  EXPECT_EQ(rs.find(2)->second, "int32");  // format
  auto ext = fields(schema.find(31)->second);    // NamedAny
  EXPECT_EQ(ext.find(1)->second, "x-kubernetes-group-version-kind");
  auto any = fields(ext.find(2)->second);
  EXPECT_EQ(any.find(2)->second, R"([{"group":"apps","kind":"Deployment","version":"v1"}])");
}

}  // namespace
}  // namespace capstan::apiserver::swagger
