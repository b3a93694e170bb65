#include "runtime/gofmt/gofmt.h"
#include "runtime/gofmt/json_syntax.h"

#include "runtime/json/json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace capstan::gofmt {
namespace {

json::Value J(std::string_view text) { return json::parse(text, "test literal"); }

TEST(GoFmt, QuoteLikeStrconv) {
  EXPECT_EQ(quote("abc"), "\"abc\"");
  EXPECT_EQ(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(quote("a\"b\n"), "\"a\\\"b\\n\"");
  EXPECT_EQ(quote("tab\there\nnl"), "\"tab\\there\\nnl\"");
  EXPECT_EQ(quote("\a\b\f\r\v"), "\"\\a\\b\\f\\r\\v\"");
  EXPECT_EQ(quote(std::string("\x01\x7f", 2)), "\"\\x01\\x7f\"");
  EXPECT_EQ(quote(std::string("a\0b", 3)), "\"a\\x00b\"");
  EXPECT_EQ(quote("h\xC3\xA9llo"), "\"h\xC3\xA9llo\"");  // printable UTF-8 kept
  EXPECT_EQ(quote("\xF0\x9F\x98\x80"), "\"\xF0\x9F\x98\x80\"");
  EXPECT_EQ(quote("\xEF\xBF\xBD"), "\"\xEF\xBF\xBD\"");  // a real U+FFFD is printable
  EXPECT_EQ(quote("\xE2\x80\xA8"), "\"\\u2028\"");
  EXPECT_EQ(quote("\xC2\x85"), "\"\\u0085\"");           // C1 control
  EXPECT_EQ(quote("a\xC2\xA0" "b"), "\"a\\u00a0b\"");   // only the ASCII space is printable
  EXPECT_EQ(quote("\xEF\xBB\xBF" "x"), "\"\\ufeffx\"");  // BOM (Cf)
  EXPECT_EQ(quote("\xF3\xB0\x80\x80"), "\"\\U000f0000\"");  // plane-15 private use
  EXPECT_EQ(quote("\xff"), "\"\\xff\"");
  EXPECT_EQ(quote("\xE2\x80"), "\"\\xe2\\x80\"");         // truncated sequence: byte by byte
  EXPECT_EQ(quote("\xED\xA0\x80"), "\"\\xed\\xa0\\x80\"");  // surrogate
  EXPECT_EQ(quote("\xC0\xAF"), "\"\\xc0\\xaf\"");          // overlong
}

TEST(GoFmt, FloatsLikePercentV) {
  EXPECT_EQ(format_float(1), "1");
  EXPECT_EQ(format_float(1.5), "1.5");
  EXPECT_EQ(format_float(0.5), "0.5");
  EXPECT_EQ(format_float(-2.25), "-2.25");
  EXPECT_EQ(format_float(100000), "100000");
  EXPECT_EQ(format_float(123456), "123456");
  EXPECT_EQ(format_float(1e6), "1e+06");
  EXPECT_EQ(format_float(1234567), "1.234567e+06");
  EXPECT_EQ(format_float(0.0001), "0.0001");
  EXPECT_EQ(format_float(0.00001), "1e-05");
  EXPECT_EQ(format_float(1e21), "1e+21");
  EXPECT_EQ(format_float(1e100), "1e+100");
  EXPECT_EQ(format_float(5e-324), "5e-324");
  EXPECT_EQ(format_float(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(format_float(0), "0");
  EXPECT_EQ(format_float(-0.0), "-0");
  EXPECT_EQ(format_float(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(format_float(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(format_float(std::nan("")), "NaN");
}

TEST(GoFmt, PercentVOfDecodedValues) {
  // kube-apiserver decodes with PreserveInts: integers are int64 and print in full.
  EXPECT_EQ(format_v(J(R"({"b":[1,"x"],"a":1000000,"c":null,"d":0.5})")), "map[a:1000000 b:[1 x] c:<nil> d:0.5]");
  // Plain encoding/json holds every number as float64.
  EXPECT_EQ(format_v(J(R"({"b":[1,"x"],"a":1000000,"c":null,"d":0.5})"), Numbers::kFloat64),
            "map[a:1e+06 b:[1 x] c:<nil> d:0.5]");
  EXPECT_EQ(format_v(J("null")), "<nil>");
  EXPECT_EQ(format_v(J("12")), "12");
  EXPECT_EQ(format_v(J("1.0")), "1");
  EXPECT_EQ(format_v(J("2e6")), "2e+06");
  EXPECT_EQ(format_v(J("true")), "true");
  EXPECT_EQ(format_v(J(R"("a b")")), "a b");
  EXPECT_EQ(format_v(J("18446744073709551615")), "1.8446744073709552e+19");  // beyond int64: float64
  EXPECT_EQ(format_v(J(R"([{"z":{},"a":[]},[]])")), "[map[a:[] z:map[]] []]");
}

TEST(GoFmt, SharpVOfInterfaceValues) {
  EXPECT_EQ(sharp_v(J(R"({"name":"http","b":1})")), R"(map[string]interface {}{"b":1, "name":"http"})");
  EXPECT_EQ(sharp_v(J(R"(["a",1,1.5,true,null])")), R"([]interface {}{"a", 1, 1.5, true, interface {}(nil)})");
  EXPECT_EQ(sharp_v(J(R"({})")), "map[string]interface {}{}");
  EXPECT_EQ(sharp_v(J("null")), "<nil>");
  EXPECT_EQ(sharp_v(J(R"({"a\n":[1000000,{"x":"\"q\""}]})")),
            R"(map[string]interface {}{"a\n":[]interface {}{1000000, map[string]interface {}{"x":"\"q\""}}})");
  EXPECT_EQ(sharp_v(J("[1000000]"), Numbers::kFloat64), "[]interface {}{1e+06}");
}

TEST(GoFmt, TypeNames) {
  EXPECT_EQ(type_name(J("{}")), "map[string]interface {}");
  EXPECT_EQ(type_name(J("[]")), "[]interface {}");
  EXPECT_EQ(type_name(J(R"("x")")), "string");
  EXPECT_EQ(type_name(J("true")), "bool");
  EXPECT_EQ(type_name(J("null")), "<nil>");
  EXPECT_EQ(type_name(J("1")), "int64");
  EXPECT_EQ(type_name(J("1.5")), "float64");
  EXPECT_EQ(type_name(J("18446744073709551615")), "float64");
  EXPECT_EQ(type_name(J("1"), Numbers::kFloat64), "float64");
}

TEST(GoFmt, JsonMarshalLikeEncodingJson) {
  EXPECT_EQ(json_marshal(J(R"({"b":1,"a":[1.5,"<x>"]})")), R"({"a":[1.5,"\u003cx\u003e"],"b":1})");
  EXPECT_EQ(json_marshal(J(R"({"b":1,"a":[1.5,2.0,1e21,1e-7],"c":"<&>"})")),
            R"({"a":[1.5,2,1e+21,1e-7],"b":1,"c":"\u003c\u0026\u003e"})");
  EXPECT_EQ(json_marshal(J(R"({"b":"<&>","a":[1,2.5,1e21,true,null]})")),
            R"({"a":[1,2.5,1e+21,true,null],"b":"\u003c\u0026\u003e"})");
  EXPECT_EQ(json_marshal(json::Value(1e21)), "1e+21");
  EXPECT_EQ(json_marshal(json::Value(1e-7)), "1e-7");
  EXPECT_EQ(json_marshal(json::Value(1.5e-10)), "1.5e-10");
  EXPECT_EQ(json_marshal(json::Value(0.000001)), "0.000001");
  EXPECT_EQ(json_marshal(json::Value(123456789.0)), "123456789");
  EXPECT_EQ(json_marshal(json::Value(1e20)), "100000000000000000000");
  EXPECT_EQ(json_marshal(json::Value(3.0)), "3");
  EXPECT_EQ(json_marshal(json::Value(-0.0)), "-0");
  EXPECT_EQ(json_marshal(json::Value()), "null");
  EXPECT_EQ(json_marshal(J("9007199254740993")), "9007199254740993");  // int64 stays exact
  EXPECT_EQ(json_marshal(J("9007199254740993"), Numbers::kFloat64), "9007199254740992");
  EXPECT_EQ(json_marshal(J("18446744073709551615")), "18446744073709552000");  // float64 in Go
}

TEST(GoFmt, JsonMarshalStrings) {
  EXPECT_EQ(json_marshal(J(R"("tab\tnl\n\u0001")")), R"("tab\tnl\n\u0001")");
  EXPECT_EQ(json_marshal(J(R"("\b\f\r\"\\/\u001f\u007f")")), "\"\\b\\f\\r\\\"\\\\/\\u001f\x7f\"");
  EXPECT_EQ(json_marshal(json::Value("h\xC3\xA9 \xE2\x80\xA8\xE2\x80\xA9")), R"("hé \u2028\u2029")");
  EXPECT_EQ(json_marshal(json::Value("a\xff" "b\xE2\x80")), R"("a\ufffdb\ufffd\ufffd")");
  EXPECT_EQ(json_marshal(J(R"({"<k>":1})")), R"({"\u003ck\u003e":1})");
}

}  // namespace
// encoding/json's scanner messages and sigs.k8s.io/json's duplicate field paths.
TEST(JsonScan, SyntaxErrorsAreGosAndDuplicatesAreNamedByPath) {
  auto err = [](std::string_view t) { return scan_json(t).syntax_error.value_or("ok"); };
  EXPECT_EQ(err(R"({"apiVersion":"v1",)"), "unexpected end of JSON input");
  EXPECT_EQ(err("not-a-token"), "invalid character 'o' in literal null (expecting 'u')");
  EXPECT_EQ(err("{\"a\" 1}"), "invalid character '1' after object key");
  EXPECT_EQ(err("{\"a\":1 \"b\":2}"), "invalid character '\"' after object key:value pair");
  EXPECT_EQ(err("[1 2]"), "invalid character '2' after array element");
  EXPECT_EQ(err("{1:2}"), "invalid character '1' looking for beginning of object key string");
  EXPECT_EQ(err("{\"a\":x}"), "invalid character 'x' looking for beginning of value");
  EXPECT_EQ(err("\"a\nb\""), "invalid character '\\n' in string literal");
  EXPECT_EQ(err("\"\\q\""), "invalid character 'q' in string escape code");
  EXPECT_EQ(err("-x"), "invalid character 'x' in numeric literal");
  EXPECT_EQ(err("1.e3"), "invalid character 'e' after decimal point in numeric literal");
  EXPECT_EQ(err("{} x"), "invalid character 'x' after top-level value");
  EXPECT_EQ(err(""), "unexpected end of JSON input");
  EXPECT_EQ(err(std::string(10001, '[')), "invalid character '[' exceeded max depth");
  EXPECT_EQ(err(R"({"a":[1,{"b":true}],"c":null})"), "ok");
  auto dup = scan_json(R"({"metadata":{"name":"a","name":"b"},"spec":{"c":[{"x":1,"x":2}]},"k":1,"k":2})");
  EXPECT_EQ(dup.duplicates, (std::vector<std::string>{"metadata.name", "spec.c[0].x", "k"}));
  auto later = scan_json(R"([[], {}, [1, {"a": [0, 0, {"b": 1, "b": 2}]}]])");
  EXPECT_EQ(later.duplicates, (std::vector<std::string>{"[2][1].a[2].b"}));
  EXPECT_EQ(err("[1,]"), "invalid character ']' looking for beginning of value");
  EXPECT_EQ(err("{\"a\":1,}"), "invalid character '}' looking for beginning of object key string");
}

// 10,000 levels (Go's limit) are read with the scanner's own stack: no C++ recursion, so it
// also passes under AddressSanitizer's larger frames.
TEST(JsonScan, TheDeepestDocumentGoAllowsNamesItsDuplicates) {
  std::string doc;
  for (int i = 0; i < 9999; ++i) doc += "[";
  doc += R"({"x":1,"x":2})";
  for (int i = 0; i < 9999; ++i) doc += "]";
  auto deep = scan_json(doc);
  EXPECT_FALSE(deep.syntax_error) << *deep.syntax_error;
  ASSERT_EQ(deep.duplicates.size(), 1u);
  EXPECT_EQ(deep.duplicates[0].size(), 9999 * 3 + 2) << "[0] per level, then .x";
}

}  // namespace capstan::gofmt
