#include "apiserver/schema/defaults.h"

#include "apiserver/schema/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::schema {
namespace {

using testing::J;
using testing::S;

std::string defaulted(std::string_view schema, std::string_view obj) {
  json::Value v = J(obj);
  auto s = S(schema);
  prune_non_nullable_nulls_without_defaults(v, *s);
  apply_defaults(v, *s);
  return json::serialize(v);
}

TEST(SchemaDefaults, AbsentPropertiesGetDefaultsPresentOnesAreKept) {
  const char* sch = R"({"type":"object","properties":{"spec":{"type":"object","properties":{
      "replicas":{"type":"integer","default":1},"mode":{"type":"string","default":"fast"}}}}})";
  EXPECT_EQ(defaulted(sch, R"({"spec":{}})"), R"({"spec":{"mode":"fast","replicas":1}})");
  EXPECT_EQ(defaulted(sch, R"({"spec":{"replicas":3,"mode":""}})"), R"({"spec":{"replicas":3,"mode":""}})");
  EXPECT_EQ(defaulted(sch, R"({})"), R"({})");  // spec itself has no default: nothing to descend into
}

TEST(SchemaDefaults, NestedObjectDefaultsApplyInsideDefaultedValues) {
  const char* sch = R"({"type":"object","properties":{"spec":{"type":"object","default":{},"properties":{
      "tls":{"type":"object","default":{"enabled":true},"properties":{"enabled":{"type":"boolean"},
                                                                         "port":{"type":"integer","default":443}}}}}}})";
  EXPECT_EQ(defaulted(sch, R"({})"), R"({"spec":{"tls":{"enabled":true,"port":443}}})");
  EXPECT_EQ(defaulted(sch, R"({"spec":{"tls":{"enabled":false}}})"), R"({"spec":{"tls":{"enabled":false,"port":443}}})");
}

TEST(SchemaDefaults, ArrayItemsAndAdditionalProperties) {
  const char* sch = R"({"type":"object","properties":{
      "ports":{"type":"array","items":{"type":"object","properties":{"protocol":{"type":"string","default":"TCP"},"port":{"type":"integer"}}}},
      "names":{"type":"array","items":{"type":"string","default":"unnamed"}},
      "limits":{"type":"object","additionalProperties":{"type":"object","properties":{"max":{"type":"integer","default":10}}}}}})";
  EXPECT_EQ(defaulted(sch, R"({"ports":[{"port":80},{"port":53,"protocol":"UDP"}],"names":["a",null],"limits":{"cpu":{},"mem":{"max":1}}})"),
            R"({"ports":[{"port":80,"protocol":"TCP"},{"port":53,"protocol":"UDP"}],"names":["a","unnamed"],"limits":{"cpu":{"max":10},"mem":{"max":1}}})");
}

TEST(SchemaDefaults, NullsFollowNullability) {
  const char* sch = R"({"type":"object","properties":{
      "a":{"type":"string","default":"x"},
      "b":{"type":"string","nullable":true,"default":"y"},
      "c":{"type":"string"},
      "d":{"type":"string","nullable":true}}})";
  // a: non-nullable null with default -> defaulted; b: nullable null kept; c: non-nullable null
  // without default -> pruned; d: nullable null kept.
  EXPECT_EQ(defaulted(sch, R"({"a":null,"b":null,"c":null,"d":null})"), R"({"a":"x","b":null,"d":null})");
}

TEST(SchemaDefaults, DefaultsAreDeepCopies) {
  auto s = S(R"({"type":"object","properties":{"x":{"type":"object","default":{"k":[1]},"properties":{"k":{"type":"array","items":{"type":"integer"}}}}}})");
  json::Value a = J("{}"), b = J("{}");
  apply_defaults(a, *s);
  a.get_object()["x"].get_object()["k"].get_array().push_back(2);
  apply_defaults(b, *s);
  EXPECT_EQ(json::serialize(b), R"({"x":{"k":[1]}})");
}

}  // namespace
}  // namespace capstan::apiserver::schema
