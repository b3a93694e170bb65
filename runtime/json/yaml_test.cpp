#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::json {
namespace {

TEST(Yaml, ScalarTypes) {
  Value v = from_yaml("a: 1\nb: true\nc: \"true\"\nd: null\ne: 1.5\nf: hello\ng: '7'\nh: ~\n");
  EXPECT_TRUE(v.at("a").is_int64());
  EXPECT_TRUE(v.at("b").is_bool());
  EXPECT_TRUE(v.at("c").is_string());
  EXPECT_TRUE(v.at("d").is_null());
  EXPECT_TRUE(v.at("e").is_double());
  EXPECT_EQ(v.at("f").as_string(), "hello");
  EXPECT_EQ(v.at("g").as_string(), "7");
  EXPECT_TRUE(v.at("h").is_null());
}

TEST(Yaml, MultipleDocuments) {
  auto docs = from_yaml_documents("a: 1\n---\n---\nb: 2\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[1].at("b").as_int64(), 2);
}

TEST(Yaml, RoundTripKeepsTypes) {
  Value v = parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","labels":{"n":"1","t":"true","e":""}},
    "data":{"multi":"line one\nline two\n","colon":"a: b","list":["- x","y"]},"empty":{},"arr":[],"nested":[[1,2],{"k":null}]})");
  std::string y = to_yaml(v);
  Value back = from_yaml(y);
  EXPECT_EQ(back, v) << y;
}

TEST(Yaml, KubectlShape) {
  Value v = parse(R"({"metadata":{"finalizers":["a","b"],"name":"x"}})");
  EXPECT_EQ(to_yaml(v), "metadata:\n  finalizers:\n  - a\n  - b\n  name: x\n");
}

TEST(Yaml, BadInputThrowsParseError) { EXPECT_THROW(from_yaml("a: [1, 2", "manifest.yaml"), ParseError); }

}  // namespace
}  // namespace capstan::json
