#include "runtime/meta/selector.h"

#include <gtest/gtest.h>

namespace capstan::meta {
namespace {

TEST(LabelSelector, ParseAndMatch) {
  auto s = LabelSelector::parse("app=web,tier!=db,env in (prod, staging),zone notin (z1),team,!legacy");
  Labels l{{"app", "web"}, {"tier", "front"}, {"env", "prod"}, {"zone", "z2"}, {"team", "a"}};
  EXPECT_TRUE(s.matches(l));
  l["legacy"] = "1";
  EXPECT_FALSE(s.matches(l));
  l.erase("legacy");
  l["env"] = "dev";
  EXPECT_FALSE(s.matches(l));
  EXPECT_EQ(s.str(), "app=web,tier!=db,env in (prod,staging),zone notin (z1),team,!legacy");
  EXPECT_EQ(LabelSelector::parse("a==b").str(), "a=b");
}

TEST(LabelSelector, EmptyMatchesAll) {
  EXPECT_TRUE(LabelSelector::parse("").matches(Labels{}));
  EXPECT_TRUE(LabelSelector::from_json(nullptr).matches(Labels{{"a", "b"}}));
}

TEST(LabelSelector, Errors) {
  EXPECT_THROW(LabelSelector::parse("a in b"), SelectorError);
  EXPECT_THROW(LabelSelector::parse("a=b c"), SelectorError);
  EXPECT_THROW(LabelSelector::parse(",,"), SelectorError);
}

TEST(LabelSelector, FromJson) {
  auto v = json::parse(R"({"matchLabels":{"a":"b"},"matchExpressions":[{"key":"c","operator":"In","values":["x","y"]},{"key":"d","operator":"DoesNotExist"}]})");
  auto s = LabelSelector::from_json(&v);
  EXPECT_TRUE(s.matches(Labels{{"a", "b"}, {"c", "y"}}));
  EXPECT_FALSE(s.matches(Labels{{"a", "b"}, {"c", "y"}, {"d", "1"}}));
  auto bad = json::parse(R"({"matchExpressions":[{"key":"c","operator":"Near"}]})");
  EXPECT_THROW(LabelSelector::from_json(&bad), SelectorError);
}

TEST(FieldSelector, ParseAndMatch) {
  auto s = FieldSelector::parse("metadata.name=a,metadata.namespace!=kube-system");
  auto get = [](std::string_view f) -> std::optional<std::string> {
    if (f == "metadata.name") return "a";
    if (f == "metadata.namespace") return "default";
    return std::nullopt;
  };
  EXPECT_TRUE(s.matches(get));
  EXPECT_FALSE(FieldSelector::parse("metadata.name=b").matches(get));
  EXPECT_THROW(FieldSelector::parse("metadata.name"), SelectorError);
}

}  // namespace
}  // namespace capstan::meta
