#include "runtime/cache/store.h"

#include <gtest/gtest.h>

namespace capstan::cache {
namespace {

ObjectPtr obj(const std::string& ns, const std::string& name, const std::string& rv, const std::string& owner = "",
              const std::string& color = "") {
  std::string md = R"({"name":")" + name + R"(","namespace":")" + ns + R"(","resourceVersion":")" + rv + "\"";
  if (!owner.empty()) md += R"(,"ownerReferences":[{"apiVersion":"v1","kind":"X","name":"o","uid":")" + owner + R"(","controller":true}])";
  if (!color.empty()) md += R"(,"labels":{"color":")" + color + "\"}";
  md += "}";
  return CachedObject::from_json(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":)" + md + "}", true);
}

TEST(CacheStore, UpsertGetRemove) {
  Store s;
  EXPECT_EQ(s.upsert(obj("a", "x", "1")), nullptr);
  auto prev = s.upsert(obj("a", "x", "2"));
  ASSERT_TRUE(prev);
  EXPECT_EQ(prev->resource_version(), "1");
  EXPECT_EQ(s.get("a/x")->resource_version(), "2");
  EXPECT_EQ(s.size(), 1u);
  EXPECT_TRUE(s.remove("a/x"));
  EXPECT_FALSE(s.remove("a/x"));
  EXPECT_EQ(s.size(), 0u);
}

TEST(CacheStore, NamespaceOwnerAndCustomIndexes) {
  Store s;
  s.upsert(obj("a", "x", "1", "o1", "red"));
  s.upsert(obj("a", "y", "1", "o1", "blue"));
  s.upsert(obj("b", "z", "1", "o2", "red"));
  EXPECT_EQ(s.list_namespace("a").size(), 2u);
  EXPECT_EQ(s.list_namespace("").size(), 3u);
  EXPECT_EQ(s.by_index(kOwnerIndex, "o1").size(), 2u);
  s.add_index("color", [](const CachedObject& o) { return std::vector<std::string>{std::string(o.label("color"))}; });
  EXPECT_EQ(s.by_index("color", "red").size(), 2u);
  // Re-labelling moves the object between index values.
  s.upsert(obj("a", "x", "2", "o2", "blue"));
  EXPECT_EQ(s.by_index("color", "red").size(), 1u);
  EXPECT_EQ(s.by_index("color", "blue").size(), 2u);
  EXPECT_EQ(s.by_index(kOwnerIndex, "o1").size(), 1u);
  s.remove("b/z");
  EXPECT_TRUE(s.by_index("color", "red").empty());
  EXPECT_THROW(s.by_index("nope", "x"), std::invalid_argument);
  EXPECT_THROW(s.add_index("color", {}), std::invalid_argument);
}

TEST(CacheStore, ReplaceAllReturnsThePreviousContents) {
  Store s;
  s.upsert(obj("a", "x", "1"));
  ObjectMap fresh;
  put(fresh, obj("a", "y", "4"));
  put(fresh, obj("a", "y", "5"));  // replaced under the same key
  auto old = s.replace_all(std::move(fresh));
  EXPECT_EQ(old.size(), 1u);
  EXPECT_TRUE(find(old, "a/x"));
  EXPECT_FALSE(s.get("a/x"));
  ASSERT_TRUE(s.get("a/y"));
  EXPECT_EQ(s.get("a/y")->resource_version(), "5");
  EXPECT_EQ(s.list_namespace("a").size(), 1u);
}

}  // namespace
}  // namespace capstan::cache
