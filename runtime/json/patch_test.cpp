#include "runtime/json/patch.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace capstan::json {
namespace {

Value J(std::string_view text) { return parse(text, "test literal"); }

void expect_json(const Value& actual, std::string_view expected) {
  EXPECT_TRUE(deep_equal(actual, J(expected))) << "actual:   " << serialize(actual) << "\nexpected: " << expected;
}

std::string patch_error(const Value& doc, std::string_view patch) {
  try {
    apply_json_patch(doc, J(patch));
  } catch (const PatchError& e) {
    return e.what();
  }
  return "<no error>";
}

// ---- deep_equal -----------------------------------------------------------------------------------

TEST(JsonPatchEqual, NumbersCompareByValueAndMemberOrderIsIgnored) {
  EXPECT_TRUE(deep_equal(J("1"), J("1.0")));
  EXPECT_TRUE(deep_equal(J(R"({"a":1,"b":[true,null]})"), J(R"({"b":[true,null],"a":1})")));
  EXPECT_FALSE(deep_equal(J(R"({"a":1})"), J(R"({"a":1,"b":2})")));
  EXPECT_FALSE(deep_equal(J("[1,2]"), J("[2,1]")));
  EXPECT_FALSE(deep_equal(J(R"("1")"), J("1")));
  EXPECT_TRUE(deep_equal(J("18446744073709551615"), J("18446744073709551615")));
  EXPECT_FALSE(deep_equal(J("-1"), J("18446744073709551615")));
}

TEST(JsonPatchEqual, ContainsAllowsMoreMembersButNotOtherValuesOrElements) {
  EXPECT_TRUE(contains(J(R"({"a":1,"b":{"c":"x","d":2},"e":[{"f":1,"g":2}]})"), J(R"({"b":{"c":"x"},"e":[{"f":1.0}]})")));
  EXPECT_FALSE(contains(J(R"({"a":1})"), J(R"({"a":1,"b":2})"))) << "a member it lacks";
  EXPECT_FALSE(contains(J(R"({"a":{"c":"x"}})"), J(R"({"a":{"c":"y"}})"))) << "another value";
  EXPECT_FALSE(contains(J(R"({"e":[1,2,3]})"), J(R"({"e":[1,2]})"))) << "arrays match element by element";
  EXPECT_TRUE(contains(J("null"), J("null")));
  EXPECT_TRUE(contains(J(R"({"a":1})"), J(R"({"a":1,"labels":{},"list":[],"s":"","n":null})"))) << "empties are not stored";
  EXPECT_FALSE(contains(J(R"({"a":1})"), J(R"({"a":1,"n":0})"))) << "a zero number must be there";
}

// ---- RFC 6902 appendix A --------------------------------------------------------------------------

TEST(JsonPatchRfc6902, AddObjectMember) {
  expect_json(apply_json_patch(J(R"({"foo":"bar"})"), J(R"([{"op":"add","path":"/baz","value":"qux"}])")),
              R"({"baz":"qux","foo":"bar"})");
}

TEST(JsonPatchRfc6902, AddArrayElement) {
  expect_json(apply_json_patch(J(R"({"foo":["bar","baz"]})"), J(R"([{"op":"add","path":"/foo/1","value":"qux"}])")),
              R"({"foo":["bar","qux","baz"]})");
}

TEST(JsonPatchRfc6902, RemoveObjectMemberAndArrayElement) {
  expect_json(apply_json_patch(J(R"({"baz":"qux","foo":"bar"})"), J(R"([{"op":"remove","path":"/baz"}])")), R"({"foo":"bar"})");
  expect_json(apply_json_patch(J(R"({"foo":["bar","qux","baz"]})"), J(R"([{"op":"remove","path":"/foo/1"}])")),
              R"({"foo":["bar","baz"]})");
}

TEST(JsonPatchRfc6902, ReplaceValue) {
  expect_json(apply_json_patch(J(R"({"baz":"qux","foo":"bar"})"), J(R"([{"op":"replace","path":"/baz","value":"boo"}])")),
              R"({"baz":"boo","foo":"bar"})");
}

TEST(JsonPatchRfc6902, MoveValue) {
  expect_json(apply_json_patch(J(R"({"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}})"),
                               J(R"([{"op":"move","from":"/foo/waldo","path":"/qux/thud"}])")),
              R"({"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}})");
  expect_json(apply_json_patch(J(R"({"foo":["all","grass","cows","eat"]})"), J(R"([{"op":"move","from":"/foo/1","path":"/foo/3"}])")),
              R"({"foo":["all","cows","eat","grass"]})");
}

TEST(JsonPatchRfc6902, TestSucceedsAndFails) {
  Value doc = J(R"({"baz":"qux","foo":["a",2,"c"]})");
  expect_json(apply_json_patch(doc, J(R"([{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}])")),
              serialize(doc));
  EXPECT_EQ(patch_error(J(R"({"baz":"qux"})"), R"([{"op":"test","path":"/baz","value":"bar"}])"),
            "json patch operation 0 (test /baz): testing value /baz failed: test failed");
}

TEST(JsonPatchRfc6902, AddNestedObjectAndArrayValue) {
  expect_json(apply_json_patch(J(R"({"foo":"bar"})"), J(R"([{"op":"add","path":"/child","value":{"grandchild":{}}}])")),
              R"({"foo":"bar","child":{"grandchild":{}}})");
  expect_json(apply_json_patch(J(R"({"foo":["bar"]})"), J(R"([{"op":"add","path":"/foo/-","value":["abc","def"]}])")),
              R"({"foo":["bar",["abc","def"]]})");
}

TEST(JsonPatchRfc6902, IgnoresUnrecognizedMembers) {
  expect_json(apply_json_patch(J(R"({"foo":"bar"})"), J(R"([{"op":"add","path":"/baz","value":"qux","xyz":123}])")),
              R"({"foo":"bar","baz":"qux"})");
}

TEST(JsonPatchRfc6902, AddToNonexistentTargetFails) {
  EXPECT_EQ(patch_error(J(R"({"foo":"bar"})"), R"([{"op":"add","path":"/baz/bat","value":"qux"}])"),
            "json patch operation 0 (add /baz/bat): add operation does not apply: doc is missing path: \"/baz/bat\": missing value");
}

TEST(JsonPatchRfc6902, PointerEscapes) {
  expect_json(apply_json_patch(J(R"({"/":9,"~1":10})"), J(R"([{"op":"test","path":"/~01","value":10},{"op":"replace","path":"/~1","value":1}])")),
              R"({"/":1,"~1":10})");
  // Kubernetes annotation keys contain slashes.
  expect_json(apply_json_patch(J(R"({"metadata":{"annotations":{}}})"),
                               J(R"([{"op":"add","path":"/metadata/annotations/example.com~1owner","value":"me"}])")),
              R"({"metadata":{"annotations":{"example.com/owner":"me"}}})");
}

TEST(JsonPatchRfc6902, CompareStringsAndNumbersStrictly) {
  EXPECT_NE(patch_error(J(R"({"/":9,"~1":10})"), R"([{"op":"test","path":"/~01","value":"10"}])"), "<no error>");
}

TEST(JsonPatchRfc6902, AddingArrayValueAndCopy) {
  expect_json(apply_json_patch(J(R"({"a":{"b":[1,2]}})"), J(R"([{"op":"copy","from":"/a/b","path":"/c"},{"op":"add","path":"/c/0","value":0}])")),
              R"({"a":{"b":[1,2]},"c":[0,1,2]})");
}

// ---- what kubectl sends ---------------------------------------------------------------------------

TEST(JsonPatchKubectl, AddDataKey) {
  Value cm = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","namespace":"default"},"data":{"k":"v"}})");
  expect_json(apply_json_patch(cm, std::string_view(R"([{"op":"add","path":"/data/x","value":"y"}])")),
              R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","namespace":"default"},"data":{"k":"v","x":"y"}})");
}

TEST(JsonPatchKubectl, FinalizerRemovalGuardedByTest) {
  // kube-rs' finalizer helper: test the list, then remove the element by index.
  Value obj = J(R"({"metadata":{"finalizers":["a","b"]}})");
  expect_json(apply_json_patch(obj, J(R"([{"op":"test","path":"/metadata/finalizers","value":["a","b"]},{"op":"remove","path":"/metadata/finalizers/1"}])")),
              R"({"metadata":{"finalizers":["a"]}})");
  try {
    apply_json_patch(obj, J(R"([{"op":"test","path":"/metadata/finalizers","value":["a"]},{"op":"remove","path":"/metadata/finalizers/1"}])"));
    FAIL() << "expected PatchError";
  } catch (const PatchError& e) {
    EXPECT_EQ(e.code(), 422);
    EXPECT_EQ(e.reason(), "Invalid");
    EXPECT_EQ(e.status_message(), "the server rejected our request due to an error in our request");
    ASSERT_TRUE(e.op_index.has_value());
    EXPECT_EQ(*e.op_index, 0u);
    EXPECT_EQ(e.path, "/metadata/finalizers");
  }
}

// ---- json-patch v4 quirks and messages ------------------------------------------------------------

TEST(JsonPatchErrors, MessagesFollowEvanphxJsonPatch) {
  Value doc = J(R"({"a":{"b":1},"l":[1,2]})");
  EXPECT_EQ(patch_error(doc, R"([{"op":"remove","path":"/x"}])"),
            "json patch operation 0 (remove /x): error in remove for path: '/x': Unable to remove nonexistent key: x: missing value");
  EXPECT_EQ(patch_error(doc, R"([{"op":"remove","path":"/l/5"}])"),
            "json patch operation 0 (remove /l/5): error in remove for path: '/l/5': Unable to access invalid index: 5: invalid index referenced");
  EXPECT_EQ(patch_error(doc, R"([{"op":"add","path":"/l/3","value":0}])"),
            "json patch operation 0 (add /l/3): error in add for path: '/l/3': Unable to access invalid index: 3: invalid index referenced");
  EXPECT_EQ(patch_error(doc, R"([{"op":"replace","path":"/l/2","value":0}])"),
            "json patch operation 0 (replace /l/2): replace operation does not apply: doc is missing key: /l/2: missing value");
  EXPECT_EQ(patch_error(doc, R"([{"op":"replace","path":"/x/y","value":0}])"),
            "json patch operation 0 (replace /x/y): replace operation does not apply: doc is missing path: /x/y: missing value");
  EXPECT_EQ(patch_error(doc, R"([{"op":"move","from":"/x/y","path":"/z"}])"),
            "json patch operation 0 (move /z): move operation does not apply: doc is missing from path: /x/y: missing value");
  EXPECT_EQ(patch_error(doc, R"([{"op":"copy","from":"/a","path":"/q/r"}])"),
            "json patch operation 0 (copy /q/r): copy operation does not apply: doc is missing destination path: /q/r: missing value");
  EXPECT_EQ(patch_error(doc, R"([{"op":"test","path":"/x/y","value":1}])"),
            "json patch operation 0 (test /x/y): test operation does not apply: is missing path: /x/y: missing value");
  EXPECT_EQ(patch_error(doc, R"([{"op":"frob","path":"/a"}])"), "json patch operation 0 (frob /a): Unexpected kind: frob");
  EXPECT_EQ(patch_error(doc, R"([{"path":"/a"}])"), "json patch operation 0 (unknown /a): Unexpected kind: unknown");
  EXPECT_EQ(patch_error(doc, R"([{"op":"add","value":1}])"),
            "json patch operation 0 (add): add operation failed to decode path: missing value");
  EXPECT_EQ(patch_error(doc, R"([{"op":"test","path":"/a/b","value":1},{"op":"test","path":"/a/b","value":2}])"),
            "json patch operation 1 (test /a/b): testing value /a/b failed: test failed");
}

TEST(JsonPatchErrors, DecodingErrorsAreBadRequests) {
  try {
    apply_json_patch(J("{}"), J(R"({"op":"add"})"));
    FAIL();
  } catch (const PatchError& e) {
    EXPECT_EQ(e.code(), 400);
    EXPECT_STREQ(e.what(), "json: cannot unmarshal object into Go value of type jsonpatch.Patch");
  }
  try {
    apply_json_patch(J("{}"), J(R"(["add"])"));
    FAIL();
  } catch (const PatchError& e) {
    EXPECT_EQ(e.code(), 400);
    EXPECT_STREQ(e.what(), "json: cannot unmarshal string into Go value of type jsonpatch.Operation");
  }
  try {
    apply_json_patch(J("{}"), std::string_view("[{"));
    FAIL();
  } catch (const PatchError& e) {
    EXPECT_EQ(e.code(), 400);
  }
}

TEST(JsonPatchErrors, FailedPatchLeavesInputUntouched) {
  Value doc = J(R"({"a":1})");
  EXPECT_THROW(apply_json_patch(doc, J(R"([{"op":"add","path":"/b","value":2},{"op":"test","path":"/a","value":3}])")), PatchError);
  expect_json(doc, R"({"a":1})");
}

TEST(JsonPatchQuirks, NegativeIndicesCountFromTheEnd) {
  expect_json(apply_json_patch(J(R"({"l":[1,2,3]})"), J(R"([{"op":"remove","path":"/l/-1"}])")), R"({"l":[1,2]})");
  expect_json(apply_json_patch(J(R"({"l":[1,2,3]})"), J(R"([{"op":"replace","path":"/l/-3","value":0}])")), R"({"l":[0,2,3]})");
  expect_json(apply_json_patch(J(R"({"l":[1,2]})"), J(R"([{"op":"add","path":"/l/-1","value":9}])")), R"({"l":[1,2,9]})");
}

TEST(JsonPatchQuirks, TestTreatsMissingAsNullAndReplaceMayAdd) {
  Value doc = J(R"({"foo":"bar","n":null})");
  EXPECT_NO_THROW(apply_json_patch(doc, J(R"([{"op":"test","path":"/baz","value":null}])")));
  EXPECT_NO_THROW(apply_json_patch(doc, J(R"([{"op":"test","path":"/n","value":null}])")));
  EXPECT_NE(patch_error(doc, R"([{"op":"test","path":"/baz","value":"x"}])"), "<no error>");
  expect_json(apply_json_patch(doc, J(R"([{"op":"replace","path":"/new","value":1}])")), R"({"foo":"bar","n":null,"new":1})");
}

TEST(JsonPatchQuirks, WholeDocumentOperations) {
  expect_json(apply_json_patch(J(R"({"a":1})"), J(R"([{"op":"replace","path":"","value":{"b":2}}])")), R"({"b":2})");
  EXPECT_NO_THROW(apply_json_patch(J(R"({"a":1})"), J(R"([{"op":"test","path":"","value":{"a":1}}])")));
  EXPECT_EQ(json_patch_operation_count(J(R"([{"op":"test","path":"","value":1},{"op":"test","path":"","value":1}])")), 2u);
}

// ---- RFC 7386 appendix A --------------------------------------------------------------------------

TEST(MergePatchRfc7386, AppendixExamples) {
  struct Case {
    const char* target;
    const char* patch;
    const char* result;
  } cases[] = {
      {R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})"},
      {R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})"},
      {R"({"a":"b"})", R"({"a":null})", R"({})"},
      {R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})"},
      {R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})"},
      {R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})"},
      {R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})", R"({"a":{"b":"d"}})"},
      {R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})"},
      {R"(["a","b"])", R"(["c","d"])", R"(["c","d"])"},
      {R"({"a":"b"})", R"(["c"])", R"(["c"])"},
      {R"({"a":"foo"})", "null", "null"},
      {R"({"a":"foo"})", R"("bar")", R"("bar")"},
      {R"({"e":null})", R"({"a":1})", R"({"e":null,"a":1})"},
      {R"([1,2])", R"({"a":"b","c":null})", R"({"a":"b"})"},
      {R"({})", R"({"a":{"bb":{"ccc":null}}})", R"({"a":{"bb":{}}})"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.target) + " + " + c.patch);
    expect_json(apply_merge_patch(J(c.target), J(c.patch)), c.result);
  }
}

TEST(MergePatchKubectl, DataAndLabels) {
  Value cm = J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo"},"data":{"k":"v"}})");
  expect_json(apply_merge_patch(cm, J(R"({"data":{"x":"y"}})")),
              R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo"},"data":{"k":"v","x":"y"}})");
  expect_json(apply_merge_patch(cm, J(R"({"metadata":{"labels":{"a":"b"}}})")),
              R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","labels":{"a":"b"}},"data":{"k":"v"}})");
}

TEST(MergePatchQuirks, NullMembersOfInsertedObjectsInsideArraysAreDropped) {
  expect_json(apply_merge_patch(J(R"({"l":[1]})"), J(R"({"l":[{"a":null,"b":1},null]})")), R"({"l":[{"b":1},null]})");
}

// ---- diffs ----------------------------------------------------------------------------------------

TEST(CreateMergePatch, MinimalPatch) {
  expect_json(create_merge_patch(J(R"({"a":1,"b":{"c":2,"d":3},"e":[1,2]})"), J(R"({"a":1,"b":{"c":2,"d":4},"e":[1,2,3],"f":true})")),
              R"({"b":{"d":4},"e":[1,2,3],"f":true})");
  expect_json(create_merge_patch(J(R"({"a":1,"b":{"c":2}})"), J(R"({})")), R"({"a":null,"b":null})");
  expect_json(create_merge_patch(J(R"({"a":1})"), J(R"({"a":1})")), "{}");
}

TEST(CreateJsonPatch, MinimalOperations) {
  expect_json(create_json_patch(J(R"({"a":1,"b":{"c":2},"x~/y":0})"), J(R"({"a":2,"b":{"c":2,"d":[1]}})")),
              R"([{"op":"remove","path":"/x~0~1y"},{"op":"replace","path":"/a","value":2},{"op":"add","path":"/b/d","value":[1]}])");
  // A sidecar appended by a mutating webhook: one add, not a replacement of the list.
  Value pod = J(R"({"spec":{"containers":[{"name":"app","image":"a"}]}})");
  Value mutated = J(R"({"spec":{"containers":[{"name":"app","image":"a"},{"name":"proxy","image":"p"}]}})");
  expect_json(create_json_patch(pod, mutated), R"([{"op":"add","path":"/spec/containers/1","value":{"name":"proxy","image":"p"}}])");
  // Changing a field of one element patches just that element.
  Value changed = J(R"({"spec":{"containers":[{"name":"app","image":"b"}]}})");
  expect_json(create_json_patch(pod, changed), R"([{"op":"replace","path":"/spec/containers/0/image","value":"b"}])");
  expect_json(create_json_patch(pod, pod), "[]");
}

TEST(CreateJsonPatch, ReplacesArrayWholeWhenShorter) {
  Value o = J(R"({"l":[1,2,3,4,5,6]})");
  Value m = J(R"({"l":[7,8,9,10,11,12]})");
  expect_json(create_json_patch(o, m), R"([{"op":"replace","path":"/l","value":[7,8,9,10,11,12]}])");
}

// ---- property tests: applying a created patch to the original yields the modified document ---------

class RandomJson {
 public:
  explicit RandomJson(unsigned seed) : rng_(seed) {}

  Value scalar(bool allow_null) {
    switch (pick(allow_null ? 6 : 5)) {
      case 0: return Value(static_cast<std::int64_t>(pick(5)));
      case 1: return Value(std::string(1, static_cast<char>('a' + pick(4))));
      case 2: return Value(pick(2) == 0);
      case 3: return Value(static_cast<double>(pick(4)) + 0.5);
      case 4: return Value(std::string("s/~") + std::to_string(pick(3)));
      default: return Value(nullptr);
    }
  }

  // Objects never hold null members when `no_null_members` (merge patches cannot express them).
  Value any(int depth, bool no_null_members) {
    int choice = depth <= 0 ? 0 : static_cast<int>(pick(4));
    if (choice == 0 || choice == 1) return scalar(!no_null_members && choice == 1);
    if (choice == 2) {
      Array a;
      std::size_t n = pick(5);
      for (std::size_t i = 0; i < n; ++i) a.push_back(any(depth - 1, no_null_members));
      return a;
    }
    Object o;
    std::size_t n = pick(5);
    for (std::size_t i = 0; i < n; ++i) o[key()] = any(depth - 1, no_null_members);
    return o;
  }

  // A random edit of `v`: change, add and remove members and elements at random depths.
  Value mutate(const Value& v, int depth, bool no_null_members) {
    if (pick(6) == 0) return any(depth, no_null_members);
    if (const auto* o = v.if_object()) {
      Object out;
      for (const auto& kv : *o) {
        std::size_t r = pick(5);
        if (r == 0) continue;  // removed
        out[kv.key()] = r == 1 ? mutate(kv.value(), depth - 1, no_null_members) : kv.value();
      }
      if (pick(2) == 0) out[key()] = any(depth - 1, no_null_members);
      return out;
    }
    if (const auto* a = v.if_array()) {
      Array out;
      for (const auto& e : *a) {
        std::size_t r = pick(6);
        if (r == 0) continue;
        if (r == 1) out.push_back(any(depth - 1, no_null_members));
        out.push_back(r == 2 ? mutate(e, depth - 1, no_null_members) : e);
      }
      if (pick(3) == 0) out.insert(out.begin() + static_cast<std::ptrdiff_t>(pick(out.size() + 1)), any(depth - 1, no_null_members));
      return out;
    }
    return pick(2) == 0 ? v : scalar(!no_null_members);
  }

 private:
  std::size_t pick(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  std::string key() {
    static const char* keys[] = {"a", "b", "c", "d", "x/y", "t~"};
    return keys[pick(6)];
  }
  std::mt19937 rng_;
};

TEST(CreateJsonPatchProperty, RoundTripsOnRandomDocuments) {
  RandomJson gen(20261202);
  for (int i = 0; i < 3000; ++i) {
    Value original = gen.any(4, false);
    Value modified = gen.mutate(original, 4, false);
    Value patch = create_json_patch(original, modified);
    Value result;
    ASSERT_NO_THROW(result = apply_json_patch(original, patch)) << serialize(original) << " -> " << serialize(modified) << " via " << serialize(patch);
    ASSERT_TRUE(deep_equal(result, modified)) << "original " << serialize(original) << "\nmodified " << serialize(modified)
                                              << "\npatch    " << serialize(patch) << "\nresult   " << serialize(result);
    if (deep_equal(original, modified)) {
      EXPECT_TRUE(patch.get_array().empty());
    }
  }
}

TEST(CreateMergePatchProperty, RoundTripsOnRandomDocuments) {
  RandomJson gen(7386);
  for (int i = 0; i < 3000; ++i) {
    Value original = gen.any(4, true);
    Value modified = gen.mutate(original, 4, true);
    if (!modified.is_object()) continue;  // a non-object merge patch target is replaced whole
    Value patch = create_merge_patch(original, modified);
    Value result = apply_merge_patch(original, patch);
    ASSERT_TRUE(deep_equal(result, modified)) << "original " << serialize(original) << "\nmodified " << serialize(modified)
                                              << "\npatch    " << serialize(patch) << "\nresult   " << serialize(result);
  }
}

}  // namespace
}  // namespace capstan::json
