#include "apiserver/table/crd_columns.h"

#include "runtime/gofmt/gofmt.h"
#include "apiserver/table/table.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::table {
namespace {

using namespace std::chrono;

meta::TimePoint at(std::string_view rfc3339) { return *meta::parse_rfc3339(rfc3339); }

const meta::TimePoint kNow = at("2026-01-10T12:00:00Z");

// Cells as Go would encode them (Boost.JSON writes 0.5 as 5E-1), '<' and '>' left unescaped.
std::string cells(const Row& r) {
  std::string s = gofmt::json_marshal(json::Value(r.cells));
  for (auto [from, to] : {std::pair{"\\u003c", "<"}, std::pair{"\\u003e", ">"}})
    for (auto p = s.find(from); p != std::string::npos; p = s.find(from)) s.replace(p, 6, to);
  return s;
}

const json::Value& crd() {
  static const json::Value v = json::parse(R"({
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "certificates.certs.capstan.dev"},
    "spec": {"group": "certs.capstan.dev", "names": {"kind": "Certificate", "plural": "certificates"},
      "versions": [
        {"name": "v1alpha1", "served": true, "storage": false},
        {"name": "v1", "served": true, "storage": true,
         "subresources": {"scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}},
         "additionalPrinterColumns": [
           {"name": "Ready", "type": "string", "jsonPath": ".status.conditions[?(@.type==\"Ready\")].status"},
           {"name": "Secret", "type": "string", "jsonPath": ".spec.secretName", "description": "Where the key lives"},
           {"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas"},
           {"name": "Ratio", "type": "number", "jsonPath": ".status.ratio"},
           {"name": "Suspended", "type": "boolean", "jsonPath": ".spec.suspend"},
           {"name": "Renewal", "type": "date", "jsonPath": ".status.renewalTime"},
           {"name": "Issuer", "type": "string", "priority": 1, "jsonPath": ".spec.issuerRef.name", "format": "name"}
         ]}
      ]}
  })");
  return v;
}

TEST(CrdTable, ColumnDefinitions) {
  auto conv = CrdConverter::for_version(crd(), "v1");
  ASSERT_FALSE(conv.error());
  const auto& cols = conv.columns();
  ASSERT_EQ(cols.size(), 8u);
  EXPECT_EQ(json::serialize(cols[0].to_json()),
            R"({"name":"Name","type":"string","format":"name","description":"Name must be unique within a namespace. )"
            R"(Is required when creating resources, although some resources may allow a client to request the )"
            R"(generation of an appropriate name automatically. Name is primarily intended for creation idempotence )"
            R"(and configuration definition. Cannot be updated. More info: )"
            R"(https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names","priority":0})");
  EXPECT_EQ(cols[1].name, "Ready");
  EXPECT_EQ(cols[1].description,
            "Custom resource definition column (in JSONPath format): .status.conditions[?(@.type==\"Ready\")].status");
  EXPECT_EQ(cols[2].description, "Where the key lives");
  EXPECT_EQ(cols[3].type, "integer");
  EXPECT_EQ(cols[4].type, "number");
  EXPECT_EQ(cols[5].type, "boolean");
  EXPECT_EQ(cols[6].type, "date");
  EXPECT_EQ(cols[7].priority, 1);
  EXPECT_EQ(cols[7].format, "name");
}

TEST(CrdTable, TypedCells) {
  auto conv = CrdConverter::for_version(crd(), "v1");
  auto obj = json::parse(R"({
    "apiVersion": "certs.capstan.dev/v1", "kind": "Certificate",
    "metadata": {"name": "web", "namespace": "default", "creationTimestamp": "2026-01-10T11:55:00Z"},
    "spec": {"secretName": "web-tls", "replicas": 3, "suspend": false, "issuerRef": {"name": "letsencrypt"}},
    "status": {"ratio": 0.5, "renewalTime": "2026-01-07T12:00:00Z",
               "conditions": [{"type": "Issuing", "status": "False"}, {"type": "Ready", "status": "True"}]}
  })");
  auto row = conv.row(obj, kNow);
  EXPECT_EQ(cells(row), R"(["web","True","web-tls",3,0.5,false,"3d","letsencrypt"])");
}

TEST(CrdTable, MissingAndWrongTypes) {
  auto conv = CrdConverter::for_version(crd(), "v1");
  auto obj = json::parse(R"({"metadata": {"name": "odd"},
    "spec": {"secretName": 42, "replicas": 2.7, "suspend": "yes", "issuerRef": {"name": null}},
    "status": {"ratio": 2, "renewalTime": "not-a-time"}})");
  auto row = conv.row(obj, kNow);
  // string columns print any value; integer truncates floats; number takes ints; a boolean
  // column with a string, and a missing path, are null; a bad date is "<invalid>".
  EXPECT_EQ(cells(row), R"(["odd",null,"42",2,2,null,"<invalid>","<no value>"])");

  auto more = json::parse(R"({"metadata": {"name": "m"},
    "spec": {"secretName": {"b": 1, "a": [1, 2]}, "replicas": "3", "suspend": true},
    "status": {"ratio": "x", "renewalTime": 7}})");
  row = conv.row(more, kNow);
  EXPECT_EQ(cells(row), R"(["m",null,"{\"a\":[1,2],\"b\":1}",null,null,true,null,null])");

  auto empty_date = json::parse(R"({"metadata": {"name": "e"}, "status": {"renewalTime": ""}})");
  EXPECT_EQ(conv.row(empty_date, kNow).cells[6], json::Value("<unknown>"));
}

TEST(CrdTable, OnlyTheFirstMatchIsPrinted) {
  CrdConverter conv({{"Names", "string", "", "", 0, ".spec.items[*].name"},
                     {"Count", "integer", "", "", 0, ".spec.items[*].n"},
                     {"Second", "string", "", "", 0, ".spec.items[5].name"}});
  auto obj = json::parse(R"({"metadata":{"name":"x"},"spec":{"items":[{"name":"a","n":1},{"name":"b","n":2}]}})");
  // Index out of range is an evaluation error upstream: null cell.
  EXPECT_EQ(cells(conv.row(obj, kNow)), R"(["x","a",1,null])");
}

TEST(CrdTable, DefaultAgeColumn) {
  auto cols = printer_columns_for_version(crd(), "v1alpha1");
  ASSERT_EQ(cols.size(), 1u);
  CrdConverter conv(cols);
  ASSERT_EQ(conv.columns().size(), 2u);
  const auto& age = conv.columns()[1];
  EXPECT_EQ(age.name, "Age");
  EXPECT_EQ(age.type, "date");
  EXPECT_EQ(age.format, "");
  EXPECT_EQ(age.description, kCreationTimestampDescription);
  auto obj = json::parse(R"({"metadata":{"name":"a","creationTimestamp":"2026-01-10T11:55:00Z"}})");
  EXPECT_EQ(cells(conv.row(obj, kNow)), R"(["a","5m"])");
  auto fresh = json::parse(R"({"metadata":{"name":"b","creationTimestamp":"2026-01-10T12:00:05Z"}})");
  EXPECT_EQ(conv.row(fresh, kNow).cells[1], json::Value("<invalid>"));  // more than 1s in the future
  auto unknown = json::parse(R"({"metadata":{"name":"c"}})");
  EXPECT_EQ(conv.row(unknown, kNow).cells[1], json::Value(nullptr));    // no timestamp: path misses
  // Unknown versions fall back to the default too.
  EXPECT_EQ(printer_columns_for_version(crd(), "v9").at(0).name, "Age");
}

TEST(CrdTable, BadColumnKeepsEarlierColumns) {
  CrdConverter conv({{"A", "string", "", "", 0, ".spec.a"},
                     {"Bad", "string", "", "", 0, ".spec[?(@.x"},
                     {"C", "string", "", "", 0, ".spec.c"}});
  ASSERT_TRUE(conv.error());
  EXPECT_EQ(*conv.error(), "unrecognized column definition \".spec[?(@.x\"");
  ASSERT_EQ(conv.columns().size(), 2u);
  auto obj = json::parse(R"({"metadata":{"name":"x"},"spec":{"a":"1","c":"3"}})");
  EXPECT_EQ(cells(conv.row(obj, kNow)), R"(["x","1"])");
}

TEST(CrdTable, ScaleColumns) {
  auto cols = scale_columns_for_version(crd(), "v1");
  ASSERT_EQ(cols.size(), 3u);
  EXPECT_EQ(cols[0].name, "Desired");
  EXPECT_EQ(cols[1].name, "Available");
  EXPECT_EQ(cols[2].name, "Age");
  EXPECT_EQ(scale_columns_for_version(crd(), "v1alpha1").size(), 1u);
}

TEST(CrdTable, FullTableForAList) {
  auto conv = CrdConverter::for_version(crd(), "v1");
  auto list = json::parse(R"({"apiVersion":"certs.capstan.dev/v1","kind":"CertificateList",
    "metadata":{"resourceVersion":"77","continue":"abc","remainingItemCount":4},
    "items":[{"metadata":{"name":"a","namespace":"ns","uid":"u1","resourceVersion":"70"},"spec":{"replicas":1}}]})");
  TableOptions opts;
  opts.now = kNow;
  auto t = table_for(conv, list, opts);
  EXPECT_EQ(json::serialize(t.at("metadata")), R"({"resourceVersion":"77","continue":"abc","remainingItemCount":4})");
  EXPECT_EQ(t.at("columnDefinitions").as_array().size(), 8u);
  const auto& row = t.at("rows").as_array().at(0);
  EXPECT_EQ(json::serialize(row.at("cells")), R"(["a",null,null,1,null,null,null,null])");
  EXPECT_EQ(json::serialize(row.at("object")),
            R"({"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",)"
            R"("metadata":{"name":"a","namespace":"ns","uid":"u1","resourceVersion":"70"}})");
}

}  // namespace
}  // namespace capstan::apiserver::table
