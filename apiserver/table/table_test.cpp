#include "apiserver/table/table.h"

#include "apiserver/table/builtin_printers.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::table {
namespace {

const json::Value& configmaps() {
  static const json::Value v = json::parse(R"({
    "apiVersion": "v1", "kind": "ConfigMapList",
    "metadata": {"resourceVersion": "42"},
    "items": [
      {"apiVersion": "v1", "kind": "ConfigMap",
       "metadata": {"name": "demo", "namespace": "default", "uid": "u-1", "resourceVersion": "40",
                    "creationTimestamp": "2026-01-10T11:55:00Z", "labels": {"app": "demo"}},
       "data": {"k": "v"}},
      {"apiVersion": "v1", "kind": "ConfigMap",
       "metadata": {"name": "other", "namespace": "default", "uid": "u-2", "resourceVersion": "41",
                    "creationTimestamp": "2026-01-10T09:00:00Z"}}
    ]})");
  return v;
}

TableOptions options(IncludeObject include) {
  TableOptions o;
  o.include = include;
  o.now = *meta::parse_rfc3339("2026-01-10T12:00:00Z");
  return o;
}

TEST(TableJson, MetadataIsTheDefault) {
  EXPECT_EQ(parse_include_object(""), IncludeObject::Metadata);
  EXPECT_EQ(parse_include_object("Metadata"), IncludeObject::Metadata);
  EXPECT_EQ(parse_include_object("None"), IncludeObject::None);
  EXPECT_EQ(parse_include_object("Object"), IncludeObject::Object);
  EXPECT_EQ(parse_include_object("object"), std::nullopt);

  auto t = table_for(converter_for("", "configmaps"), configmaps(), options(IncludeObject::Metadata));
  auto expected_cols = std::string(R"([{"name":"Name","type":"string","format":"name","description":")") +
                       kNameDescription + R"(","priority":0},)" +
                       R"({"name":"Data","type":"string","format":"","description":"Data contains the configuration )"
                       R"(data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with )"
                       R"(non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not )"
                       R"(overlap with the keys in the BinaryData field, this is enforced during validation process.",)"
                       R"("priority":0},{"name":"Age","type":"string","format":"","description":)" +
                       json::serialize(json::Value(kCreationTimestampDescription)) + R"(,"priority":0}])";
  EXPECT_EQ(json::serialize(t.at("columnDefinitions")), expected_cols);
  t.as_object().erase("columnDefinitions");
  EXPECT_EQ(json::serialize(t),
            R"({"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"42"},"rows":[)"
            R"({"cells":["demo",1,"5m"],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",)"
            R"("metadata":{"name":"demo","namespace":"default","uid":"u-1","resourceVersion":"40",)"
            R"("creationTimestamp":"2026-01-10T11:55:00Z","labels":{"app":"demo"}}}},)"
            R"({"cells":["other",0,"3h"],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",)"
            R"("metadata":{"name":"other","namespace":"default","uid":"u-2","resourceVersion":"41",)"
            R"("creationTimestamp":"2026-01-10T09:00:00Z"}}}]})");
}

TEST(TableJson, IncludeObjectNoneAndObject) {
  auto none = table_for(converter_for("", "configmaps"), configmaps(), options(IncludeObject::None));
  EXPECT_EQ(json::serialize(none.at("rows").at(0)), R"({"cells":["demo",1,"5m"],"object":null})");

  auto full = table_for(converter_for("", "configmaps"), configmaps(), options(IncludeObject::Object));
  EXPECT_EQ(full.at("rows").at(1).at("object"), configmaps().at("items").at(1));
}

TEST(TableJson, ListMetadataAndVersions) {
  auto list = json::parse(R"({"metadata":{"resourceVersion":"9","continue":"tok","remainingItemCount":12},"items":[]})");
  auto opts = options(IncludeObject::Metadata);
  opts.api_version = "meta.k8s.io/v1beta1";
  auto t = table_for(default_converter(), list, opts);
  EXPECT_EQ(t.at("apiVersion"), json::Value("meta.k8s.io/v1beta1"));
  EXPECT_EQ(json::serialize(t.at("metadata")), R"({"resourceVersion":"9","continue":"tok","remainingItemCount":12})");
  EXPECT_EQ(json::serialize(t.at("rows")), "[]");

  auto one = table_for(default_converter(), json::parse(R"({"metadata":{"name":"x","resourceVersion":"5"}})"), opts);
  EXPECT_EQ(json::serialize(one.at("metadata")), R"({"resourceVersion":"5"})");
  EXPECT_EQ(one.at("rows").at(0).at("object").at("apiVersion"), json::Value("meta.k8s.io/v1beta1"));

  EXPECT_EQ(json::serialize(ListMeta{}.to_json()), "{}");
}

TEST(TableJson, RowConditions) {
  auto pod = json::parse(R"({"metadata":{"name":"done"},"spec":{"containers":[{"name":"c"}]},"status":{"phase":"Failed"}})");
  auto t = watch_event_table(converter_for("", "pods"), pod, options(IncludeObject::None));
  EXPECT_EQ(json::serialize(t.at("rows").at(0).at("conditions")),
            R"([{"type":"Completed","status":"True","reason":"Failed","message":"The pod failed."}])");
}

TEST(TableJson, WatchEventsCarryHeadersOnce) {
  WatchTableEncoder enc(converter_for("", "configmaps"), options(IncludeObject::Metadata));
  const auto& items = configmaps().at("items").as_array();
  auto first = enc.next(items[0]);
  EXPECT_TRUE(enc.headers_sent());
  auto second = enc.next(items[1], *meta::parse_rfc3339("2026-01-10T13:00:00Z"));
  EXPECT_EQ(first.at("columnDefinitions").as_array().size(), 3u);
  EXPECT_TRUE(second.at("columnDefinitions").is_null());
  EXPECT_EQ(json::serialize(first.at("metadata")), R"({"resourceVersion":"40"})");
  EXPECT_EQ(json::serialize(second.at("metadata")), R"({"resourceVersion":"41"})");
  ASSERT_EQ(second.at("rows").as_array().size(), 1u);
  EXPECT_EQ(json::serialize(second.at("rows").at(0).at("cells")), R"(["other",0,"4h"])");
}

TEST(TableJson, PrecomputedRows) {
  std::vector<ColumnDefinition> cols{name_column(), {"Extra", "integer", "", "An extra column", 1}};
  Row r;
  r.cells.emplace_back("a");
  r.cells.emplace_back(7);
  auto obj = json::parse(R"({"metadata":{"name":"a"}})");
  TableOptions opts;
  opts.no_headers = true;
  auto t = build_table(cols, {r}, {&obj}, opts, ListMeta{"3", "", std::nullopt});
  EXPECT_EQ(json::serialize(t),
            R"({"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"3"},)"
            R"("columnDefinitions":null,"rows":[{"cells":["a",7],)"
            R"("object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a"}}}]})");
}

}  // namespace
}  // namespace capstan::apiserver::table
