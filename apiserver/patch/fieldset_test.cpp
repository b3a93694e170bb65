#include "apiserver/patch/fieldset.h"

#include "apiserver/patch/structured.h"
#include "runtime/json/patch.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::patch {
namespace {

json::Value J(std::string_view text) { return json::parse(text, "test literal"); }

PathElement F(std::string name) { return PathElement::field(std::move(name)); }
PathElement K(std::string name, json::Value v) { return PathElement::make_key({{std::move(name), std::move(v)}}); }

TEST(FieldSet, FieldsV1RoundTrip) {
  const char* text =
      R"({"f:data":{"f:k":{}},"f:spec":{"f:containers":{"k:{\"name\":\"a\"}":{".":{},"f:image":{},"f:ports":{".":{},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}})";
  FieldSet s = FieldSet::from_fields_v1(J(text));
  EXPECT_TRUE(s.has({F("data"), F("k")}));
  EXPECT_FALSE(s.has({F("data")}));
  EXPECT_TRUE(s.has({F("spec"), F("containers"), K("name", "a")}));
  EXPECT_TRUE(s.has({F("spec"), F("containers"), K("name", "a"), F("image")}));
  EXPECT_FALSE(s.has({F("spec"), F("containers")}));
  EXPECT_TRUE(s.has({F("spec"), F("containers"), K("name", "a"), F("ports")}));
  EXPECT_EQ(s.size(), 6u);
  EXPECT_EQ(json::serialize(s.to_fields_v1()), text);
}

TEST(FieldSet, EncodingOrderAndElementKinds) {
  FieldSet s;
  s.insert({F("list"), PathElement::make_index(2)});
  s.insert({F("list"), PathElement::make_value("x")});
  s.insert({F("list"), PathElement::make_key({{"z", 1}, {"a", "b"}})});
  s.insert({F("list"), F("b")});
  s.insert({F("list"), PathElement::make_value(3)});
  s.insert({F("a")});
  EXPECT_EQ(json::serialize(s.to_fields_v1()),
            R"({"f:a":{},"f:list":{"f:b":{},"k:{\"a\":\"b\",\"z\":1}":{},"v:3":{},"v:\"x\"":{},"i:2":{}}})");
  FieldSet back = FieldSet::from_fields_v1(s.to_fields_v1());
  EXPECT_TRUE(back == s);
  // Unknown element types are ignored; a bare {} is a member.
  FieldSet u = FieldSet::from_fields_v1(J(R"({"x:future":{},"f:a":{}})"));
  EXPECT_TRUE(u.has({F("a")}));
  EXPECT_EQ(u.size(), 1u);
  EXPECT_THROW(FieldSet::from_fields_v1(J(R"({"q":{}})")), json::PatchError);
  EXPECT_THROW(FieldSet::from_fields_v1(J(R"({"k:notjson":{}})")), json::PatchError);
}

TEST(FieldSet, PathStrings) {
  EXPECT_EQ(to_string({F("data"), F("k")}), ".data.k");
  EXPECT_EQ(to_string({F("spec"), F("containers"), K("name", "a"), F("image")}), R"(.spec.containers[name="a"].image)");
  EXPECT_EQ(to_string({F("ports"), PathElement::make_key({{"protocol", "TCP"}, {"containerPort", 80}})}),
            R"(.ports[containerPort=80,protocol="TCP"])");
  EXPECT_EQ(to_string({F("metadata"), F("finalizers"), PathElement::make_value("example.com/f")}),
            R"(.metadata.finalizers[="example.com/f"])");
  EXPECT_EQ(to_string({F("args"), PathElement::make_index(0)}), ".args[0]");
}

TEST(FieldSet, SetOperations) {
  FieldSet a, b;
  a.insert({F("x")});
  a.insert({F("s"), F("p")});
  a.insert({F("s"), F("q")});
  a.insert({F("l"), K("name", "a")});
  a.insert({F("l"), K("name", "a"), F("image")});
  b.insert({F("s"), F("q")});
  b.insert({F("s"), F("r")});
  b.insert({F("l"), K("name", "a")});
  b.insert({F("y")});

  FieldSet u = a.unite(b);
  EXPECT_EQ(u.size(), 7u);
  FieldSet i = a.intersect(b);
  EXPECT_EQ(i.size(), 2u);
  EXPECT_TRUE(i.has({F("s"), F("q")}));
  EXPECT_TRUE(i.has({F("l"), K("name", "a")}));
  FieldSet d = a.difference(b);
  EXPECT_EQ(d.size(), 3u);
  EXPECT_TRUE(d.has({F("l"), K("name", "a"), F("image")}));
  FieldSet r = a.recursive_difference(b);
  EXPECT_EQ(r.size(), 2u);  // l[name=a].image goes with its member parent
  EXPECT_FALSE(r.has({F("l"), K("name", "a"), F("image")}));
  EXPECT_TRUE(a.difference(a).empty());
  EXPECT_EQ(json::serialize(a.difference(a).to_fields_v1()), "{}");

  std::vector<std::string> order;
  for (const auto& p : u.paths()) order.push_back(to_string(p));
  EXPECT_EQ(order, (std::vector<std::string>{".x", ".y", R"(.l[name="a"])", R"(.l[name="a"].image)", ".s.p", ".s.q", ".s.r"}));
}

TEST(FieldSet, OwnedFieldsOfADeployment) {
  auto types = builtin_list_types("apps/v1", "Deployment");
  json::Value d = J(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},
    "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"strategy":{},
      "template":{"metadata":{"labels":{"app":"web"}},
        "spec":{"containers":[{"name":"nginx","image":"nginx:1.25","ports":[{"containerPort":80}],"args":["-v"]}]}}}})");
  FieldSet s = field_set_of(d, *types);
  EXPECT_EQ(json::serialize(s.to_fields_v1()),
            R"({"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:labels":{"f:app":{}},"f:name":{}},)"
            R"("f:spec":{"f:replicas":{},"f:selector":{},"f:strategy":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},)"
            R"("f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:args":{},"f:image":{},"f:name":{},)"
            R"("f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}})");
}

TEST(FieldSet, StrictConfigurationsRejectBadKeys) {
  auto types = builtin_list_types("v1", "Service");
  try {
    field_set_of(J(R"({"spec":{"ports":[{"name":"x"}]}})"), *types, true);
    FAIL();
  } catch (const json::PatchError& e) {
    EXPECT_STREQ(e.what(), ".spec.ports: element 0: associative list with keys has an element that omits key field \"port\" (and doesn't have default value)");
  }
  try {
    field_set_of(J(R"({"spec":{"ports":[{"port":80},{"port":80,"protocol":"TCP"}]}})"), *types, true);
    FAIL();
  } catch (const json::PatchError& e) {
    EXPECT_STREQ(e.what(), R"(.spec.ports: duplicate entries for key [port=80,protocol="TCP"])");
  }
  // Not strict: the list is owned as a whole.
  FieldSet s = field_set_of(J(R"({"spec":{"ports":[{"name":"x"}]}})"), *types);
  EXPECT_TRUE(s.has({F("spec"), F("ports")}));
}

TEST(FieldSet, CompareAddedModifiedRemoved) {
  auto types = builtin_list_types("apps/v1", "Deployment");
  json::Value before = J(R"({"data":{"a":"1","b":"2"},"spec":{"template":{"spec":{"containers":[{"name":"x","image":"i1"},{"name":"y","image":"j"}]}}}})");
  json::Value after = J(R"({"data":{"a":"1","b":"3","c":"4"},"spec":{"template":{"spec":{"containers":[{"name":"x","image":"i2"},{"name":"z","image":"k"}]}}}})");
  Comparison c = compare(before, after, *types);
  auto list = [](const FieldSet& s) {
    std::vector<std::string> out;
    for (const auto& p : s.paths()) out.push_back(to_string(p));
    return out;
  };
  EXPECT_EQ(list(c.modified), (std::vector<std::string>{".data.b", R"(.spec.template.spec.containers[name="x"].image)"}));
  EXPECT_EQ(list(c.added), (std::vector<std::string>{".data.c", R"(.spec.template.spec.containers[name="z"])",
                                                     R"(.spec.template.spec.containers[name="z"].image)",
                                                     R"(.spec.template.spec.containers[name="z"].name)"}));
  EXPECT_EQ(list(c.removed), (std::vector<std::string>{R"(.spec.template.spec.containers[name="y"])",
                                                       R"(.spec.template.spec.containers[name="y"].image)",
                                                       R"(.spec.template.spec.containers[name="y"].name)"}));
  Comparison same = compare(before, before, *types);
  EXPECT_TRUE(same.added.empty() && same.modified.empty() && same.removed.empty());
}

TEST(FieldSet, MergeKeepsLiveOrderAroundTheConfiguration) {
  auto types = builtin_list_types("v1", "Pod");
  json::Value live = J(R"({"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"2"},{"name":"c","image":"3"}]}})");
  json::Value config = J(R"({"spec":{"containers":[{"name":"c","image":"30"},{"name":"d","image":"4"},{"name":"a","image":"10"}]}})");
  json::Value merged = merge(live, config, *types);
  EXPECT_TRUE(json::deep_equal(merged, J(R"({"spec":{"containers":[{"name":"b","image":"2"},{"name":"c","image":"30"},{"name":"d","image":"4"},{"name":"a","image":"10"}]}})")))
      << json::serialize(merged);
  // Atomic lists and atomic maps are replaced.
  json::Value m2 = merge(J(R"({"spec":{"tolerations":[{"key":"a"}],"nodeSelector":{"x":"1"}}})"),
                         J(R"({"spec":{"tolerations":[{"key":"b"}],"nodeSelector":{"y":"2"}}})"), *types);
  EXPECT_TRUE(json::deep_equal(m2, J(R"({"spec":{"tolerations":[{"key":"b"}],"nodeSelector":{"x":"1","y":"2"}}})"))) << json::serialize(m2);
}

TEST(FieldSet, RemoveItemsAndNamedFields) {
  auto types = builtin_list_types("v1", "Pod");
  json::Value obj = J(R"({"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"2"}],"hostname":"h"}})");
  FieldSet s;
  s.insert({F("spec"), F("containers"), K("name", "a")});
  s.insert({F("spec"), F("hostname")});
  EXPECT_TRUE(json::deep_equal(remove_items(obj, s, *types), J(R"({"spec":{"containers":[{"name":"b","image":"2"}]}})")));

  FieldSet deep;
  deep.insert({F("spec"), F("containers"), K("name", "a"), F("image")});
  FieldSet named = ensure_named_fields_are_members(deep, *types);
  EXPECT_TRUE(named.has({F("spec")}));
  EXPECT_TRUE(named.has({F("spec"), F("containers")}));
  EXPECT_FALSE(named.has({F("spec"), F("containers"), K("name", "a")}));  // list items are not named fields
}

}  // namespace
}  // namespace capstan::apiserver::patch
