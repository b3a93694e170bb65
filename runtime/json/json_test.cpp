#include "runtime/json/json.h"

#include <gtest/gtest.h>

namespace capstan::json {
namespace {

TEST(Json, ParseAndPathHelpers) {
  Value v = parse(R"({"metadata":{"name":"demo","generation":3,"labels":{"a":"b"}},"spec":{"on":true}})");
  EXPECT_EQ(get_string(v, {"metadata", "name"}), "demo");
  EXPECT_EQ(get_int(v, {"metadata", "generation"}).value(), 3);
  EXPECT_TRUE(get_bool(v, {"spec", "on"}));
  EXPECT_EQ(find(v, {"metadata", "missing"}), nullptr);
  EXPECT_EQ(get_string(v, {"metadata", "generation"}, "fallback"), "fallback");
}

TEST(Json, ParseErrorNamesTheDocument) {
  try {
    parse("{not json", "Certificate default/web");
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("Certificate default/web"), std::string::npos);
  }
  EXPECT_FALSE(try_parse("[1,").has_value());
}

TEST(Json, EnsureObjectAndErase) {
  Value v = Object{};
  ensure_object(v, {"status", "nested"})["x"] = 1;
  EXPECT_EQ(serialize(v), R"({"status":{"nested":{"x":1}}})");
  EXPECT_TRUE(erase(v, {"status", "nested"}));
  EXPECT_FALSE(erase(v, {"status", "nested"}));
  EXPECT_EQ(serialize(v), R"({"status":{}})");
}

TEST(Json, PointerEscaping) {
  EXPECT_EQ(pointer_escape("a/b~c"), "a~1b~0c");
  EXPECT_EQ(pointer_unescape("a~1b~0c"), "a/b~c");
}

TEST(Json, PrettyPrint) {
  Value v = parse(R"({"a":[1,{"b":"c"}],"e":{}})");
  EXPECT_EQ(serialize_pretty(v), "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"c\"\n    }\n  ],\n  \"e\": {}\n}");
}

}  // namespace
}  // namespace capstan::json
