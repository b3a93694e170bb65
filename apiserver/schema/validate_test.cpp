#include "apiserver/schema/validate.h"

#include "apiserver/schema/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::schema {
namespace {

using testing::J;
using testing::S;
using testing::V;
using Strings = std::vector<std::string>;

// spec: {<field>: <schema>}
std::string spec_with(std::string_view field, std::string_view field_schema) {
  return R"({"type":"object","properties":{"spec":{"type":"object","properties":{")" + std::string(field) + R"(":)" +
         std::string(field_schema) + "}}}}";
}
std::string obj_with(std::string_view field, std::string_view value) {
  return R"({"spec":{")" + std::string(field) + R"(":)" + std::string(value) + "}}";
}

TEST(SchemaValidate, TypeMismatch) {
  auto causes = validate(J(obj_with("replicas", R"("3")")), *S(spec_with("replicas", R"({"type":"integer"})")));
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].reason, "FieldValueTypeInvalid");
  EXPECT_EQ(causes[0].field, "spec.replicas");
  EXPECT_EQ(causes[0].message, R"(Invalid value: "string": spec.replicas in body must be of type integer: "string")");
  EXPECT_EQ(causes[0].error(), R"(spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string")");

  EXPECT_EQ(V(spec_with("on", R"({"type":"boolean"})"), obj_with("on", "1")),
            Strings{R"(spec.on: Invalid value: "integer": spec.on in body must be of type boolean: "integer")"});
  EXPECT_EQ(V(spec_with("o", R"({"type":"object"})"), obj_with("o", "[]")),
            Strings{R"(spec.o: Invalid value: "array": spec.o in body must be of type object: "array")"});
  EXPECT_EQ(V(spec_with("s", R"({"type":"string"})"), obj_with("s", "{}")),
            Strings{R"(spec.s: Invalid value: "object": spec.s in body must be of type string: "object")"});
}

TEST(SchemaValidate, IntegersAndNumbers) {
  std::string sch = spec_with("n", R"({"type":"integer"})");
  EXPECT_TRUE(V(sch, obj_with("n", "1.0")).empty());  // 1.0 decodes as float64 but is an integer
  EXPECT_TRUE(V(sch, obj_with("n", "9223372036854775807")).empty());
  EXPECT_EQ(V(sch, obj_with("n", "1.5")),
            Strings{R"(spec.n: Invalid value: "number": spec.n in body must be of type integer: "number")"});
  EXPECT_EQ(V(sch, obj_with("n", "1e20")),  // beyond 2^53: not a JSON integer any more
            Strings{R"(spec.n: Invalid value: "number": spec.n in body must be of type integer: "number")"});
  EXPECT_TRUE(V(spec_with("f", R"({"type":"number"})"), obj_with("f", "3")).empty());
  // int32/int64/float/double formats are stripped by apiextensions: ranges are not enforced.
  EXPECT_TRUE(V(spec_with("n", R"({"type":"integer","format":"int32"})"), obj_with("n", "1099511627776")).empty());
}

TEST(SchemaValidate, Required) {
  auto causes = validate(J(R"({"spec":{}})"),
                         *S(R"({"type":"object","properties":{"spec":{"type":"object","required":["secretName","issuerRef"],
                               "properties":{"secretName":{"type":"string"},"issuerRef":{"type":"object"}}}}})"));
  ASSERT_EQ(causes.size(), 2u);
  EXPECT_EQ(causes[0].reason, "FieldValueRequired");
  EXPECT_EQ(causes[0].error(), "spec.secretName: Required value");
  EXPECT_EQ(causes[0].message, "Required value");
  EXPECT_EQ(causes[1].error(), "spec.issuerRef: Required value");
  // Required at the root: the kube-openapi name ".spec" loses its dot.
  EXPECT_EQ(V(R"({"type":"object","required":["spec"],"properties":{"spec":{"type":"object"}}})", "{}"),
            Strings{"spec: Required value"});
}

TEST(SchemaValidate, Enum) {
  std::string sch = spec_with("algorithm", R"({"type":"string","enum":["RSA","ECDSA","Ed25519"]})");
  auto causes = validate(J(obj_with("algorithm", R"("DSA")")), *S(sch));
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].reason, "FieldValueNotSupported");
  EXPECT_EQ(causes[0].error(), R"(spec.algorithm: Unsupported value: "DSA": supported values: "RSA", "ECDSA", "Ed25519")");
  EXPECT_TRUE(V(sch, obj_with("algorithm", R"("RSA")")).empty());
  // Non-string enum values are JSON-marshalled before quoting; numbers compare by value.
  std::string nums = spec_with("n", R"({"type":"integer","enum":[1,2]})");
  EXPECT_EQ(V(nums, obj_with("n", "3")), Strings{R"(spec.n: Unsupported value: 3: supported values: "1", "2")"});
  EXPECT_TRUE(V(nums, obj_with("n", "2")).empty());
  EXPECT_TRUE(V(nums, obj_with("n", "2.0")).empty());
  // A wrong type also fails the enum check (all validators run).
  EXPECT_EQ(V(sch, obj_with("algorithm", "5")),
            (Strings{R"(spec.algorithm: Invalid value: "integer": spec.algorithm in body must be of type string: "integer")",
                     R"(spec.algorithm: Unsupported value: 5: supported values: "RSA", "ECDSA", "Ed25519")"}));
}

TEST(SchemaValidate, Pattern) {
  EXPECT_EQ(V(spec_with("name", R"({"type":"string","pattern":"^[a-z]+$"})"), obj_with("name", R"("Abc")")),
            Strings{R"(spec.name: Invalid value: "Abc": spec.name in body should match '^[a-z]+$')"});
  EXPECT_TRUE(V(spec_with("name", R"({"type":"string","pattern":"^[a-z]+$"})"), obj_with("name", R"("abc")")).empty());
}

TEST(SchemaValidate, MinimumMaximumMultipleOf) {
  EXPECT_EQ(V(spec_with("replicas", R"({"type":"integer","minimum":1})"), obj_with("replicas", "0")),
            Strings{"spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1"});
  EXPECT_EQ(V(spec_with("replicas", R"({"type":"integer","minimum":1,"exclusiveMinimum":true})"), obj_with("replicas", "1")),
            Strings{"spec.replicas: Invalid value: 1: spec.replicas in body should be greater than 1"});
  EXPECT_EQ(V(spec_with("replicas", R"({"type":"integer","maximum":10})"), obj_with("replicas", "11")),
            Strings{"spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10"});
  EXPECT_EQ(V(spec_with("replicas", R"({"type":"integer","maximum":10,"exclusiveMaximum":true})"), obj_with("replicas", "10")),
            Strings{"spec.replicas: Invalid value: 10: spec.replicas in body should be less than 10"});
  EXPECT_EQ(V(spec_with("ratio", R"({"type":"number","maximum":2})"), obj_with("ratio", "2.5")),
            Strings{"spec.ratio: Invalid value: 2.5: spec.ratio in body should be less than or equal to 2"});
  EXPECT_EQ(V(spec_with("ratio", R"({"type":"number","minimum":0.5})"), obj_with("ratio", "0.25")),
            Strings{"spec.ratio: Invalid value: 0.25: spec.ratio in body should be greater than or equal to 0.5"});
  EXPECT_EQ(V(spec_with("port", R"({"type":"integer","multipleOf":5})"), obj_with("port", "7")),
            Strings{"spec.port: Invalid value: 7: spec.port in body should be a multiple of 5"});
  EXPECT_EQ(V(spec_with("f", R"({"type":"number","multipleOf":0.25})"), obj_with("f", "0.3")),
            Strings{"spec.f: Invalid value: 0.3: spec.f in body should be a multiple of 0.25"});
  EXPECT_TRUE(V(spec_with("f", R"({"type":"number","multipleOf":0.25})"), obj_with("f", "0.75")).empty());
  // Order: multipleOf, minimum, maximum.
  EXPECT_EQ(V(spec_with("n", R"({"type":"integer","multipleOf":2,"maximum":0})"), obj_with("n", "3")),
            (Strings{"spec.n: Invalid value: 3: spec.n in body should be a multiple of 2",
                     "spec.n: Invalid value: 3: spec.n in body should be less than or equal to 0"}));
}

TEST(SchemaValidate, StringLengths) {
  auto causes = validate(J(obj_with("name", R"("abcdef")")), *S(spec_with("name", R"({"type":"string","maxLength":5})")));
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].reason, "FieldValueTooLong");
  EXPECT_EQ(causes[0].error(), "spec.name: Too long: may not be more than 5 bytes");
  // maxLength counts code points, as Go's utf8.RuneCountInString does.
  EXPECT_TRUE(V(spec_with("name", R"({"type":"string","maxLength":3})"), obj_with("name", "\"\xC3\xA4\xC3\xB6\xC3\xBC\"")).empty());
  EXPECT_EQ(V(spec_with("name", R"({"type":"string","minLength":3})"), obj_with("name", R"("ab")")),
            Strings{R"(spec.name: Invalid value: "ab": spec.name in body should be at least 3 chars long)"});
  // Only the first string failure is reported (maxLength before pattern).
  EXPECT_EQ(V(spec_with("name", R"({"type":"string","maxLength":2,"pattern":"^[0-9]+$"})"), obj_with("name", R"("abc")")),
            Strings{"spec.name: Too long: may not be more than 2 bytes"});
}

TEST(SchemaValidate, ItemsAndProperties) {
  auto causes = validate(J(obj_with("items", "[1,2,3]")),
                         *S(spec_with("items", R"({"type":"array","maxItems":2,"items":{"type":"integer"}})")));
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].reason, "FieldValueTooMany");
  EXPECT_EQ(causes[0].error(), "spec.items: Too many: 3: must have at most 2 items");
  EXPECT_EQ(V(spec_with("items", R"({"type":"array","minItems":1,"items":{"type":"integer"}})"), obj_with("items", "[]")),
            Strings{"spec.items: Invalid value: 0: spec.items in body should have at least 1 items"});
  EXPECT_EQ(V(spec_with("labels", R"({"type":"object","maxProperties":2,"additionalProperties":{"type":"string"}})"),
              obj_with("labels", R"({"a":"1","b":"2","c":"3"})")),
            Strings{"spec.labels: Too many: 3: must have at most 2 items"});
  EXPECT_EQ(V(spec_with("labels", R"({"type":"object","minProperties":1,"additionalProperties":{"type":"string"}})"),
              obj_with("labels", "{}")),
            Strings{"spec.labels: Invalid value: 0: spec.labels in body should have at least 1 properties"});
}

TEST(SchemaValidate, NestedPathsWithArrayIndices) {
  std::string sch = spec_with("items", R"({"type":"array","items":{"type":"object","required":["name"],
      "properties":{"name":{"type":"string","pattern":"^[a-z]+$"},"ports":{"type":"array","items":{"type":"integer","minimum":1}}}}})");
  EXPECT_EQ(V(sch, obj_with("items", R"([{"name":"a"},{"name":"b","ports":[80,0]},{"ports":[]},{"name":"X"}])")),
            (Strings{"spec.items[1].ports[1]: Invalid value: 0: spec.items[1].ports[1] in body should be greater than or equal to 1",
                     "spec.items[2].name: Required value",
                     R"(spec.items[3].name: Invalid value: "X": spec.items[3].name in body should match '^[a-z]+$')"}));
  // additionalProperties values are addressed as <map>.<key>.
  EXPECT_EQ(V(spec_with("labels", R"({"type":"object","additionalProperties":{"type":"string"}})"), obj_with("labels", R"({"app":1})")),
            Strings{R"(spec.labels.app: Invalid value: "integer": spec.labels.app in body must be of type string: "integer")"});
}

TEST(SchemaValidate, NullAndNullable) {
  std::string arr = spec_with("list", R"({"type":"array","items":{"type":"string"}})");
  EXPECT_EQ(V(arr, obj_with("list", "[null]")),
            Strings{R"(spec.list[0]: Invalid value: "null": spec.list[0] in body must be of type string: "null")"});
  EXPECT_TRUE(V(spec_with("s", R"({"type":"string","nullable":true})"), obj_with("s", "null")).empty());
  EXPECT_TRUE(V(spec_with("s", R"({"type":"string","nullable":true,"minLength":3})"), obj_with("s", "null")).empty());
  // Upstream quirk: null never matches an enum, even on a nullable field.
  EXPECT_EQ(V(spec_with("s", R"({"type":"string","nullable":true,"enum":["a"]})"), obj_with("s", "null")),
            Strings{R"(spec.s: Unsupported value: null: supported values: "a")"});
}

TEST(SchemaValidate, IntOrString) {
  std::string plain = spec_with("port", R"({"x-kubernetes-int-or-string":true})");
  EXPECT_TRUE(V(plain, obj_with("port", "8080")).empty());
  EXPECT_TRUE(V(plain, obj_with("port", R"("http")")).empty());
  EXPECT_EQ(V(plain, obj_with("port", "true")),
            Strings{R"(spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean")"});
  EXPECT_EQ(V(plain, obj_with("port", "1.5")),
            Strings{R"(spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number")"});
  // The usual controller-gen form with anyOf adds the anyOf failure and the best alternative's errors.
  std::string any = spec_with("port", R"({"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true})");
  EXPECT_TRUE(V(any, obj_with("port", "80")).empty());
  EXPECT_EQ(V(any, obj_with("port", "true")),
            (Strings{R"(spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean")",
                     R"(<nil>: Invalid value: "": "spec.port" must validate at least one schema (anyOf))",
                     R"(spec.port: Invalid value: "boolean": spec.port in body must be of type integer: "boolean")"}));
}

TEST(SchemaValidate, LogicalJunctors) {
  std::string one = spec_with("v", R"({"type":"string","oneOf":[{"pattern":"^a"},{"pattern":"b$"}]})");
  EXPECT_TRUE(V(one, obj_with("v", R"("ax")")).empty());
  EXPECT_EQ(V(one, obj_with("v", R"("ab")")),
            Strings{R"(<nil>: Invalid value: "": "spec.v" must validate one and only one schema (oneOf). Found 2 valid alternatives)"});
  EXPECT_EQ(V(one, obj_with("v", R"("x")")),
            (Strings{R"(<nil>: Invalid value: "": "spec.v" must validate one and only one schema (oneOf). Found none valid)",
                     R"(spec.v: Invalid value: "x": spec.v in body should match '^a')"}));
  std::string all = spec_with("v", R"({"type":"string","allOf":[{"minLength":2},{"maxLength":3}]})");
  EXPECT_EQ(V(all, obj_with("v", R"("x")")),
            (Strings{R"(spec.v: Invalid value: "x": spec.v in body should be at least 2 chars long)",
                     R"(<nil>: Invalid value: "": "spec.v" must validate all the schemas (allOf))"}));
  std::string no = spec_with("v", R"({"type":"string","not":{"enum":["forbidden"]}})");
  EXPECT_EQ(V(no, obj_with("v", R"("forbidden")")),
            Strings{R"(<nil>: Invalid value: "": "spec.v" must not validate the schema (not))"});
}

TEST(SchemaValidate, Formats) {
  EXPECT_EQ(V(spec_with("email", R"({"type":"string","format":"email"})"), obj_with("email", R"("foo")")),
            Strings{R"(spec.email: Invalid value: "foo": spec.email in body must be of type email: "foo")"});
  EXPECT_TRUE(V(spec_with("email", R"({"type":"string","format":"email"})"), obj_with("email", R"("a@b.example")")).empty());
  EXPECT_EQ(V(spec_with("t", R"({"type":"string","format":"date-time"})"), obj_with("t", R"("yesterday")")),
            Strings{R"(spec.t: Invalid value: "yesterday": spec.t in body must be of type date-time: "yesterday")"});
  auto causes = validate(J(obj_with("uid", R"("nope")")), *S(spec_with("uid", R"({"type":"string","format":"uuid"})")));
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].reason, "FieldValueTypeInvalid");
  // A non-string value for a string format fails the type validator on the format first.
  EXPECT_EQ(V(spec_with("t", R"({"type":"string","format":"date-time"})"), obj_with("t", "5")),
            Strings{R"(spec.t: Invalid value: "int64": spec.t in body must be of type date-time: "int64")"});
  // Unknown formats are ignored.
  EXPECT_TRUE(V(spec_with("x", R"({"type":"string","format":"my-format"})"), obj_with("x", R"("anything")")).empty());
}

TEST(SchemaValidate, PreserveUnknownFieldsValidatesOnlyDeclaredProperties) {
  std::string sch = R"({"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,
      "properties":{"replicas":{"type":"integer"}}}}})";
  EXPECT_TRUE(V(sch, R"({"spec":{"anything":{"goes":[1,"x"]}}})").empty());
  EXPECT_EQ(V(sch, R"({"spec":{"anything":1,"replicas":"x"}})"),
            Strings{R"(spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string")"});
}

TEST(SchemaValidate, ForbiddenAdditionalProperty) {
  EXPECT_EQ(V(spec_with("x", R"({"type":"object","additionalProperties":false})"), obj_with("x", R"({"foo":1})")),
            Strings{R"(spec.x: Invalid value: "foo": spec.x.foo in body is a forbidden property)"});
}

TEST(SchemaValidate, RootErrorsHaveNilField) {
  auto causes = validate(J("[]"), *S(R"({"type":"object"})"));
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].field, "<nil>");
  EXPECT_EQ(causes[0].error(), R"(<nil>: Invalid value: "array":  in body must be of type object: "array")");
}

TEST(SchemaValidate, MultipleErrorsInPropertyNameOrder) {
  std::string sch = R"({"type":"object","properties":{"spec":{"type":"object","properties":{
      "b":{"type":"string"},"a":{"type":"integer"},"c":{"type":"boolean"}}}}})";
  EXPECT_EQ(V(sch, R"({"spec":{"c":1,"b":2,"a":"x"}})"),
            (Strings{R"(spec.a: Invalid value: "string": spec.a in body must be of type integer: "string")",
                     R"(spec.b: Invalid value: "integer": spec.b in body must be of type string: "integer")",
                     R"(spec.c: Invalid value: "integer": spec.c in body must be of type boolean: "integer")"}));
}

TEST(SchemaValidate, AnyOfReportsTheBestMatchingAlternative) {
  // The alternative that got further (more successful checks) supplies the detail errors.
  std::string sch = spec_with("v", R"({"type":"object","properties":{"kind":{"type":"string"},"a":{"type":"string"},"b":{"type":"integer"}},
      "anyOf":[{"required":["a"]},{"required":["b"],"properties":{"kind":{"enum":["B"]},"b":{"minimum":5}}}]})");
  EXPECT_EQ(V(sch, obj_with("v", R"({"kind":"B","b":1})")),
            (Strings{R"(<nil>: Invalid value: "": "spec.v" must validate at least one schema (anyOf))",
                     "spec.v.b: Invalid value: 1: spec.v.b in body should be greater than or equal to 5"}));
}

TEST(SchemaValidate, ListSetsAndMaps) {
  auto sch = S(R"({"type":"object","properties":{"spec":{"type":"object","properties":{
      "hosts":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
      "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
               "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer"}}}},
      "routes":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["host","path"],
               "items":{"type":"object","required":["host","path"],"properties":{"host":{"type":"string"},"path":{"type":"string"}}}}}}}})");
  auto obj = J(R"({"spec":{"hosts":["a","b","a","a"],"ports":[{"name":"http","port":80},{"name":"http","port":81}],
                   "routes":[{"host":"x","path":"/"},{"host":"x","path":"/"}]}})");
  auto causes = validate_list_sets_and_maps(obj, *sch);
  ASSERT_EQ(causes.size(), 3u);
  EXPECT_EQ(causes[0].reason, "FieldValueDuplicate");
  EXPECT_EQ(causes[0].error(), R"(spec.hosts[2]: Duplicate value: "a")");
  EXPECT_EQ(causes[1].error(), R"(spec.ports[1]: Duplicate value: {"name":"http"})");
  EXPECT_EQ(causes[2].error(), R"(spec.routes[1]: Duplicate value: {"host":"x","path":"/"})");
  EXPECT_TRUE(validate(obj, *sch).empty());
  EXPECT_EQ(validate_custom_resource(obj, *sch).size(), 3u);
}

TEST(SchemaValidate, EmbeddedResources) {
  auto sch = S(R"({"type":"object","properties":{"spec":{"type":"object","properties":{
      "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}})");
  EXPECT_EQ(testing::errors_of(validate_custom_resource(J(R"({"spec":{"template":{"metadata":{}}}})"), *sch)),
            (Strings{"spec.template.apiVersion: Required value", "spec.template.kind: Required value"}));
  EXPECT_EQ(testing::errors_of(validate_custom_resource(J(R"({"spec":{"template":{"apiVersion":"a/b/c","kind":"Bad_Kind"}}})"), *sch)),
            (Strings{R"(spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c)",
                     R"(spec.template.kind: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'))"}));
  EXPECT_TRUE(validate_custom_resource(J(R"({"spec":{"template":{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"b"}}}})"), *sch).empty());
}

}  // namespace
}  // namespace capstan::apiserver::schema
