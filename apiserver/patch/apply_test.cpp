#include "apiserver/patch/apply.h"

#include <gtest/gtest.h>

#include <chrono>

namespace capstan::apiserver::patch {
namespace {

using namespace std::chrono_literals;

json::Value J(std::string_view text) { return json::parse(text, "test literal"); }

meta::TimePoint T(int offset_seconds = 0) {
  return *meta::parse_rfc3339("2026-12-02T14:55:53Z") + std::chrono::seconds(offset_seconds);
}

const json::Value& managed(const json::Value& obj) { return *json::find(obj, {"metadata", "managedFields"}); }

std::string fields_of(const json::Value& obj, std::string_view manager, std::string_view operation = "Apply") {
  const auto* mf = json::find(obj, {"metadata", "managedFields"});
  if (!mf) return "<no managedFields>";
  for (const auto& e : mf->get_array()) {
    if (json::get_string(e, {"manager"}) == manager && json::get_string(e, {"operation"}) == operation) {
      return json::serialize(*json::find(e, {"fieldsV1"}));
    }
  }
  return "<no entry>";
}

// The body kubectl 1.32 sends for `kubectl apply --server-side` of a ConfigMap (req2.log, "apply_ss").
const char* kKubectlApplyBody = R"({"apiVersion":"v1","data":{"k":"v"},"kind":"ConfigMap","metadata":{"name":"demo","namespace":"default"}})";

// A ConfigMap created by `kubectl apply` (client-side): POST with fieldManager=kubectl-client-side-apply (req2.log, "apply").
json::Value client_side_applied_configmap() {
  json::Value created = J(R"({"apiVersion":"v1","data":{"k":"v"},"kind":"ConfigMap","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"data\":{\"k\":\"v\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"demo\",\"namespace\":\"default\"}}\n"},"name":"demo","namespace":"default","uid":"u-1","resourceVersion":"1","creationTimestamp":"2026-12-02T14:55:53Z"}})");
  auto types = builtin_list_types("v1", "ConfigMap");
  set_managed_fields(created, update(nullptr, created, "kubectl-client-side-apply", "Update", "", "v1", T(), *types));
  return created;
}

// ---- create / re-apply ----------------------------------------------------------------------------

TEST(ServerSideApply, CreateWithTheKubectlBody) {
  auto types = builtin_list_types("v1", "ConfigMap");
  ApplyResult r = apply(nullptr, J(kKubectlApplyBody), "kubectl", false, "v1", *types, T());
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(json::serialize(managed(r.object)),
            R"([{"manager":"kubectl","operation":"Apply","apiVersion":"v1","time":"2026-12-02T14:55:53Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:k":{}}}}])");
  EXPECT_EQ(json::get_string(r.object, {"data", "k"}), "v");
  EXPECT_EQ(json::get_string(r.object, {"metadata", "name"}), "demo");
}

TEST(ServerSideApply, ReapplyingWithoutAFieldRemovesIt) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value cfg = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","labels":{"a":"1","b":"2"}},"data":{"k":"v","x":"y"}})");
  json::Value live = apply(nullptr, cfg, "kubectl", false, "v1", *types, T()).object;
  EXPECT_EQ(fields_of(live, "kubectl"), R"({"f:data":{"f:k":{},"f:x":{}},"f:metadata":{"f:labels":{"f:a":{},"f:b":{}}}})");

  json::Value cfg2 = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","labels":{"a":"1"}},"data":{"k":"v2"}})");
  ApplyResult r = apply(&live, cfg2, "kubectl", false, "v1", *types, T(10));
  EXPECT_TRUE(json::deep_equal(r.object.at("data"), J(R"({"k":"v2"})"))) << json::serialize(r.object);
  EXPECT_TRUE(json::deep_equal(*json::find(r.object, {"metadata", "labels"}), J(R"({"a":"1"})")));
  EXPECT_EQ(fields_of(r.object, "kubectl"), R"({"f:data":{"f:k":{}},"f:metadata":{"f:labels":{"f:a":{}}}})");
  EXPECT_EQ(json::get_string(managed(r.object).at(0), {"time"}), "2026-12-02T14:56:03Z");

  // Dropping data altogether removes the whole map.
  json::Value cfg3 = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","labels":{"a":"1"}}})");
  ApplyResult r3 = apply(&r.object, cfg3, "kubectl", false, "v1", *types, T(20));
  EXPECT_EQ(json::find(r3.object, {"data"}), nullptr) << json::serialize(r3.object);
}

TEST(ServerSideApply, NoOpApplyKeepsTheObjectAndTime) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value live = apply(nullptr, J(kKubectlApplyBody), "kubectl", false, "v1", *types, T()).object;
  ApplyResult again = apply(&live, J(kKubectlApplyBody), "kubectl", false, "v1", *types, T(60));
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(json::serialize(again.object), json::serialize(live));
}

TEST(ServerSideApply, TwoAppliersShareAField) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value a = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo"},"data":{"shared":"s","a":"1"}})");
  json::Value b = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo"},"data":{"shared":"s","b":"2"}})");
  json::Value live = apply(nullptr, a, "alice", false, "v1", *types, T()).object;
  live = apply(&live, b, "bob", false, "v1", *types, T(1)).object;
  EXPECT_EQ(fields_of(live, "alice"), R"({"f:data":{"f:a":{},"f:shared":{}}})");
  EXPECT_EQ(fields_of(live, "bob"), R"({"f:data":{"f:b":{},"f:shared":{}}})");

  // alice stops applying "shared": bob still owns it, so it stays.
  live = apply(&live, J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo"},"data":{"a":"1"}})"), "alice", false, "v1", *types, T(2)).object;
  EXPECT_TRUE(json::deep_equal(live.at("data"), J(R"({"shared":"s","a":"1","b":"2"})"))) << json::serialize(live);
  // bob too: now it goes.
  live = apply(&live, J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo"},"data":{"b":"2"}})"), "bob", false, "v1", *types, T(3)).object;
  EXPECT_TRUE(json::deep_equal(live.at("data"), J(R"({"a":"1","b":"2"})"))) << json::serialize(live);

  // A different value for a field the other applier owns is a conflict (no "using" for appliers).
  try {
    apply(&live, J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo"},"data":{"a":"9","b":"2"}})"), "bob", false, "v1", *types, T(4));
    FAIL() << "expected a conflict";
  } catch (const ConflictError& e) {
    EXPECT_STREQ(e.what(), R"(Apply failed with 1 conflict: conflict with "alice": .data.a)");
  }
}

TEST(ServerSideApply, NullInTheConfigurationUnsetsTheField) {
  auto types = builtin_list_types("apps/v1", "Deployment");
  json::Value live = apply(nullptr, J(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":3}})"),
                           "scaler", false, "apps/v1", *types, T()).object;
  live.at("spec").as_object()["paused"] = nullptr;
  json::Value cfg = J(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":null}})");
  // Another manager setting it to null conflicts like any other change.
  EXPECT_THROW(apply(&live, cfg, "other", false, "apps/v1", *types, T(1)), ConflictError);
  ApplyResult r = apply(&live, cfg, "scaler", false, "apps/v1", *types, T(1));
  EXPECT_EQ(json::serialize(r.object.at("spec")), R"({"paused":null})");  // the live null is not the applier's
  EXPECT_EQ(fields_of(r.object, "scaler"), R"({"f:spec":{"f:replicas":{}}})");
}

// ---- conflicts ------------------------------------------------------------------------------------

TEST(ServerSideApply, ConflictWithAnUpdateManager) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value live = client_side_applied_configmap();
  EXPECT_EQ(fields_of(live, "kubectl-client-side-apply", "Update"),
            R"({"f:data":{".":{},"f:k":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}})");
  json::Value cfg = J(R"({"apiVersion":"v1","data":{"k":"other"},"kind":"ConfigMap","metadata":{"name":"demo","namespace":"default"}})");
  try {
    apply(&live, cfg, "myctl", false, "v1", *types, T(5));
    FAIL() << "expected a conflict";
  } catch (const ConflictError& e) {
    EXPECT_STREQ(e.what(), R"(Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.k)");
    ASSERT_EQ(e.conflicts().size(), 1u);
    EXPECT_EQ(e.conflicts()[0].field, ".data.k");
    EXPECT_EQ(json::serialize(e.status()),
              R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using v1: .data.k","reason":"Conflict","details":{"causes":[{"reason":"FieldManagerConflict","message":"conflict with \"kubectl-client-side-apply\" using v1","field":".data.k"}]},"code":409})");
  }
}

TEST(ServerSideApply, SeveralConflictsAreGroupedByManager) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value live = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","uid":"u"},"data":{"a":"1","b":"2","c":"3"}})");
  set_managed_fields(live, update(nullptr, live, "m", "Update", "", "v1", T(), *types));
  json::Value changed = live;
  changed.at("data").as_object()["c"] = "4";
  set_managed_fields(changed, update(&live, changed, "n", "Update", "status", "v1", T(1), *types));
  json::Value cfg = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo"},"data":{"a":"x","b":"y","c":"z"}})");
  try {
    apply(&changed, cfg, "kubectl", false, "v1", *types, T(2));
    FAIL() << "expected conflicts";
  } catch (const ConflictError& e) {
    EXPECT_STREQ(e.what(),
                 "Apply failed with 3 conflicts: conflicts with \"m\" using v1:\n- .data.a\n- .data.b\n"
                 "conflicts with \"n\" with subresource \"status\" using v1:\n- .data.c");
    EXPECT_EQ(e.conflicts().size(), 3u);
  }
  // Two conflicts with one manager: the brief's example shape.
  json::Value cfg2 = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo"},"data":{"a":"x","b":"y"}})");
  try {
    apply(&changed, cfg2, "kubectl", false, "v1", *types, T(2));
    FAIL();
  } catch (const ConflictError& e) {
    EXPECT_STREQ(e.what(), "Apply failed with 2 conflicts: conflicts with \"m\" using v1:\n- .data.a\n- .data.b");
  }
}

TEST(ServerSideApply, ForceTakesOwnership) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value live = client_side_applied_configmap();
  json::Value cfg = J(R"({"apiVersion":"v1","data":{"k":"forced"},"kind":"ConfigMap","metadata":{"name":"demo","namespace":"default"}})");
  ApplyResult r = apply(&live, cfg, "myctl", true, "v1", *types, T(5));
  EXPECT_EQ(json::get_string(r.object, {"data", "k"}), "forced");
  EXPECT_EQ(fields_of(r.object, "myctl"), R"({"f:data":{"f:k":{}}})");
  // The other manager keeps the rest of its fields.
  EXPECT_EQ(fields_of(r.object, "kubectl-client-side-apply", "Update"),
            R"({"f:data":{},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}})");
  // Apply entries come first.
  EXPECT_EQ(json::get_string(managed(r.object).at(0), {"manager"}), "myctl");
  EXPECT_EQ(json::get_string(managed(r.object).at(1), {"manager"}), "kubectl-client-side-apply");
}

TEST(ServerSideApply, ForceWithTheKubectlBodyFromTheLogs) {
  // req3.log "apply_ss_force": fieldManager=myctl&force=true with the same value: no conflict anyway, ownership shared.
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value live = client_side_applied_configmap();
  ApplyResult r = apply(&live, J(kKubectlApplyBody), "myctl", true, "v1", *types, T(5));
  EXPECT_EQ(fields_of(r.object, "myctl"), R"({"f:data":{"f:k":{}}})");
  EXPECT_NE(fields_of(r.object, "kubectl-client-side-apply", "Update").find("\"f:k\""), std::string::npos);
}

// ---- client-side apply, then server-side apply ----------------------------------------------------

TEST(ServerSideApply, AfterAClientSideApplyWithTheSameValues) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value live = client_side_applied_configmap();
  ApplyResult r = apply(&live, J(kKubectlApplyBody), "kubectl", false, "v1", *types, T(5));
  EXPECT_EQ(fields_of(r.object, "kubectl"), R"({"f:data":{"f:k":{}}})");
  EXPECT_NE(fields_of(r.object, "kubectl-client-side-apply", "Update").find("\"f:k\""), std::string::npos);
  // kubectl's server-side apply rewrites the client-side annotation from the configuration.
  EXPECT_EQ(json::get_string(r.object, {"metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration"}),
            "{\"apiVersion\":\"v1\",\"data\":{\"k\":\"v\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"demo\",\"namespace\":\"default\"}}\n");
}

TEST(ServerSideApply, KubectlMayTakeOverFieldsItAppliedClientSide) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value live = client_side_applied_configmap();
  json::Value cfg = J(R"({"apiVersion":"v1","data":{"k":"new"},"kind":"ConfigMap","metadata":{"name":"demo","namespace":"default"}})");
  // As "kubectl" the change of a field recorded in last-applied-configuration is not a conflict...
  ApplyResult r = apply(&live, cfg, "kubectl", false, "v1", *types, T(5));
  EXPECT_EQ(json::get_string(r.object, {"data", "k"}), "new");
  EXPECT_EQ(fields_of(r.object, "kubectl-client-side-apply", "Update").find("\"f:k\""), std::string::npos);
  // ...for any other manager it is.
  EXPECT_THROW(apply(&live, cfg, "someone", false, "v1", *types, T(5)), ConflictError);
}

// ---- lists ----------------------------------------------------------------------------------------

TEST(ServerSideApply, MapListKeyedByName) {
  auto types = builtin_list_types("apps/v1", "Deployment");
  json::Value cfg = J(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
    "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
      "spec":{"containers":[{"name":"app","image":"app:1","ports":[{"containerPort":80}]}]}}}})");
  json::Value live = apply(nullptr, cfg, "deployer", false, "apps/v1", *types, T()).object;
  EXPECT_EQ(fields_of(live, "deployer"),
            R"({"f:spec":{"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}})");

  // A second applier adds a sidecar and an env var to the first container.
  json::Value side = J(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
    "spec":{"template":{"spec":{"containers":[{"name":"app","env":[{"name":"X","value":"1"}]},{"name":"proxy","image":"p:1"}]}}}})");
  live = apply(&live, side, "injector", false, "apps/v1", *types, T(1)).object;
  const json::Value* containers = json::find(live, {"spec", "template", "spec", "containers"});
  ASSERT_TRUE(containers);
  EXPECT_TRUE(json::deep_equal(*containers, J(R"([{"name":"app","image":"app:1","ports":[{"containerPort":80}],"env":[{"name":"X","value":"1"}]},{"name":"proxy","image":"p:1"}])")))
      << json::serialize(*containers);

  // The first applier changes its image: no conflict, the sidecar and env stay.
  cfg.at_pointer("/spec/template/spec/containers/0/image") = "app:2";
  live = apply(&live, cfg, "deployer", false, "apps/v1", *types, T(2)).object;
  containers = json::find(live, {"spec", "template", "spec", "containers"});
  EXPECT_EQ(json::serialize(*containers),
            R"([{"name":"app","image":"app:2","ports":[{"containerPort":80}],"env":[{"name":"X","value":"1"}]},{"name":"proxy","image":"p:1"}])");

  // The injector stops applying: its container and env var go, the shared container stays.
  json::Value none = J(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"}})");
  live = apply(&live, none, "injector", false, "apps/v1", *types, T(3)).object;
  containers = json::find(live, {"spec", "template", "spec", "containers"});
  EXPECT_EQ(json::serialize(*containers), R"([{"name":"app","image":"app:2","ports":[{"containerPort":80}]}])");
  EXPECT_EQ(fields_of(live, "injector"), "<no entry>");

  // Changing the image as another manager conflicts, with the key in the path.
  cfg.at_pointer("/spec/template/spec/containers/0/image") = "app:3";
  try {
    apply(&live, cfg, "other", false, "apps/v1", *types, T(4));
    FAIL();
  } catch (const ConflictError& e) {
    EXPECT_STREQ(e.what(), R"(Apply failed with 1 conflict: conflict with "deployer": .spec.template.spec.containers[name="app"].image)");
  }
}

TEST(ServerSideApply, SetListsLikeFinalizers) {
  auto types = builtin_list_types("v1", "ConfigMap");
  auto cfg = [](const char* finalizers) {
    return J(std::string(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","finalizers":)") + finalizers + "}}");
  };
  json::Value live = apply(nullptr, cfg(R"(["a.example/x"])"), "one", false, "v1", *types, T()).object;
  live = apply(&live, cfg(R"(["b.example/y"])"), "two", false, "v1", *types, T(1)).object;
  EXPECT_EQ(json::serialize(*json::find(live, {"metadata", "finalizers"})), R"(["a.example/x","b.example/y"])");
  EXPECT_EQ(fields_of(live, "one"), R"({"f:metadata":{"f:finalizers":{"v:\"a.example/x\"":{}}}})");
  live = apply(&live, cfg("[]"), "one", false, "v1", *types, T(2)).object;
  EXPECT_EQ(json::serialize(*json::find(live, {"metadata", "finalizers"})), R"(["b.example/y"])");
}

TEST(ServerSideApply, AtomicListsHaveOneOwner) {
  auto types = builtin_list_types("v1", "Pod");
  json::Value a = J(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"tolerations":[{"key":"a"}]}})");
  json::Value live = apply(nullptr, a, "one", false, "v1", *types, T()).object;
  EXPECT_EQ(fields_of(live, "one"), R"({"f:spec":{"f:tolerations":{}}})");
  json::Value b = J(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"tolerations":[{"key":"b"}]}})");
  EXPECT_THROW(apply(&live, b, "two", false, "v1", *types, T(1)), ConflictError);
  ApplyResult forced = apply(&live, b, "two", true, "v1", *types, T(1));
  EXPECT_EQ(json::serialize(*json::find(forced.object, {"spec", "tolerations"})), R"([{"key":"b"}])");
  EXPECT_EQ(fields_of(forced.object, "one"), "<no entry>");
}

TEST(ServerSideApply, CustomResourceWithSchemaListTypes) {
  auto types = schema_list_types(J(R"({"type":"object","properties":{"spec":{"type":"object","properties":{
      "dnsNames":{"type":"array","items":{"type":"string"}},
      "issuers":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","properties":{"name":{"type":"string"},"kind":{"type":"string"}}}}}}}})"));
  json::Value cfg = J(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"c"},
    "spec":{"dnsNames":["a.example"],"issuers":[{"name":"le","kind":"ClusterIssuer"}]}})");
  json::Value live = apply(nullptr, cfg, "kubectl", false, "certs.capstan.dev/v1", *types, T()).object;
  // Objects of a custom resource own their maps' keys (structs) and the elements of map lists.
  EXPECT_EQ(fields_of(live, "kubectl"),
            R"({"f:spec":{"f:dnsNames":{},"f:issuers":{"k:{\"name\":\"le\"}":{".":{},"f:kind":{},"f:name":{}}}}})");
}

// ---- validation -----------------------------------------------------------------------------------

TEST(ServerSideApply, RejectsBadConfigurations) {
  auto types = builtin_list_types("v1", "Service");
  try {
    apply(nullptr, J(R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"s","managedFields":[]}})"), "m", false, "v1", *types, T());
    FAIL();
  } catch (const PatchError& e) {
    EXPECT_EQ(e.code(), 400);
    EXPECT_STREQ(e.what(), "metadata.managedFields must be nil");
  }
  try {
    apply(nullptr, J(R"({"apiVersion":"v2","kind":"Service","metadata":{"name":"s"}})"), "m", false, "v1", *types, T());
    FAIL();
  } catch (const PatchError& e) {
    EXPECT_STREQ(e.what(), "Incorrect version specified in apply patch. Specified patch version: v2, expected: v1");
  }
  try {
    apply(nullptr, J(R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"name":"http"}]}})"), "m", false, "v1", *types, T());
    FAIL();
  } catch (const PatchError& e) {
    EXPECT_EQ(e.code(), 400);
    EXPECT_STREQ(e.what(),
                 "failed to create typed patch object (/v1, Kind=Service): .spec.ports: element 0: associative list with keys has an element that omits key field \"port\" (and doesn't have default value)");
  }
}

TEST(ServerSideApply, UntrackedObjectsGetABeforeFirstApplyManager) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value live = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","uid":"u"},"data":{"old":"1"}})");
  ApplyResult r = apply(&live, J(kKubectlApplyBody), "kubectl", false, "v1", *types, T());
  EXPECT_EQ(fields_of(r.object, "before-first-apply", "Update"), R"({"f:data":{".":{},"f:old":{}}})");
  EXPECT_EQ(json::serialize(r.object.at("data")), R"({"old":"1","k":"v"})");
}

TEST(ServerSideApply, StatusSubresourceEntries) {
  auto types = builtin_list_types("apps/v1", "Deployment");
  json::Value live = J(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":1}})");
  set_managed_fields(live, update(nullptr, live, "kubectl-create", "Update", "", "apps/v1", T(), *types));
  ApplyOptions status;
  status.subresource = "status";
  json::Value cfg = J(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"status":{"conditions":[{"type":"Available","status":"True"}]}})");
  ApplyResult r = apply(&live, cfg, "controller", false, "apps/v1", *types, T(1), status);
  EXPECT_EQ(json::serialize(managed(r.object).at(0)),
            R"({"manager":"controller","operation":"Apply","apiVersion":"apps/v1","time":"2026-12-02T14:55:54Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{"k:{\"type\":\"Available\"}":{".":{},"f:status":{},"f:type":{}}}}},"subresource":"status"})");
}

// ---- update (every non-apply write) ---------------------------------------------------------------

TEST(ManagedFieldsUpdate, CreateOwnsEverythingPresent) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value created = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","namespace":"default","uid":"u","resourceVersion":"1","creationTimestamp":"2026-12-02T14:55:53Z","labels":{"a":"b"}},"data":{"k":"v"}})");
  json::Array mf = update(nullptr, created, "kubectl-create", "Update", "", "v1", T(), *types);
  EXPECT_EQ(json::serialize(mf),
            R"([{"manager":"kubectl-create","operation":"Update","apiVersion":"v1","time":"2026-12-02T14:55:53Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:a":{}}}}}])");
  EXPECT_EQ(json::serialize(update(nullptr, created, "", "Update", "", "v1", T(), *types).at(0).at("manager")), "\"unknown\"");
}

TEST(ManagedFieldsUpdate, ChangedFieldsMoveToTheWriter) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value live = client_side_applied_configmap();
  // `kubectl patch --type merge -p '{"data":{"x":"y"}}'` (req5.log) then a label (kubectl-label).
  json::Value patched = json::apply_merge_patch(live, J(R"({"data":{"x":"y","k":"changed"}})"));
  json::Array mf = update(&live, patched, "kubectl-patch", "Update", "", "v1", T(30), *types);
  set_managed_fields(patched, mf);
  EXPECT_EQ(fields_of(patched, "kubectl-patch", "Update"), R"({"f:data":{"f:k":{},"f:x":{}}})");
  EXPECT_EQ(fields_of(patched, "kubectl-client-side-apply", "Update"),
            R"({"f:data":{},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}})");
  // Entries are sorted by time within an operation.
  EXPECT_EQ(json::get_string(managed(patched).at(0), {"manager"}), "kubectl-client-side-apply");
  EXPECT_EQ(json::get_string(managed(patched).at(1), {"manager"}), "kubectl-patch");

  // The same manager again merges into its entry; removing a field drops it everywhere.
  json::Value again = json::apply_merge_patch(patched, J(R"({"data":{"x":null,"z":"1"}})"));
  set_managed_fields(again, update(&patched, again, "kubectl-patch", "Update", "", "v1", T(40), *types));
  EXPECT_EQ(fields_of(again, "kubectl-patch", "Update"), R"({"f:data":{"f:k":{},"f:z":{}}})");
  EXPECT_EQ(managed(again).as_array().size(), 2u);
  EXPECT_EQ(json::get_string(managed(again).at(1), {"time"}), "2026-12-02T14:56:33Z");

  // A write that changes nothing keeps the entries and their times.
  json::Array same = update(&again, again, "kubectl-patch", "Update", "", "v1", T(50), *types);
  EXPECT_EQ(json::serialize(same), json::serialize(managed(again)));
}

TEST(ManagedFieldsUpdate, RequestManagedFieldsReplaceOrReset) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value live = client_side_applied_configmap();
  json::Value put = live;
  put.at("data").as_object()["k"] = "w";
  // A PUT carrying [{}] or [] resets the tracking, which strips managedFields from an existing object.
  json::Value reset = put;
  reset.at("metadata").as_object()["managedFields"] = J("[{}]");
  EXPECT_TRUE(update(&live, reset, "kubectl-replace", "Update", "", "v1", T(1), *types).empty());
  json::Value empty = put;
  empty.at("metadata").as_object()["managedFields"] = json::Array{};
  EXPECT_TRUE(update(&live, empty, "kubectl-replace", "Update", "", "v1", T(1), *types).empty());
  // On create a reset still tracks the creator.
  EXPECT_EQ(update(nullptr, reset, "kubectl-create", "Update", "", "v1", T(1), *types).size(), 1u);
  // Valid managedFields in the request replace the live ones...
  json::Value mine = put;
  mine.at("metadata").as_object()["managedFields"] =
      J(R"([{"manager":"someone","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:k":{}}}}])");
  json::Array replaced = update(&live, mine, "kubectl-replace", "Update", "", "v1", T(1), *types);
  ASSERT_EQ(replaced.size(), 1u);
  EXPECT_EQ(json::get_string(replaced[0], {"manager"}), "kubectl-replace");  // "someone" lost its only field
  // ...but not on a subresource, and malformed ones fall back to the live ones.
  EXPECT_EQ(update(&live, mine, "kubectl-replace", "Update", "status", "v1", T(1), *types).size(), 2u);
  json::Value bad = put;
  bad.at("metadata").as_object()["managedFields"] = J(R"([{"manager":"x","operation":"Frob","apiVersion":"v1","fieldsType":"FieldsV1"}])");
  EXPECT_EQ(update(&live, bad, "kubectl-replace", "Update", "", "v1", T(1), *types).size(), 2u);
}

TEST(ManagedFieldsUpdate, UntrackedObjectsStayUntracked) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value live = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","uid":"u"},"data":{"a":"1"}})");
  json::Value changed = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","uid":"u"},"data":{"a":"2"}})");
  EXPECT_TRUE(update(&live, changed, "m", "Update", "", "v1", T(), *types).empty());
  json::Value obj = changed;
  set_managed_fields(obj, {});
  EXPECT_EQ(json::find(obj, {"metadata", "managedFields"}), nullptr);
}

TEST(ManagedFieldsUpdate, StatusWritesAndApiVersionsAreSeparateEntries) {
  auto types = builtin_list_types("apps/v1", "Deployment");
  json::Value d = J(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","uid":"u"},"spec":{"replicas":1}})");
  set_managed_fields(d, update(nullptr, d, "kube-controller-manager", "Update", "", "apps/v1", T(), *types));
  json::Value s = d;
  s.as_object()["status"] = J(R"({"replicas":1})");
  set_managed_fields(s, update(&d, s, "kube-controller-manager", "Update", "status", "apps/v1", T(1), *types));
  ASSERT_EQ(managed(s).as_array().size(), 2u);
  EXPECT_EQ(json::serialize(managed(s).at(1)),
            R"({"manager":"kube-controller-manager","operation":"Update","apiVersion":"apps/v1","time":"2026-12-02T14:55:54Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{".":{},"f:replicas":{}}},"subresource":"status"})");
}

TEST(ManagedFieldsUpdate, IgnoredFieldsAreNotTracked) {
  auto types = builtin_list_types("apps/v1", "Deployment");
  FieldSet status;
  status.insert({PathElement::field("status")});
  UpdateOptions opts;
  opts.ignored = &status;
  json::Value d = J(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":1},"status":{"replicas":1}})");
  json::Array mf = update(nullptr, d, "m", "Update", "", "apps/v1", T(), *types, opts);
  EXPECT_EQ(json::serialize(mf.at(0).at("fieldsV1")), R"({"f:spec":{".":{},"f:replicas":{}}})");
}

TEST(ManagedFieldsUpdate, OldUpdateEntriesAreCapped) {
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value obj = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","uid":"u"},"data":{}})");
  set_managed_fields(obj, update(nullptr, obj, "creator", "Update", "", "v1", T(), *types));
  for (int i = 0; i < 12; ++i) {
    json::Value next = obj;
    next.at("data").as_object()["k" + std::to_string(i)] = "v";
    set_managed_fields(next, update(&obj, next, "writer-" + std::to_string(i), "Update", "", "v1", T(i + 1), *types));
    obj = std::move(next);
  }
  const auto& entries = managed(obj).as_array();
  EXPECT_EQ(entries.size(), 10u);
  std::size_t ancient = 0;
  for (const auto& e : entries) {
    if (json::get_string(e, {"manager"}) == "ancient-changes") {
      ++ancient;
      EXPECT_NE(json::serialize(e.at("fieldsV1")).find("f:k0"), std::string::npos);
    }
  }
  EXPECT_EQ(ancient, 1u);
}

TEST(ManagedFieldsUpdate, DecodeAndEncodeEntries) {
  json::Value mf = J(R"([
    {"manager":"b","operation":"Update","apiVersion":"v1","time":"2026-12-02T14:55:55Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:x":{}}}},
    {"manager":"a","operation":"Update","apiVersion":"v1","time":"2026-12-02T14:55:55Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:y":{}}}},
    {"manager":"z","operation":"Apply","apiVersion":"v1","time":"2026-12-02T14:59:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:z":{}}}},
    {"manager":"e","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{}}])");
  auto entries = decode_managed_fields(&mf);
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].identifier(), R"({"manager":"b","operation":"Update","apiVersion":"v1"})");
  EXPECT_EQ(entries[2].identifier(), R"({"manager":"z","operation":"Apply"})");
  EXPECT_EQ(entries[2].describe(), "\"z\"");
  EXPECT_EQ(entries[0].describe(), "\"b\" using v1");
  json::Array out = encode_managed_fields(entries);
  ASSERT_EQ(out.size(), 3u);  // the empty entry is dropped
  EXPECT_EQ(json::get_string(out[0], {"manager"}), "z");
  EXPECT_EQ(json::get_string(out[1], {"manager"}), "a");
  EXPECT_EQ(json::get_string(out[2], {"manager"}), "b");
  auto decode_error = [](const char* text) {
    json::Value v = J(text);
    try {
      decode_managed_fields(&v);
    } catch (const PatchError& e) {
      return std::string(e.what());
    }
    return std::string("<no error>");
  };
  EXPECT_EQ(decode_error(R"([{"manager":"a","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","time":"yesterday"}])"),
            "metadata.managedFields[0].time: invalid time \"yesterday\"");
  EXPECT_EQ(decode_error(R"([{}])"), "operation must be `Apply` or `Update`");
  EXPECT_EQ(decode_error(R"([{"operation":"Apply"}])"), "apiVersion must not be empty");
  EXPECT_EQ(decode_error(R"([{"operation":"Apply","apiVersion":"v1"}])"), "missing fieldsType in managed fields entry 0");
  EXPECT_EQ(decode_error(R"([{"operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV2"}])"),
            "invalid fieldsType \"FieldsV2\" in managed fields entry 0");
}

}  // namespace
}  // namespace capstan::apiserver::patch
