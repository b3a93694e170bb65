#include "apiserver/schema/parse.h"

#include "apiserver/schema/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::schema {
namespace {

using testing::J;
using testing::parse_errors;
using Strings = std::vector<std::string>;

const std::string P = "spec.versions[0].schema.openAPIV3Schema";

TEST(SchemaParse, BuildsTheModel) {
  auto r = parse(J(R"({"type":"object","properties":{"spec":{"type":"object","required":["a"],
      "properties":{"a":{"type":"string","format":"int32","pattern":"^x","maxLength":3,"enum":["x"],"default":"x"},
                    "m":{"type":"object","additionalProperties":{"type":"integer"}},
                    "l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
                         "items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"}}}},
                    "p":{"x-kubernetes-int-or-string":true}}}}})"));
  ASSERT_TRUE(r.ok()) << testing::errors_of(r.errors).front();
  const Schema* spec = r.schema->property("spec");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->required, Strings{"a"});
  const Schema* a = spec->property("a");
  EXPECT_EQ(a->type, "string");
  EXPECT_EQ(a->format, "int32");
  EXPECT_EQ(a->effective_format, "");  // stripped like apiextensions does
  EXPECT_EQ(*a->max_length, 3);
  EXPECT_TRUE(a->pattern_re.has_value());
  EXPECT_EQ(a->enum_values.size(), 1u);
  EXPECT_EQ(*a->default_value, json::Value("x"));
  EXPECT_EQ(spec->property("m")->additional_properties.schema->type, "integer");
  EXPECT_EQ(*spec->property("l")->x_list_type, "map");
  EXPECT_TRUE(spec->property("p")->x_int_or_string);
  EXPECT_EQ(spec->member("nope"), nullptr);
}

TEST(SchemaParse, MissingTypesAreRejected) {
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"spec":{"properties":{"a":{"type":"string"}}}}})"),
            Strings{P + ".properties[spec].type: Required value: must not be empty for specified object fields"});
  EXPECT_EQ(parse_errors(R"({"properties":{"spec":{"type":"object"}}})"),
            Strings{P + ".type: Required value: must not be empty at the root"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"l":{"type":"array","items":{}}}})"),
            Strings{P + ".properties[l].items.type: Required value: must not be empty for specified array items"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"l":{"type":"array"}}})"),
            Strings{P + ".properties[l].items: Required value: must be specified"});
  EXPECT_EQ(parse_errors(R"({"type":"string"})"), Strings{P + ".type: Invalid value: \"string\": must be object at the root"});
  // preserve-unknown-fields and int-or-string nodes may omit the type.
  EXPECT_TRUE(parse_errors(R"({"type":"object","properties":{"x":{"x-kubernetes-preserve-unknown-fields":true},
                                                             "y":{"x-kubernetes-int-or-string":true}}})").empty());
}

TEST(SchemaParse, StructuralErrorsAreSortedAndListedTogether) {
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"b":{},"a":{"type":"array"}}})"),
            (Strings{P + ".properties[a].items: Required value: must be specified",
                     P + ".properties[b].type: Required value: must not be empty for specified object fields"}));
}

TEST(SchemaParse, UnsupportedKeywords) {
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"l":{"type":"array","uniqueItems":true,"items":{"type":"string"}}}})"),
            Strings{P + ".properties[l].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"m":{"type":"object","properties":{"a":{"type":"string"}},
                                                                  "additionalProperties":{"type":"string"}}}})"),
            Strings{P + ".properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"r":{"type":"object","$ref":"#/definitions/x"}}})"),
            Strings{P + ".properties[r].$ref: Forbidden: $ref is not supported"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"n":{"type":"null"}}})"),
            (Strings{P + ".properties[n].type: Unsupported value: \"null\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\"",
                     P + ".properties[n].type: Forbidden: type cannot be set to null, use nullable as an alternative"}));
  EXPECT_EQ(parse_errors(R"({"type":"object","additionalProperties":{"type":"string"}})"),
            Strings{P + ".additionalProperties: Forbidden: must not be used at the root"});
  EXPECT_EQ(parse_errors(R"({"type":"object","nullable":true})"),
            Strings{P + ".nullable: Forbidden: nullable cannot be true at the root"});
}

TEST(SchemaParse, ValueValidationsMustNotCarryStructure) {
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"x":{"type":"string","anyOf":[{"type":"string","description":"d"},{"pattern":"^a"}]}}})"),
            (Strings{P + ".properties[x].anyOf[0].description: Forbidden: must be empty to be structural",
                     P + ".properties[x].anyOf[0].type: Forbidden: must be empty to be structural"}));
  EXPECT_EQ(parse_errors(R"({"type":"object","anyOf":[{"properties":{"foo":{"type":"string"}}}],"properties":{"bar":{"type":"string"}}})"),
            (Strings{P + ".anyOf[0].properties[foo].type: Forbidden: must be empty to be structural",
                     P + ".properties[foo]: Required value: because it is defined in " + P + ".anyOf[0].properties[foo]"}));
  // The int-or-string anyOf pattern is allowed.
  EXPECT_TRUE(parse_errors(R"({"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true,
                                 "anyOf":[{"type":"integer"},{"type":"string"}]}}})").empty());
}

TEST(SchemaParse, InvalidPattern) {
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"p":{"type":"string","pattern":"(a"}}})"),
            Strings{P + ".properties[p].pattern: Invalid value: \"(a\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(a`"});
}

TEST(SchemaParse, MetadataRestrictions) {
  EXPECT_TRUE(parse_errors(R"({"type":"object","properties":{"metadata":{"type":"object",
                                 "properties":{"name":{"type":"string","maxLength":20}}}}})").empty());
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"metadata":{"type":"object","properties":{"labels":{"type":"object"}}}}})"),
            Strings{P + ".properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"metadata":{"type":"object","default":{}}}})"),
            Strings{P + ".properties[metadata].default: Forbidden: must not be set in top-level metadata"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"kind":{"type":"integer"}}})"),
            Strings{P + ".properties[kind].type: Invalid value: \"integer\": must be string"});
}

TEST(SchemaParse, Extensions) {
  EXPECT_EQ(parse_errors(R"({"type":"object","x-kubernetes-preserve-unknown-fields":false})"),
            Strings{P + ".x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map",
                               "items":{"type":"object","properties":{"k":{"type":"string"}}}}}})"),
            Strings{P + ".properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
                               "items":{"type":"object","properties":{"k":{"type":"string"}}}}}})"),
            Strings{P + ".properties[l].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["z"],
                               "items":{"type":"object","properties":{"k":{"type":"string"}}}}}})"),
            Strings{P + ".properties[l].x-kubernetes-list-map-keys: Invalid value: [\"z\"]: entries must all be names of item properties"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"bag","items":{"type":"string"}}}})"),
            Strings{P + ".properties[l].x-kubernetes-list-type: Unsupported value: \"bag\": supported values: \"atomic\", \"set\", \"map\""});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true}}})"),
            Strings{P + ".properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"x":{"type":"object","x-kubernetes-map-type":"atomic"},
                                                             "y":{"type":"string","x-kubernetes-map-type":"atomic"}}})"),
            Strings{P + ".properties[y].type: Invalid value: \"string\": must be object if x-kubernetes-map-type is specified"});
}

TEST(SchemaParse, DefaultsMustValidateAndBePruned) {
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer","default":"x"}}}}})"),
            Strings{P + ".properties[spec].properties[replicas].default: Invalid value: \"string\":  in body must be of type integer: \"string\""});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"spec":{"type":"object","default":{"extra":1},"properties":{"a":{"type":"string"}}}}})"),
            Strings{P + ".properties[spec].default: Invalid value: {\"extra\":1}: must not have unknown fields"});
  EXPECT_EQ(parse_errors(R"({"type":"object","properties":{"spec":{"type":"object","default":{"a":"toolong"},"properties":{"a":{"type":"string","maxLength":3}}}}})"),
            Strings{P + ".properties[spec].default.a: Too long: may not be more than 3 bytes"});
  EXPECT_TRUE(parse_errors(R"({"type":"object","properties":{"spec":{"type":"object","default":{"a":"ok"},"properties":{"a":{"type":"string","maxLength":3}}}}})").empty());
}

TEST(SchemaParse, CustomPathAndThrowingVariant) {
  ParseOptions o;
  o.path = "spec.validation.openAPIV3Schema";
  EXPECT_EQ(parse_errors(R"({"properties":{}})", o), Strings{"spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root"});
  EXPECT_THROW(parse_or_throw(J(R"({"properties":{}})")), std::invalid_argument);
}

TEST(SchemaParse, MalformedKeywords) {
  auto errs = parse_errors(R"({"type":"object","properties":{"a":{"type":"string","maxLength":"3"}}})");
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0], P + ".properties[a].maxLength: Invalid value: \"3\": must be of type integer, not string");
}

}  // namespace
}  // namespace capstan::apiserver::schema
