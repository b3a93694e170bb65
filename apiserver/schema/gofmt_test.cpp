#include "apiserver/schema/gofmt.h"

#include "runtime/json/json.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::schema::gofmt {
namespace {

TEST(SchemaGoFmt, QuoteLikeStrconv) {
  EXPECT_EQ(quote("abc"), "\"abc\"");
  EXPECT_EQ(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(quote("tab\there\nnl"), "\"tab\\there\\nnl\"");
  EXPECT_EQ(quote(std::string("\x01\x7f", 2)), "\"\\x01\\x7f\"");
  EXPECT_EQ(quote("h\xC3\xA9llo"), "\"h\xC3\xA9llo\"");  // printable UTF-8 kept
  EXPECT_EQ(quote("\xE2\x80\xA8"), "\"\\u2028\"");
  EXPECT_EQ(quote("\xff"), "\"\\xff\"");
}

TEST(SchemaGoFmt, FloatsLikePercentV) {
  EXPECT_EQ(format_float(1), "1");
  EXPECT_EQ(format_float(0.5), "0.5");
  EXPECT_EQ(format_float(-2.25), "-2.25");
  EXPECT_EQ(format_float(100000), "100000");
  EXPECT_EQ(format_float(1e6), "1e+06");
  EXPECT_EQ(format_float(1234567), "1.234567e+06");
  EXPECT_EQ(format_float(0.0001), "0.0001");
  EXPECT_EQ(format_float(0.00001), "1e-05");
  EXPECT_EQ(format_float(1e21), "1e+21");
  EXPECT_EQ(format_float(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(format_float(0), "0");
}

TEST(SchemaGoFmt, SharpVOfInterfaceValues) {
  EXPECT_EQ(sharp_v(json::parse(R"({"name":"http","b":1})")), R"(map[string]interface {}{"b":1, "name":"http"})");
  EXPECT_EQ(sharp_v(json::parse(R"(["a",1,1.5,true,null])")), R"([]interface {}{"a", 1, 1.5, true, interface {}(nil)})");
  EXPECT_EQ(sharp_v(json::parse(R"({})")), "map[string]interface {}{}");
}

TEST(SchemaGoFmt, JsonMarshalLikeEncodingJson) {
  EXPECT_EQ(json_marshal(json::parse(R"({"b":1,"a":[1.5,"<x>"]})")), R"({"a":[1.5,"\u003cx\u003e"],"b":1})");
  EXPECT_EQ(json_marshal(json::Value(1e21)), "1e+21");
  EXPECT_EQ(json_marshal(json::Value(1e-7)), "1e-7");
  EXPECT_EQ(json_marshal(json::Value(123456789.0)), "123456789");
  EXPECT_EQ(json_marshal(json::Value(3.0)), "3");
  EXPECT_EQ(json_marshal(json::Value()), "null");
}

}  // namespace
}  // namespace capstan::apiserver::schema::gofmt
