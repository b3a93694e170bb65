// x-kubernetes-validations on custom resources: compilation when the schema is parsed, and the
// causes kube-apiserver reports (texts as apiextensions' cel/validation.go renders them).
#include "apiserver/schema/schema.h"

#include "apiserver/schema/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::schema {
namespace {

using testing::J;
using testing::S;
using Strings = std::vector<std::string>;

// The differential suite's Gadget schema, plus rules on scalars, lists and maps.
const char* kSchema = R"J({
  "type": "object",
  "properties": {
    "spec": {
      "type": "object",
      "x-kubernetes-validations": [
        {"rule": "self.replicas <= self.size", "message": "replicas must not exceed size", "fieldPath": ".replicas"}
      ],
      "properties": {
        "replicas": {"type": "integer", "minimum": 0, "maximum": 10},
        "size": {"type": "integer"},
        "name": {"type": "string", "x-kubernetes-validations": [{"rule": "self.startsWith('g')"}]},
        "ratio": {"type": "number", "x-kubernetes-validations": [{"rule": "self < 1.0", "reason": "FieldValueForbidden", "message": "too big"}]},
        "mode": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "mode is immutable"}]},
        "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                  "items": {"type": "object", "required": ["name"],
                            "properties": {"name": {"type": "string"}, "port": {"type": "integer"}},
                            "x-kubernetes-validations": [{"rule": "self.port > 0", "messageExpression": "'port ' + string(self.port) + ' must be positive'"},
                                                         {"rule": "!has(oldSelf.port) || self.port >= oldSelf.port", "message": "ports only grow"}]}},
        "labels": {"type": "object", "additionalProperties": {"type": "string", "x-kubernetes-validations": [{"rule": "self.size() <= 3", "reason": "FieldValueDuplicate"}]}},
        "x-y": {"type": "string"},
        "missing": {"type": "object", "properties": {"a": {"type": "string"}}, "x-kubernetes-validations": [{"rule": "self.b == 1"}]}
      }
    }
  }
})J";

Strings run(std::string_view obj, std::string_view old = {}, Strings* warnings = nullptr) {
  auto s = S(kSchema);
  json::Value o = J(obj);
  std::optional<json::Value> prev;
  if (!old.empty()) prev = J(old);
  auto out = validate_rules(o, prev ? &*prev : nullptr, *s);
  if (warnings) *warnings = out.warnings;
  return testing::errors_of(out.errors);
}

TEST(CelRules, CrossFieldRuleOnAnObjectOmitsTheValue) {
  EXPECT_EQ(run(R"J({"spec":{"replicas":2,"size":5}})J"), Strings{});
  EXPECT_EQ(run(R"J({"spec":{"replicas":5,"size":2}})J"), Strings{"spec.replicas: Invalid value: replicas must not exceed size"});
  auto s = S(kSchema);
  auto out = validate_rules(J(R"J({"spec":{"replicas":5,"size":2}})J"), nullptr, *s);
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].reason, "FieldValueInvalid");
  EXPECT_EQ(out.errors[0].field, "spec.replicas");
  EXPECT_EQ(out.errors[0].message, "Invalid value: replicas must not exceed size");
}

TEST(CelRules, ScalarNodesPrintTheValueAndDefaultMessage) {
  EXPECT_EQ(run(R"J({"spec":{"replicas":1,"size":1,"name":"web"}})J"),
            Strings{"spec.name: Invalid value: \"web\": failed rule: self.startsWith('g')"});
}

TEST(CelRules, Reasons) {
  EXPECT_EQ(run(R"J({"spec":{"replicas":1,"size":1,"ratio":2}})J"), Strings{"spec.ratio: Forbidden: too big"});
  EXPECT_EQ(run(R"J({"spec":{"replicas":1,"size":1,"labels":{"a":"long"}}})J"), Strings{"spec.labels[a]: Duplicate value: \"long\""});
}

TEST(CelRules, NumberFieldsAreDoublesEvenWhenWrittenAsIntegers) {
  // `self < 1.0` on an int would be fine too (heterogeneous); 0 must become 0.0 either way.
  EXPECT_EQ(run(R"J({"spec":{"replicas":1,"size":1,"ratio":0}})J"), Strings{});
}

TEST(CelRules, EvaluationErrorsNameTheRule) {
  EXPECT_EQ(run(R"J({"spec":{"replicas":1,"size":1,"missing":{"a":"x"}}})J"),
            Strings{"spec.missing: Invalid value: \"object\": no such key: b evaluating rule: self.b == 1"});
  EXPECT_EQ(run(R"J({"spec":{"replicas":1}})J"),
            Strings{"spec: Invalid value: \"object\": no such key: size evaluating rule: replicas must not exceed size"});
}

TEST(CelRules, MessageExpression) {
  EXPECT_EQ(run(R"J({"spec":{"replicas":1,"size":1,"ports":[{"name":"a","port":-1}]}})J"),
            Strings{"spec.ports[0]: Invalid value: port -1 must be positive"});
}

TEST(CelRules, TransitionRulesRunOnlyWithAnOldValue) {
  EXPECT_EQ(run(R"J({"spec":{"replicas":1,"size":1,"mode":"a"}})J"), Strings{});
  EXPECT_EQ(run(R"J({"spec":{"replicas":1,"size":1,"mode":"b"}})J", R"J({"spec":{"replicas":1,"size":1,"mode":"a"}})J"),
            Strings{"spec.mode: Invalid value: \"b\": mode is immutable"});
  EXPECT_EQ(run(R"J({"spec":{"replicas":1,"size":1,"mode":"b"}})J", R"J({"spec":{"replicas":1,"size":1}})J"), Strings{});
  // list-type=map items correlate by key: port "a" shrank, "b" is new.
  EXPECT_EQ(run(R"J({"spec":{"replicas":1,"size":1,"ports":[{"name":"b","port":1},{"name":"a","port":5}]}})J",
                R"J({"spec":{"replicas":1,"size":1,"ports":[{"name":"a","port":8}]}})J"),
            Strings{"spec.ports[1]: Invalid value: ports only grow"});
}

TEST(CelRules, UnchangedValuesAreRatchetedToWarnings) {
  Strings warnings;
  // The old object already broke the rule and spec did not change: a warning, not an error.
  EXPECT_EQ(run(R"J({"metadata":{"labels":{"x":"1"}},"spec":{"replicas":5,"size":2}})J", R"J({"spec":{"replicas":5,"size":2}})J", &warnings), Strings{});
  EXPECT_EQ(warnings, Strings{"spec.replicas: Invalid value: replicas must not exceed size"});
  EXPECT_EQ(run(R"J({"spec":{"replicas":6,"size":2}})J", R"J({"spec":{"replicas":5,"size":2}})J", &warnings),
            Strings{"spec.replicas: Invalid value: replicas must not exceed size"});
}

TEST(CelRules, EscapedPropertyNamesAndResourceRoot) {
  auto s = S(R"J({"type":"object","x-kubernetes-validations":[
      {"rule":"self.metadata.name.startsWith('g') && self.kind == 'Gadget' && !has(self.metadata.namespace)"},
      {"rule":"self.spec.x__dash__y == 'ok'"}],
    "properties":{"spec":{"type":"object","properties":{"x-y":{"type":"string"}}}}})J");
  auto out = validate_rules(J(R"J({"apiVersion":"v1","kind":"Gadget","metadata":{"name":"g1","namespace":"ns"},"spec":{"x-y":"ok"}})J"), nullptr, *s);
  EXPECT_EQ(testing::errors_of(out.errors), Strings{});
}

TEST(CelRules, UnsupportedRulesAreReportedNotEvaluated) {
  auto res = parse(J(R"J({"type":"object","properties":{"spec":{"type":"object",
      "x-kubernetes-validations":[{"rule":"self.q.isQuantity()"},{"rule":"self.a == 1","messageExpression":"self.a.format([])"}],
      "properties":{"q":{"type":"string"},"a":{"type":"integer"}}}}})J"));
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(res.not_evaluated,
            Strings({"spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]: rule \"self.q.isQuantity()\" "
                     "is not evaluated by the embedded API server: function 'isQuantity' is not supported by this CEL implementation",
                     "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[1]: messageExpression "
                     "\"self.a.format([])\" is not evaluated by the embedded API server: function 'format' is not supported by this "
                     "CEL implementation"}));
  // The unsupported rule is skipped; the supported one runs (and falls back to the default message).
  auto out = validate_rules(J(R"J({"spec":{"q":"1Gi","a":2}})J"), nullptr, *res.schema);
  EXPECT_EQ(testing::errors_of(out.errors), Strings{"spec: Invalid value: failed rule: self.a == 1"});
}

TEST(CelRules, BlockingErrors) {
  EXPECT_TRUE(has_blocking_error({validation::field_type_invalid(validation::FieldPath("spec"), json::Value("x"), "bad")}));
  EXPECT_TRUE(has_blocking_error({validation::field_required(validation::FieldPath("spec"))}));
  EXPECT_FALSE(has_blocking_error({validation::field_invalid(validation::FieldPath("spec"), json::Value(0), "should be greater than or equal to 1")}));
}

TEST(CelRules, FieldPaths) {
  auto s = S(R"J({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}},
                 "m":{"type":"object","additionalProperties":{"type":"string"}}}})J");
  std::string err;
  EXPECT_EQ(normalize_field_path(".a.b", *s, &err).value_or("?"), "a.b");
  EXPECT_EQ(normalize_field_path(".m['k.x']", *s, &err).value_or("?"), "m[k.x]");
  EXPECT_EQ(normalize_field_path("['a']", *s, &err).value_or("?"), "a");
  EXPECT_FALSE(normalize_field_path(".c", *s, &err));
  EXPECT_EQ(err, "does not refer to a valid field");
}

TEST(CelRules, CostBudgetStopsFurtherRules) {
  auto s = S(R"J({"type":"object","properties":{"spec":{"type":"object","properties":{"l":{"type":"array","items":{"type":"integer"}}},
     "x-kubernetes-validations":[{"rule":"self.l.all(a, self.l.all(b, self.l.all(c, true)))"}, {"rule":"false"}]}}})J");
  json::Array l;
  for (int i = 0; i < 200; ++i) l.push_back(i);
  json::Value obj = json::Object{{"spec", json::Object{{"l", l}}}};
  auto out = validate_rules(obj, nullptr, *s);
  EXPECT_EQ(testing::errors_of(out.errors),
            Strings{"spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules "
                    "will be run due to call cost exceeds limit for rule: self.l.all(a, self.l.all(b, self.l.all(c, true)))"});
}

}  // namespace
}  // namespace capstan::apiserver::schema
