#include "apiserver/patch/strategic.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::patch {
namespace {

json::Value J(std::string_view text) { return json::parse(text, "test literal"); }

// The MergeItem type of apimachinery's strategicpatch tests: mergingList / retainKeysMergingList merge
// by name, mergingIntList merges as a set, everything else is replaced; at any depth.
class MergeItemTypes : public ListTypes {
 public:
  ListType at(const FieldPath& path) const override {
    if (path.empty()) return {};
    const std::string& last = path.back();
    if (last == "mergingList" || last == "mergeItemPtr") return ListType::map({"name"}, "name");
    if (last == "retainKeysMergingList") return ListType::map({"name"}, "name", true);
    if (last == "mergingIntList") return ListType::set(true);
    return {};
  }
};

void expect_patch(std::string_view original, std::string_view patch, std::string_view expected, const ListTypes& types) {
  json::Value result = apply_strategic_merge_patch(J(original), J(patch), types);
  EXPECT_TRUE(json::deep_equal(result, J(expected))) << "patch:    " << patch << "\nresult:   " << json::serialize(result)
                                                     << "\nexpected: " << expected;
}

std::string patch_error(std::string_view original, std::string_view patch, const ListTypes& types, int* code = nullptr) {
  try {
    apply_strategic_merge_patch(J(original), J(patch), types);
  } catch (const PatchError& e) {
    if (code) *code = e.code();
    return e.what();
  }
  return "<no error>";
}

// ---- exactly what kubectl 1.32 sends --------------------------------------------------------------

TEST(StrategicMergePatchKubectl, ClientSideApplyOfAConfigMap) {
  // req5.log, "apply_existing": PATCH .../configmaps/demo, application/strategic-merge-patch+json.
  const char* body =
      R"({"data":{"k":"v"},"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"data\":{\"k\":\"v\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"demo\",\"namespace\":\"default\"}}\n"}}})";
  json::Value live = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","namespace":"default","uid":"u1","resourceVersion":"2"},"data":{"k":"old","other":"x"}})");
  auto types = builtin_list_types("v1", "ConfigMap");
  json::Value result = apply_strategic_merge_patch(live, J(body), *types);
  EXPECT_EQ(json::get_string(result, {"data", "k"}), "v");
  EXPECT_EQ(json::get_string(result, {"data", "other"}), "x");
  EXPECT_EQ(json::get_string(result, {"metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration"}),
            "{\"apiVersion\":\"v1\",\"data\":{\"k\":\"v\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"demo\",\"namespace\":\"default\"}}\n");
  EXPECT_EQ(json::get_string(result, {"metadata", "uid"}), "u1");
}

TEST(StrategicMergePatchKubectl, ClientSideApplyOfADeploymentWithSetElementOrder) {
  auto types = builtin_list_types("apps/v1", "Deployment");
  json::Value live = J(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
    "spec":{"replicas":1,"template":{"spec":{"containers":[
      {"name":"app","image":"app:1","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"terminationMessagePath":"/dev/termination-log"},
      {"name":"sidecar","image":"side:1"}]}}}})");
  // kubectl apply after changing the image, dropping env B, adding env C and a port: the three-way patch.
  const char* patch = R"({"spec":{"replicas":3,"template":{"spec":{"$setElementOrder/containers":[{"name":"app"},{"name":"sidecar"}],
    "containers":[{"$setElementOrder/env":[{"name":"A"},{"name":"C"}],"env":[{"name":"C","value":"3"},{"$patch":"delete","name":"B"}],
                   "image":"app:2","name":"app","ports":[{"containerPort":8080}]}]}}}})";
  json::Value result = apply_strategic_merge_patch(live, J(patch), *types);
  json::Value expected = J(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
    "spec":{"replicas":3,"template":{"spec":{"containers":[
      {"name":"app","image":"app:2","env":[{"name":"A","value":"1"},{"name":"C","value":"3"}],"terminationMessagePath":"/dev/termination-log","ports":[{"containerPort":8080}]},
      {"name":"sidecar","image":"side:1"}]}}}})");
  EXPECT_TRUE(json::deep_equal(result, expected)) << json::serialize(result);
  // The list order follows $setElementOrder.
  EXPECT_EQ(json::serialize(result.at_pointer("/spec/template/spec/containers/0/env")),
            R"([{"name":"A","value":"1"},{"name":"C","value":"3"}])");
}

TEST(StrategicMergePatchKubectl, RetainKeysOnAVolume) {
  auto types = builtin_list_types("apps/v1", "Deployment");
  json::Value live = J(R"({"spec":{"template":{"spec":{"volumes":[{"name":"data","emptyDir":{}}]}}}})");
  // Switching a volume's source: kubectl sends $retainKeys so the old source is dropped.
  expect_patch(json::serialize(live),
               R"({"spec":{"template":{"spec":{"$setElementOrder/volumes":[{"name":"data"}],"volumes":[{"$retainKeys":["name","persistentVolumeClaim"],"name":"data","persistentVolumeClaim":{"claimName":"c"},"emptyDir":null}]}}}})",
               R"({"spec":{"template":{"spec":{"volumes":[{"name":"data","persistentVolumeClaim":{"claimName":"c"}}]}}}})", *types);
  // Deployment strategy Recreate: rollingUpdate goes.
  expect_patch(R"({"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%"}}}})",
               R"({"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}})", R"({"spec":{"strategy":{"type":"Recreate"}}})", *types);
}

TEST(StrategicMergePatchKubectl, FinalizersMergeAsASet) {
  auto types = builtin_list_types("v1", "ConfigMap");
  expect_patch(R"({"metadata":{"finalizers":["a","b"]}})", R"({"metadata":{"finalizers":["b","c"]}})",
               R"({"metadata":{"finalizers":["a","b","c"]}})", *types);
  expect_patch(R"({"metadata":{"finalizers":["a","b","c"]}})", R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}})",
               R"({"metadata":{"finalizers":["a","c"]}})", *types);
}

TEST(StrategicMergePatchKubectl, NewContainerWithoutOrderGoesFirst) {
  // Upstream mergeSortedSlice puts patch items not found in the live list before the live items.
  auto types = builtin_list_types("v1", "Pod");
  expect_patch(R"({"spec":{"containers":[{"name":"app","image":"a"}]}})", R"({"spec":{"containers":[{"name":"proxy","image":"p"}]}})",
               R"({"spec":{"containers":[{"name":"proxy","image":"p"},{"name":"app","image":"a"}]}})", *types);
  // Replace-strategy lists are replaced.
  expect_patch(R"({"spec":{"tolerations":[{"key":"a"}]}})", R"({"spec":{"tolerations":[{"key":"b"}]}})",
               R"({"spec":{"tolerations":[{"key":"b"}]}})", *types);
}

// ---- apimachinery's strategicpatch test cases -----------------------------------------------------

TEST(StrategicMergePatchUpstream, CustomCases) {
  MergeItemTypes t;
  struct Case {
    const char* description;
    const char* original;
    const char* patch;
    const char* modified;
  } cases[] = {
      {"unique scalars when merging lists", R"({"mergingIntList":[1,2]})", R"({"mergingIntList":[2,3]})", R"({"mergingIntList":[1,2,3]})"},
      {"delete map from nested map", R"({"simpleMap":{"key1":1,"key2":1}})", R"({"simpleMap":{"$patch":"delete"}})", R"({"simpleMap":{}})"},
      {"delete all items from merging list", R"({"mergingList":[{"name":"1"},{"name":"2"}]})", R"({"mergingList":[{"$patch":"replace"}]})",
       R"({"mergingList":[]})"},
      {"merge empty merging lists", R"({"mergingList":[]})", R"({"mergingList":[]})", R"({"mergingList":[]})"},
      {"delete all keys from map", R"({"name":1,"value":1})", R"({"$patch":"replace"})", R"({})"},
      {"add key and delete all keys from map", R"({"name":1,"value":1})", R"({"other":"a","$patch":"replace"})", R"({"other":"a"})"},
      {"delete all duplicate entries in a merging list",
       R"({"mergingList":[{"name":"1"},{"name":"1"},{"name":"2","value":"a"},{"name":"3"},{"name":"3"}]})",
       R"({"mergingList":[{"name":"1","$patch":"delete"},{"name":"3","$patch":"delete"}]})", R"({"mergingList":[{"name":"2","value":"a"}]})"},
      {"retainKeys map can add a field when no retainKeys directive present", R"({"retainKeysMap":{"name":"foo"}})",
       R"({"retainKeysMap":{"value":"bar"}})", R"({"retainKeysMap":{"name":"foo","value":"bar"}})"},
      {"retainKeys map can delete a field when no retainKeys directive present", R"({"retainKeysMap":{"name":"foo","value":"a"}})",
       R"({"retainKeysMap":{"value":null}})", R"({"retainKeysMap":{"name":"foo"}})"},
      {"retainKeys map merge an empty map", R"({"retainKeysMap":{"name":"foo","value":"a"}})", R"({"retainKeysMap":{}})",
       R"({"retainKeysMap":{"name":"foo","value":"a"}})"},
      {"retainKeys list can change a field when no retainKeys directive present",
       R"({"retainKeysMergingList":[{"name":"bar"},{"name":"foo","value":"a"}]})", R"({"retainKeysMergingList":[{"name":"foo","value":"b"}]})",
       R"({"retainKeysMergingList":[{"name":"bar"},{"name":"foo","value":"b"}]})"},
      {"preserve the order from the patch in a merging list", R"({"mergingList":[{"name":"1"},{"name":"2","value":"b"},{"name":"3"}]})",
       R"({"mergingList":[{"name":"3","value":"c"},{"name":"1","value":"a"},{"name":"2","other":"x"}]})",
       R"({"mergingList":[{"name":"3","value":"c"},{"name":"1","value":"a"},{"name":"2","value":"b","other":"x"}]})"},
      {"preserve the order from the patch in a merging list 2", R"({"mergingList":[{"name":"1"},{"name":"2","value":"b"},{"name":"3"}]})",
       R"({"mergingList":[{"name":"3","value":"c"},{"name":"1","value":"a"}]})",
       R"({"mergingList":[{"name":"2","value":"b"},{"name":"3","value":"c"},{"name":"1","value":"a"}]})"},
      {"preserve the order from the patch in a merging int list", R"({"mergingIntList":[1,2,3]})", R"({"mergingIntList":[3,1,2]})",
       R"({"mergingIntList":[3,1,2]})"},
      {"preserve the order from the patch in a merging int list 2", R"({"mergingIntList":[1,2,3]})", R"({"mergingIntList":[3,1]})",
       R"({"mergingIntList":[2,3,1]})"},
      {"$setElementOrder contains item that is not present in the list to be merged", R"({"mergingList":[{"name":"1"},{"name":"3"}]})",
       R"({"$setElementOrder/mergingList":[{"name":"3"},{"name":"2"},{"name":"1"}],"mergingList":[{"name":"3","value":"3"},{"name":"1","value":"1"}]})",
       R"({"mergingList":[{"name":"3","value":"3"},{"name":"1","value":"1"}]})"},
      {"$setElementOrder contains item that is not present in the int list to be merged", R"({"mergingIntList":[1,3]})",
       R"({"$setElementOrder/mergingIntList":[3,2,1]})", R"({"mergingIntList":[3,1]})"},
      {"$deleteFromPrimitiveList of nonexistent item should not add the item", R"({"mergingIntList":[1,2]})",
       R"({"$deleteFromPrimitiveList/mergingIntList":[3]})", R"({"mergingIntList":[1,2]})"},
      {"$deleteFromPrimitiveList on nonexistent primitive list should not add the list", R"({"foo":["bar"]})",
       R"({"$deleteFromPrimitiveList/mergingIntList":[3]})", R"({"foo":["bar"]})"},
      {"$deleteFromPrimitiveList should delete item from a list with merge patch strategy", R"({"mergingIntList":[1,2,3]})",
       R"({"$deleteFromPrimitiveList/mergingIntList":[2]})", R"({"mergingIntList":[1,3]})"},
      {"$deleteFromPrimitiveList should delete item from a list without merge patch strategy", R"({"nonMergingIntList":[1,2,3]})",
       R"({"$deleteFromPrimitiveList/nonMergingIntList":[2]})", R"({"nonMergingIntList":[1,3]})"},
      {"nested patch merge with empty list", R"({"name":"hi","mergingList":[{"name":"hello2"}]})",
       R"({"$setElementOrder/mergingList":[{"name":"hello"},{"name":"doesntexist"}],"mergingList":[{"name":"hello"},{"$patch":"delete","name":"doesntexist"}]})",
       R"({"name":"hi","mergingList":[{"name":"hello"},{"name":"hello2"}]})"},
      {"delete items in lists of scalars", R"({"mergingIntList":[1,2,3,4]})",
       R"({"$setElementOrder/mergingIntList":[1,2],"$deleteFromPrimitiveList/mergingIntList":[3]})", R"({"mergingIntList":[1,2,4]})"},
      {"delete all duplicate items in lists of scalars", R"({"mergingIntList":[1,2,3,3,4]})",
       R"({"$setElementOrder/mergingIntList":[1,2],"$deleteFromPrimitiveList/mergingIntList":[3]})", R"({"mergingIntList":[1,2,4]})"},
      {"add and delete items in lists of scalars", R"({"mergingIntList":[1,2,3,4]})",
       R"({"$setElementOrder/mergingIntList":[1,2,4],"$deleteFromPrimitiveList/mergingIntList":[3],"mergingIntList":[4]})",
       R"({"mergingIntList":[1,2,4]})"},
      {"merge lists of maps", R"({"mergingList":[{"name":"1","other":"a"},{"name":"2","value":"2","other":"b"}]})",
       R"({"$setElementOrder/mergingList":[{"name":"4"},{"name":"1"},{"name":"2"},{"name":"3"}],"mergingList":[{"name":"4","value":"4"},{"name":"3","value":"3"}]})",
       R"({"mergingList":[{"name":"4","value":"4"},{"name":"1","other":"a"},{"name":"2","value":"2","other":"b"},{"name":"3","value":"3"}]})"},
      {"add field and delete field from map", R"({"name":1,"other":"a"})", R"({"name":null,"value":1})", R"({"value":1,"other":"a"})"},
      {"defined null values for absent fields are dropped", R"({"name":"a","other":"a"})", R"({"name":1,"value":1,"other":null})",
       R"({"name":1,"value":1})"},
      {"replace list of scalars", R"({"nonMergingIntList":[1,2]})", R"({"nonMergingIntList":[2,3]})", R"({"nonMergingIntList":[2,3]})"},
      {"delete all maps from merging list", R"({"mergingList":[{"name":"1","other":"a"},{"name":"2"}]})",
       R"({"mergingList":[{"name":"1","$patch":"delete"},{"name":"2","$patch":"delete"}]})", R"({"mergingList":[]})"},
      {"merge into nested merging list", R"({"mergingList":[{"name":"1","mergingList":[{"name":"a","value":"x"}]}]})",
       R"({"mergingList":[{"name":"1","mergingList":[{"name":"a","other":"y"},{"name":"b"}]}]})",
       R"({"mergingList":[{"name":"1","mergingList":[{"name":"a","value":"x","other":"y"},{"name":"b"}]}]})"},
      {"retainKeys directive clears the other keys", R"({"retainKeysMap":{"name":"foo","value":"a","other":"b"}})",
       R"({"retainKeysMap":{"$retainKeys":["name","value"],"value":"c"}})", R"({"retainKeysMap":{"name":"foo","value":"c"}})"},
      {"a type change replaces", R"({"name":{"a":1}})", R"({"name":"x"})", R"({"name":"x"})"},
      {"new maps are placed without their null members", R"({})", R"({"simpleMap":{"a":"1","b":null}})", R"({"simpleMap":{"a":"1"}})"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.description);
    expect_patch(c.original, c.patch, c.modified, t);
  }
}

TEST(StrategicMergePatchUpstream, Errors) {
  MergeItemTypes t;
  int code = 0;
  EXPECT_EQ(patch_error(R"({"mergingList":[{"name":"1","value":"a"}]})", R"({"mergingList":[{"value":"b"}]})", t, &code),
            "map: map[value:b] does not contain declared merge key: name");
  EXPECT_EQ(code, 500);
  EXPECT_EQ(patch_error(R"({"mergingList":[{"name":"1"},{"name":"3"},{"name":"2"}]})",
                        R"({"$setElementOrder/mergingList":[{"name":"1"},{"name":"2"},{"name":"3"}],"mergingList":[{"name":"3","value":"3"},{"name":"1","value":"1"}]})",
                        t, &code),
            "The order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n");
  EXPECT_NE(patch_error(R"({"mergingIntList":[1,3,2]})", R"({"$setElementOrder/mergingIntList":[1,2,3],"mergingIntList":[3,1]})", t)
                .find("doesn't match"),
            std::string::npos);
  EXPECT_EQ(patch_error(R"({"a":{}})", R"({"a":{"$patch":"frob"}})", t, &code), "unknown patch type: frob in map: map[$patch:frob]");
  EXPECT_EQ(patch_error(R"({"a":1})", R"({"$retainKeys":"x"})", t, &code), "invalid patch format of retainKeys");
  EXPECT_EQ(code, 400);
  EXPECT_EQ(patch_error(R"({"a":1})", R"({"$retainKeys":["b"],"a":2})", t, &code), "invalid patch format of retainKeys");
  EXPECT_EQ(patch_error(R"({"a":[1]})", R"({"$deleteFromPrimitiveLista":[1]})", t, &code), "invalid patch format of primitive list");
  EXPECT_EQ(code, 400);
  EXPECT_EQ(patch_error(R"({"a":[1]})", R"({"$setElementOrderx":[1]})", t, &code), "invalid patch format of setElementOrder list");
  EXPECT_EQ(patch_error(R"({"mergingIntList":[[1]]})", R"({"mergingIntList":[[2]]})", t, &code), "lists of lists are not supported");
  EXPECT_EQ(code, 422);
  EXPECT_EQ(patch_error(R"({"mergingList":[{"name":"1"}]})", R"({"mergingList":[{"name":"1","$patch":"merge"}]})", t),
            "merging lists cannot yet be specified in the patch");
  EXPECT_EQ(patch_error(R"({"mergingList":{"a":1}})", R"({"$setElementOrder/mergingList":[{"name":"1"}]})", t),
            "expected a []interface {}, but received a map[string]interface {}");
  EXPECT_EQ(patch_error("[]", "{}", t, &code), "invalid JSON document");
  EXPECT_EQ(code, 400);
  EXPECT_EQ(patch_error("{}", "[]", t, &code), "invalid JSON document");
}

TEST(StrategicMergePatchUpstream, ErrorsSayWhere) {
  auto types = builtin_list_types("apps/v1", "Deployment");
  try {
    apply_strategic_merge_patch(J(R"({"spec":{"template":{"spec":{"containers":[{"name":"a"}]}}}})"),
                                J(R"({"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}})"), *types);
    FAIL();
  } catch (const PatchError& e) {
    EXPECT_STREQ(e.what(), "map: map[image:x] does not contain declared merge key: name");
    EXPECT_EQ(e.path, ".spec.template.spec.containers");
    EXPECT_EQ(e.code(), 500);
    EXPECT_EQ(e.reason(), "");
  }
}

TEST(StrategicMergePatchUpstream, InputsAreNotModified) {
  MergeItemTypes t;
  json::Value original = J(R"({"mergingList":[{"name":"1","value":"a"}]})");
  json::Value patch = J(R"({"mergingList":[{"name":"1","value":"b"}],"$setElementOrder/mergingList":[{"name":"1"}]})");
  json::Value result = apply_strategic_merge_patch(original, patch, t);
  EXPECT_EQ(json::serialize(original), R"({"mergingList":[{"name":"1","value":"a"}]})");
  EXPECT_TRUE(patch.get_object().contains("$setElementOrder/mergingList"));
  EXPECT_EQ(json::serialize(result), R"({"mergingList":[{"name":"1","value":"b"}]})");
}

}  // namespace
}  // namespace capstan::apiserver::patch
