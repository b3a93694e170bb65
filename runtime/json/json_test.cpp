#include "runtime/json/json.h"
#include "runtime/json/utf8.h"

#include <gtest/gtest.h>

#include <limits>

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

namespace capstan::json {
namespace {

TEST(Json, ReadsFromAnObjectDoNotGoThroughATemporary) {
  Value v = parse(R"({"c":{"t":"2026-12-02T16:39:51Z","n":4}})");
  const Object& c = v.at("c").as_object();
  std::string_view t = get_string(c, {"t"});
  EXPECT_EQ(static_cast<const void*>(t.data()), static_cast<const void*>(c.at("t").as_string().data()))
      << "the view must point into the object itself";
  EXPECT_EQ(get_int(c, {"n"}).value(), 4);
  EXPECT_EQ(find(c, {"missing"}), nullptr);
}

TEST(Json, DeepDocumentsParse) {
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "{\"a\":";
  deep += "1";
  for (int i = 0; i < 200; ++i) deep += "}";
  EXPECT_NO_THROW(parse(deep, "deep schema"));
}

// Found by runtime/json/fuzz/json_fuzz.cpp: Boost.JSON 1.81 read this number as a neighbour of
// the nearest double, so the value changed when serialised and read again.
TEST(Json, LongNumbersRoundTripExactly) {
  Value v = parse("[-92239012345012345678901234567890,0.1,123456789012345678901234567890e-10]");
  EXPECT_EQ(parse(serialize(v)), v);
  EXPECT_EQ(v.at(0).as_double(), -92239012345012345678901234567890.0);
  EXPECT_EQ(v.at(2).as_double(), 12345678901234567890.1234567890);
}

// Found by fuzzing: 1e400 became infinity, serialised as `Infinity` (not JSON), so one such
// object made every list and watch carrying it unreadable. Refused as Go refuses it; numbers
// below the double range become 0 as in Go.
TEST(Json, NumbersBeyondTheDoubleRangeAreRefused) {
  EXPECT_THROW(parse(R"({"spec":{"replicas":1e400}})"), ParseError);
  EXPECT_FALSE(try_parse("-1e999"));
  try {
    parse("[1E400]", "Deployment default/web");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "parsing Deployment default/web: exponent overflow");
  }
  EXPECT_EQ(parse("1e-400").as_double(), 0.0);
}

// Found by fuzzing (acme_fuzz: a problem document's "status": 3e26): get_int converted a double
// beyond int64 (undefined behaviour) and returned a uint64 above INT64_MAX as a negative number.
TEST(Json, GetIntOnlyReturnsWhatFits) {
  Value v = parse(R"({"a":3e26,"b":18446744073709551615,"c":9223372036854775807,"d":-9.223372036854775808e18,
                     "e":9.223372036854775807e18,"f":2.5,"g":1e3,"h":-1})");
  EXPECT_EQ(get_int(v, {"a"}), std::nullopt);
  EXPECT_EQ(get_int(v, {"b"}), std::nullopt);
  EXPECT_EQ(get_int(v, {"c"}), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(get_int(v, {"d"}), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(get_int(v, {"e"}), std::nullopt);  // rounds to 2^63
  EXPECT_EQ(get_int(v, {"f"}), std::nullopt);
  EXPECT_EQ(get_int(v, {"g"}), 1000);
  EXPECT_EQ(get_int(v.as_object(), {"h"}), -1);
}

TEST(Utf8, ValidAsGoSeesIt) {
  EXPECT_TRUE(valid_utf8(""));
  EXPECT_TRUE(valid_utf8("plain ascii"));
  EXPECT_TRUE(valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));  // é € 😀
  EXPECT_FALSE(valid_utf8("\xC3"));                                            // truncated
  EXPECT_FALSE(valid_utf8("\xC0\xAF"));                                        // overlong '/'
  EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));                                   // a surrogate
  EXPECT_FALSE(valid_utf8("\xF4\x90\x80\x80"));                               // above U+10FFFF
  EXPECT_FALSE(valid_utf8("\x89PNG"));                                         // binary
  std::string all;
  for (char32_t cp : {0x24u, 0x7FFu, 0xFFFFu, 0x10FFFFu}) append_utf8(all, cp);
  EXPECT_TRUE(valid_utf8(all));
}

}  // namespace
}  // namespace capstan::json
