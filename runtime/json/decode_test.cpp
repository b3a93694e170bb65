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
    std::vector<std::string> names, meta_names, versions;
    WatchDecoder d(
        [&](EventType, std::string_view obj, const MetaSummary& meta) {
          names.emplace_back(get_string(parse(obj), {"metadata", "name"}));
          meta_names.emplace_back(meta.name);
          versions.emplace_back(meta.resource_version);
        },
        "test");
    for (std::size_t i = 0; i < stream.size(); i += chunk) d.feed(std::string_view(stream).substr(i, chunk));
    d.finish();
    ASSERT_EQ(names.size(), 20u) << "chunk size " << chunk;
    for (int i = 0; i < 20; ++i) {
      EXPECT_EQ(names[i], "o" + std::to_string(i));
      EXPECT_EQ(meta_names[i], names[i]);
      EXPECT_EQ(versions[i], std::to_string(i));
    }
  }
}

TEST(Decode, SummarizeUnescapesStringsThatNeedIt) {
  const char* text = R"({"metadata":{"name":"n\u0061me","labels":{"k\"q":"caf\u00e9","plain":"v"},"namespace":"ns"}})";
  MetaSummary m;
  ASSERT_TRUE(summarize(text, m));
  EXPECT_EQ(m.name, "name");
  EXPECT_EQ(m.ns, "ns");
  ASSERT_EQ(m.labels.size(), 2u);
  EXPECT_EQ(m.labels[0].first, "k\"q");
  EXPECT_EQ(m.labels[0].second, "caf\xc3\xa9");
  EXPECT_EQ(m.labels[1].second, "v");
  // The views survive a move of the summary.
  MetaSummary moved = std::move(m);
  EXPECT_EQ(moved.name, "name");
  EXPECT_EQ(moved.labels[0].second, "caf\xc3\xa9");
}

// The decoder reads the object's text and its metadata in the same pass: the text handed out
// is exactly the object (whatever the key order and spacing), the metadata that of the object.
TEST(Decode, WatchReadsObjectTextAndMetadataInOnePass) {
  const std::string obj1 = R"({ "metadata" : { "name" : "a\u0062c", "namespace":"ns", "resourceVersion":"9",)"
                           R"( "managedFields":[{"manager":"m"}], "labels":{"x":"y"} } , "data":{"k":"}{"} })";
  const std::string obj2 = R"({"kind":"ConfigMap","metadata":{"name":"d","annotations":{"a":"b"}}})";
  std::string stream = R"({"type":"ADDED","object":)" + obj1 + "}\n" +  //
                       R"({ "object" : )" + obj2 + R"(  , "type" : "MODIFIED" })" + "\r\n";
  for (std::size_t chunk : {stream.size(), std::size_t{7}}) {
    std::vector<std::string> texts, stripped;
    std::vector<std::string> names, labels, annotations, versions;
    WatchDecoder d(
        [&](EventType, std::string_view obj, const MetaSummary& meta) {
          texts.emplace_back(obj);
          stripped.push_back(strip_managed_fields(obj, meta));
          names.emplace_back(meta.name);
          versions.emplace_back(meta.resource_version);
          for (const auto& [k, v] : meta.labels) labels.push_back(std::string(k) + "=" + std::string(v));
          for (const auto& [k, v] : meta.annotations) annotations.push_back(std::string(k) + "=" + std::string(v));
        },
        "test");
    for (std::size_t i = 0; i < stream.size(); i += chunk) d.feed(std::string_view(stream).substr(i, chunk));
    d.finish();
    ASSERT_EQ(texts.size(), 2u) << "chunk " << chunk;
    EXPECT_EQ(texts[0], obj1);
    EXPECT_EQ(texts[1], obj2);
    EXPECT_EQ(names, (std::vector<std::string>{"abc", "d"}));
    EXPECT_EQ(versions, (std::vector<std::string>{"9", ""}));
    EXPECT_EQ(labels, (std::vector<std::string>{"x=y"}));
    EXPECT_EQ(annotations, (std::vector<std::string>{"a=b"}));
    Value want = parse(obj1);
    want.at("metadata").as_object().erase("managedFields");
    EXPECT_EQ(parse(stripped[0]), want);
    EXPECT_EQ(d.skipped(), 0u);
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
  WatchDecoder d([&](EventType t, std::string_view obj, const json::MetaSummary&) { got.emplace_back(t, std::string(obj)); }, "test");
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
