#include "runtime/json/decode.h"

#include "runtime/json/json.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace capstan::json {
namespace {

const char* kObj =
    R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"ns","uid":"u1","resourceVersion":"7",)"
    R"("generation":2,"labels":{"app":"x"},"ownerReferences":[{"apiVersion":"v1","kind":"Secret","name":"o","uid":"u0","controller":true}],)"
    R"("managedFields":[{"manager":"kubectl","operation":"Apply"}]},"data":{"k":"v"}})";

TEST(Decode, SummarizeExtractsMetadata) {
  MetaSummary m;
  ASSERT_TRUE(summarize(kObj, m));
  EXPECT_EQ(m.name, "a");
  EXPECT_EQ(m.ns, "ns");
  EXPECT_EQ(m.uid, "u1");
  EXPECT_EQ(m.resource_version, "7");
  EXPECT_EQ(m.generation, 2);
  ASSERT_EQ(m.labels.size(), 1u);
  EXPECT_EQ(m.labels[0].second, "x");
  ASSERT_EQ(m.owners.size(), 1u);
  EXPECT_TRUE(m.owners[0].controller);
  EXPECT_EQ(m.owners[0].uid, "u0");
}

TEST(Decode, StripManagedFieldsLeavesValidJson) {
  MetaSummary m;
  ASSERT_TRUE(summarize(kObj, m));
  std::string stripped = strip_managed_fields(kObj, m);
  Value v = parse(stripped);
  Value orig = parse(kObj);
  orig.at("metadata").as_object().erase("managedFields");
  EXPECT_EQ(v, orig);
  // managedFields as the first and as the only member
  for (const char* text : {R"({"metadata":{"managedFields":[],"name":"b"}})", R"({"metadata":{"managedFields":[{"a":1}]}})",
                           R"({"metadata": { "name":"b" , "managedFields" : [ ] } })"}) {
    MetaSummary s;
    ASSERT_TRUE(summarize(text, s)) << text;
    Value got = parse(strip_managed_fields(text, s));
    EXPECT_EQ(find(got, {"metadata", "managedFields"}), nullptr) << text;
  }
}

TEST(Decode, ListPage) {
  std::string body = std::string(R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"42","continue":"tok","remainingItemCount":5},"items":[)") +
                     kObj + "," + kObj + "]}";
  ListMeta meta;
  std::vector<std::string> items;
  ASSERT_TRUE(decode_list(body, meta, [&](std::string_view raw) { items.emplace_back(raw); }));
  EXPECT_EQ(meta.kind, "ConfigMapList");
  EXPECT_EQ(meta.resource_version, "42");
  EXPECT_EQ(meta.continue_token, "tok");
  EXPECT_EQ(meta.remaining_item_count.value(), 5);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(parse(items[1]), parse(kObj));
  ListMeta bad;
  std::string err;
  EXPECT_FALSE(decode_list("{\"items\":[1,", bad, [](std::string_view) {}, &err));
  EXPECT_FALSE(err.empty());
}

std::string stream_of(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    Value ev = Object{{"type", i % 2 ? "MODIFIED" : "ADDED"},
                      {"object", Object{{"metadata", Object{{"name", "o" + std::to_string(i)}, {"resourceVersion", std::to_string(i)}}}}}};
    s += serialize(ev) + "\n";
  }
  return s;
}

TEST(Decode, WatchChunkBoundariesAnywhere) {
  std::string stream = stream_of(20);
  for (std::size_t chunk = 1; chunk <= 37; ++chunk) {
    std::vector<std::string> names;
    WatchDecoder d([&](EventType t, std::string_view obj) { names.emplace_back(get_string(parse(obj), {"metadata", "name"})); },
                   "test");
    for (std::size_t i = 0; i < stream.size(); i += chunk) d.feed(std::string_view(stream).substr(i, chunk));
    d.finish();
    ASSERT_EQ(names.size(), 20u) << "chunk size " << chunk;
    for (int i = 0; i < 20; ++i) EXPECT_EQ(names[i], "o" + std::to_string(i));
  }
}

TEST(Decode, WatchSkipsMalformedLines) {
  std::string stream = R"({"type":"ADDED","object":{"metadata":{"name":"a"}}})"
                       "\n{broken\n"
                       R"({"type":"NOPE","object":{}})"
                       "\n"
                       R"({"object":{"metadata":{"name":"b"}}})"
                       "\n"
                       R"({"type":"ADDED","object":"string"})"
                       "\n\n"
                       R"({"object":{"metadata":{"name":"c"}},"type":"DELETED"})"
                       "\n"
                       R"({"type":"ERROR","object":{"kind":"Status","code":410}})";
  std::vector<std::pair<EventType, std::string>> got;
  WatchDecoder d([&](EventType t, std::string_view obj) { got.emplace_back(t, std::string(obj)); }, "test");
  d.feed(stream);
  d.finish();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].first, EventType::Added);
  EXPECT_EQ(got[1].first, EventType::Deleted);
  EXPECT_EQ(got[2].first, EventType::Error);
  EXPECT_EQ(d.skipped(), 4u);
}

}  // namespace
}  // namespace capstan::json
