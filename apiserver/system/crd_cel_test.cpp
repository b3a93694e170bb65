// x-kubernetes-validations through the Service, as a client sees them: a CRD whose rule is outside
// the CEL subset is accepted with a Warning; custom resources are refused (422) by failing rules
// with kube-apiserver's causes; transition rules run on update; unchanged invalid values ratchet.
#include "apiserver/rest/api_error.h"
#include "apiserver/system/crd_controller.h"
#include "apiserver/system/test_env.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::system {
namespace {

using testing::Env;
using testing::eventually;

const char* kCrd = R"J({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"things.cel.example.com"},
 "spec":{"group":"cel.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},
  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
   "spec":{"type":"object",
    "x-kubernetes-validations":[{"rule":"self.replicas <= self.size","message":"replicas must not exceed size","fieldPath":".replicas"},
                                {"rule":"self.memory.isQuantity()"}],
    "properties":{"replicas":{"type":"integer","minimum":0},"size":{"type":"integer","maximum":10},"memory":{"type":"string"},
                  "mode":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"mode is immutable"}]}}}}}}}]}})J";

class CrdCelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    env.create_namespace("cel");
    crds.start();
    rest::WriteOptions o;
    o.field_manager = "test";
    env.service.create(env.target("customresourcedefinitions.apiextensions.k8s.io", ""), json::parse(kCrd), o);
    crd_warnings = o.warnings;
    ASSERT_TRUE(eventually([&] { return env.registry.find_group_resource("things.cel.example.com") != nullptr; }));
  }
  void TearDown() override { crds.stop(); }

  static json::Value thing(const std::string& name, const std::string& spec) {
    return json::parse(R"({"apiVersion":"cel.example.com/v1","kind":"Thing","metadata":{"name":")" + name + R"("},"spec":)" + spec + "}");
  }
  // The 422's causes as "reason field: message", or "" when the write succeeded.
  std::string write(const std::function<void(rest::WriteOptions&)>& f, std::vector<std::string>* warnings = nullptr) {
    rest::WriteOptions o;
    o.field_manager = "test";
    try {
      f(o);
      if (warnings) *warnings = o.warnings;
      return "";
    } catch (const ApiError& e) {
      std::string out = std::to_string(e.code) + " " + e.what();
      if (const auto* causes = e.details.if_contains("causes")) {
        for (const auto& c : causes->get_array())
          out += "\n" + std::string(json::get_string(c, {"reason"})) + " " + std::string(json::get_string(c, {"field"})) + ": " +
                 std::string(json::get_string(c, {"message"}));
      }
      return out;
    }
  }
  std::string create(const std::string& name, const std::string& spec) {
    return write([&](rest::WriteOptions& o) { env.service.create(env.target("things.cel.example.com", "cel"), thing(name, spec), o); });
  }
  std::string merge(const std::string& name, const std::string& patch, std::vector<std::string>* warnings = nullptr) {
    return write([&](rest::WriteOptions& o) {
      env.service.patch(env.target("things.cel.example.com", "cel", name), rest::PatchType::Merge, patch, false, o);
    }, warnings);
  }

  Env env;
  CrdController crds{env.service};
  std::vector<std::string> crd_warnings;
};

TEST_F(CrdCelTest, UnsupportedRulesAreAcceptedWithAWarning) {
  ASSERT_EQ(crd_warnings.size(), 1u);
  EXPECT_EQ(crd_warnings[0],
            "CustomResourceDefinition \"things.cel.example.com\": spec.versions[0].schema.openAPIV3Schema.properties[spec]."
            "x-kubernetes-validations[1]: rule \"self.memory.isQuantity()\" is not evaluated by the embedded API server: "
            "function 'isQuantity' is not supported by this CEL implementation");
}

TEST_F(CrdCelTest, FailingRulesRefuseTheObject) {
  EXPECT_EQ(create("ok", R"({"replicas":1,"size":2,"memory":"x"})"), "");
  EXPECT_EQ(create("bad", R"({"replicas":3,"size":2})"),
            "422 Thing.cel.example.com \"bad\" is invalid: spec.replicas: Invalid value: replicas must not exceed size"
            "\nFieldValueInvalid spec.replicas: Invalid value: replicas must not exceed size");
}

TEST_F(CrdCelTest, RulesRunBesideNonBlockingSchemaErrors) {
  // A maximum violation does not block the rules (kube reports both); a type error does.
  EXPECT_EQ(create("m", R"({"replicas":20,"size":11})"),
            "422 Thing.cel.example.com \"m\" is invalid: [spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10, "
            "spec.replicas: Invalid value: replicas must not exceed size]"
            "\nFieldValueInvalid spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10"
            "\nFieldValueInvalid spec.replicas: Invalid value: replicas must not exceed size");
  std::string typed = create("t", R"({"replicas":"many","size":1})");
  EXPECT_NE(typed.find("FieldValueTypeInvalid spec.replicas"), std::string::npos) << typed;
  EXPECT_NE(typed.find("<nil>: Invalid value: null: some validation rules were not checked"), std::string::npos) << typed;
}

TEST_F(CrdCelTest, TransitionRulesAndRatcheting) {
  EXPECT_EQ(create("t", R"({"replicas":1,"size":2,"mode":"a"})"), "");
  EXPECT_EQ(merge("t", R"({"spec":{"mode":"b"}})"),
            "422 Thing.cel.example.com \"t\" is invalid: spec.mode: Invalid value: \"b\": mode is immutable"
            "\nFieldValueInvalid spec.mode: Invalid value: \"b\": mode is immutable");
  EXPECT_EQ(merge("t", R"({"spec":{"size":3}})"), "");
  // An object stored before the rule applied (written straight to the store) keeps updating
  // where its invalid part is unchanged: the failure becomes a warning.
  env.store.update("things.cel.example.com", "cel", "t", [](const storage::Object& cur) -> std::optional<json::Value> {
    json::Value v = *cur.value;
    v.as_object()["spec"].as_object()["replicas"] = 9;
    return v;
  });
  std::vector<std::string> warnings;
  EXPECT_EQ(merge("t", R"({"metadata":{"labels":{"a":"b"}}})", &warnings), "");
  EXPECT_EQ(warnings, std::vector<std::string>{"spec.replicas: Invalid value: replicas must not exceed size"});
}

}  // namespace
}  // namespace capstan::apiserver::system
