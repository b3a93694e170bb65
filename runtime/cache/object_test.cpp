#include "runtime/cache/object.h"

#include <gtest/gtest.h>

namespace capstan::cache {
namespace {

const char* kPod =
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"prod","uid":"u-1","resourceVersion":"42",)"
    R"("generation":3,"labels":{"app":"web","tier":"front"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet",)"
    R"("name":"web","uid":"owner-1","controller":true},{"apiVersion":"v1","kind":"ConfigMap","name":"c","uid":"owner-2"}],)"
    R"("managedFields":[{"manager":"kubectl","operation":"Apply","fieldsV1":{"f:spec":{}}}]},"spec":{"x":1}})";

TEST(CacheObject, ExtractsMetadataAndStripsManagedFields) {
  auto o = CachedObject::from_json(kPod, true);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->ns(), "prod");
  EXPECT_EQ(o->name(), "web-0");
  EXPECT_EQ(o->key(), "prod/web-0");
  EXPECT_EQ(o->uid(), "u-1");
  EXPECT_EQ(o->resource_version(), "42");
  EXPECT_EQ(o->generation(), 3);
  EXPECT_EQ(o->label("app"), "web");
  EXPECT_TRUE(o->has_label("tier"));
  EXPECT_FALSE(o->has_label("none"));
  ASSERT_EQ(o->owners().size(), 2u);
  EXPECT_EQ(o->owners()[1].kind, "ConfigMap");
  EXPECT_EQ(o->controller_uid(), "owner-1");
  EXPECT_EQ(o->json().find("managedFields"), std::string::npos);
  auto v = o->value();
  EXPECT_EQ(json::get_int(v, {"spec", "x"}).value(), 1);
  EXPECT_LT(o->json().size(), std::string(kPod).size());
  auto keep = CachedObject::from_json(kPod, false);
  EXPECT_NE(keep->json().find("managedFields"), std::string::npos);
}

TEST(CacheObject, RejectsNonObjects) {
  std::string err;
  EXPECT_FALSE(CachedObject::from_json("[1,2]", true, &err));
  EXPECT_FALSE(err.empty());
  EXPECT_FALSE(CachedObject::from_json(R"({"metadata":{}})", true, &err));
  EXPECT_FALSE(CachedObject::from_json("{not json", true, &err));
}

TEST(CacheObject, OverheadIsSmallAgainstTheJson) {
  std::string big = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"default","uid":"0123456789abcdef0123456789abcdef0123","resourceVersion":"123456","labels":{"a":"b"}},"data":{"k":")" +
                    std::string(2000, 'v') + "\"}}";
  auto o = CachedObject::from_json(big, true);
  ASSERT_TRUE(o);
  EXPECT_LT(o->heap_bytes(), big.size() + 400) << "per-object bookkeeping should stay in the low hundreds of bytes";
}

TEST(CacheObject, MetadataStringsAreViewsIntoTheJsonUnlessEscaped) {
  std::string text = R"({"metadata":{"name":"x","namespace":"default","uid":"0123456789abcdef0123456789abcdef0123",)"
                     R"("resourceVersion":"123456","labels":{"q":"say \"hi\"","app":"web-frontend"},)"
                     R"("managedFields":[{"manager":"only-in-managed-fields"}]},"data":{"k":")" +
                     std::string(2000, 'v') + "\"}}";
  auto o = CachedObject::from_json(text, true);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->label("q"), "say \"hi\"");  // escaped in the JSON: kept as a copy
  EXPECT_EQ(o->label("app"), "web-frontend");
  EXPECT_EQ(o->uid(), "0123456789abcdef0123456789abcdef0123");
  EXPECT_EQ(o->resource_version(), "123456");
  // Views into the JSON kept (never into the managedFields that were cut out).
  auto inside = [&](std::string_view s) { return s.data() >= o->json().data() && s.data() + s.size() <= o->json().data() + o->json().size(); };
  EXPECT_TRUE(inside(o->uid()));
  EXPECT_TRUE(inside(o->resource_version()));
  EXPECT_TRUE(inside(o->label("app")));
  EXPECT_FALSE(inside(o->label("q")));
  EXPECT_FALSE(inside(o->key()));
  // Header, the key and the unescaped label copied, one span per string: about a hundred bytes.
  EXPECT_LT(o->heap_bytes(), o->json().size() + 140);
}

}  // namespace
}  // namespace capstan::cache
