#include "apiserver/schema/prune.h"

#include "apiserver/schema/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::schema {
namespace {

using testing::J;
using testing::S;
using Strings = std::vector<std::string>;

const char* kSchema = R"({"type":"object","properties":{
    "apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},
    "spec":{"type":"object","properties":{
        "a":{"type":"integer"},
        "items":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}},
        "labels":{"type":"object","additionalProperties":{"type":"object","properties":{"v":{"type":"string"}}}},
        "free":{"type":"object","x-kubernetes-preserve-unknown-fields":true,
                "properties":{"known":{"type":"object","properties":{"x":{"type":"integer"}}}}},
        "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
        "pod":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object","properties":{"n":{"type":"string"}}}}}}}}})";

TEST(SchemaPrune, RootKeepsTypeMetaAndObjectMetaOnly) {
  auto s = S(kSchema);
  json::Value obj = J(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate",
      "metadata":{"name":"web","namespace":"default","labels":{"a":"b"},"foo":1,"ownerReferences":[{"name":"o","bar":2}]},
      "spec":{"a":1,"b":2},"status":{"x":1}})");
  auto paths = prune(obj, *s, true);
  EXPECT_EQ(paths, (Strings{"metadata.foo", "metadata.ownerReferences[0].bar", "spec.b", "status"}));
  EXPECT_EQ(json::serialize(obj),
            R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"web","namespace":"default","labels":{"a":"b"},"ownerReferences":[{"name":"o"}]},"spec":{"a":1}})");
}

TEST(SchemaPrune, NestedPathsArePrecise) {
  auto s = S(kSchema);
  json::Value obj = J(R"({"spec":{"items":[{"name":"a"},{"name":"b","extra":{"deep":1}}],
                                 "labels":{"k1":{"v":"x","w":"y"}}}})");
  EXPECT_EQ(prune(obj, *s, true), (Strings{"spec.items[1].extra", "spec.labels.k1.w"}));
  EXPECT_EQ(json::serialize(obj), R"({"spec":{"items":[{"name":"a"},{"name":"b"}],"labels":{"k1":{"v":"x"}}}})");
}

TEST(SchemaPrune, PreserveUnknownFieldsAtDifferentLevels) {
  auto s = S(kSchema);
  json::Value obj = J(R"({"spec":{"free":{"anything":{"goes":1},"known":{"x":1,"y":2}}}})");
  EXPECT_EQ(prune(obj, *s, true), Strings{"spec.free.known.y"});
  EXPECT_EQ(json::serialize(obj), R"({"spec":{"free":{"anything":{"goes":1},"known":{"x":1}}}})");

  auto root = S(R"({"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"spec":{"type":"object","properties":{"a":{"type":"string"}}}}})");
  json::Value o2 = J(R"({"whatever":1,"spec":{"a":"x","b":1}})");
  EXPECT_EQ(prune(o2, *root, true), Strings{"spec.b"});
  EXPECT_EQ(json::serialize(o2), R"({"whatever":1,"spec":{"a":"x"}})");
}

TEST(SchemaPrune, EmbeddedResourcesKeepTypeMetaAndPruneTheirMetadata) {
  auto s = S(kSchema);
  json::Value obj = J(R"({"spec":{
      "template":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","bogus":true},"data":{"k":"v"}},
      "pod":{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"a":"b"}},"spec":{"n":"x","containers":[]},"status":{}}}})");
  EXPECT_EQ(prune(obj, *s, true), (Strings{"spec.pod.spec.containers", "spec.pod.status", "spec.template.metadata.bogus"}));
  EXPECT_EQ(json::serialize(obj),
            R"({"spec":{"template":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"k":"v"}},"pod":{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"a":"b"}},"spec":{"n":"x"}}}})");
}

TEST(SchemaPrune, NonRootPruning) {
  auto s = S(R"({"type":"object","properties":{"a":{"type":"string"}}})");
  json::Value obj = J(R"({"a":"x","metadata":{},"b":1})");
  // Outside the resource root metadata is an ordinary field: dropped, but (as upstream) not
  // reported at the top level.
  EXPECT_EQ(prune(obj, *s, false), Strings{"b"});
  EXPECT_EQ(json::serialize(obj), R"({"a":"x"})");
}

TEST(SchemaPrune, MalformedObjectMetaFieldsAreDroppedSilently) {
  json::Value md = J(R"({"name":"x","labels":{"a":1},"generation":"2","finalizers":["f"],"zzz":1})");
  EXPECT_EQ(prune_object_meta(md), Strings{"zzz"});
  EXPECT_EQ(json::serialize(md), R"({"name":"x","finalizers":["f"]})");
}

TEST(SchemaPrune, PruneAndDefaultPipeline) {
  auto s = S(R"({"type":"object","properties":{"spec":{"type":"object","default":{},"properties":{
      "replicas":{"type":"integer","default":1},"name":{"type":"string"}}}}})");
  json::Value obj = J(R"({"apiVersion":"a/v1","kind":"K","metadata":{"name":"n"},"spec":{"name":null,"junk":1}})");
  EXPECT_EQ(prune_and_default(obj, *s), Strings{"spec.junk"});
  EXPECT_EQ(json::serialize(obj), R"({"apiVersion":"a/v1","kind":"K","metadata":{"name":"n"},"spec":{"replicas":1}})");
}

TEST(SchemaPrune, StrictAndWarnTexts) {
  Strings paths{"spec.foo", "spec.bar[0].baz"};
  EXPECT_EQ(strict_decoding_error(paths), R"(strict decoding error: unknown field "spec.foo", unknown field "spec.bar[0].baz")");
  EXPECT_EQ(strict_decoding_error_for_object("Certificate", "v1", {"spec.foo"}),
            R"(Certificate in version "v1" cannot be handled as a Certificate: strict decoding error: unknown field "spec.foo")");
  EXPECT_EQ(unknown_field_warnings(paths), (Strings{R"(unknown field "spec.foo")", R"(unknown field "spec.bar[0].baz")"}));
}

}  // namespace
}  // namespace capstan::apiserver::schema
