#include "apiserver/storage/store.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace capstan::apiserver::storage {
namespace {

json::Value cm(const std::string& ns, const std::string& name, const std::string& v = "1") {
  return json::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"(","namespace":")" + ns +
                     R"("},"data":{"k":")" + v + R"("}})");
}

struct Recorder : Watcher {
  std::vector<std::pair<EventType, std::int64_t>> events;
  void on_event(const Event& e) override { events.emplace_back(e.type, e.rv); }
};

TEST(Store, CrudAndResourceVersions) {
  Store s({});
  auto a = s.create("configmaps", cm("ns1", "a"));
  EXPECT_EQ(a.rv, 1);
  EXPECT_EQ(json::get_string(*a, {"metadata", "resourceVersion"}), "1");
  EXPECT_THROW(s.create("configmaps", cm("ns1", "a")), AlreadyExistsError);
  auto same = s.update("configmaps", "ns1", "a", [](const Object& cur) { return *cur.value; });
  EXPECT_EQ(same.rv, 1) << "a write that changes nothing keeps the resourceVersion";
  auto b = s.update("configmaps", "ns1", "a", [](const Object& cur) {
    json::Value v = *cur.value;
    v.at("data").at("k") = "2";
    return v;
  });
  EXPECT_EQ(b.rv, 2);
  EXPECT_EQ(s.get("configmaps", "ns1", "a").rv, 2);
  EXPECT_THROW(s.update("configmaps", "ns1", "zz", [](const Object&) { return std::nullopt; }), NotFoundError);
  auto gone = s.remove("configmaps", "ns1", "a");
  EXPECT_EQ(gone.rv, 3);
  EXPECT_FALSE(s.get("configmaps", "ns1", "a"));
  EXPECT_EQ(s.current_rv(), 3);
}

TEST(Store, ListOrderNamespacesAndPaging) {
  Store s({});
  for (auto ns : {"b", "a", "c"})
    for (auto n : {"y", "x"}) s.create("configmaps", cm(ns, n));
  auto all = s.list("configmaps", "", "", 0);
  ASSERT_EQ(all.items.size(), 6u);
  EXPECT_EQ(json::get_string(*all.items[0], {"metadata", "namespace"}), "a");
  EXPECT_EQ(json::get_string(*all.items[0], {"metadata", "name"}), "x");
  auto in_b = s.list("configmaps", "b", "", 0);
  ASSERT_EQ(in_b.items.size(), 2u);
  auto p1 = s.list("configmaps", "", "", 4);
  EXPECT_EQ(p1.items.size(), 4u);
  EXPECT_TRUE(p1.more);
  EXPECT_EQ(p1.remaining, 2);
  auto p2 = s.list("configmaps", "", p1.last_key, 4);
  EXPECT_EQ(p2.items.size(), 2u);
  EXPECT_FALSE(p2.more);
}

TEST(Store, WatchReplaysHistoryAndCompactionExpires) {
  Store s({.history = 100});
  s.create("configmaps", cm("n", "a"));
  s.create("secrets", cm("n", "s"));
  s.create("configmaps", cm("n", "b"));
  auto r = std::make_shared<Recorder>();
  auto id = s.watch("configmaps", 1, r);
  ASSERT_EQ(r->events.size(), 1u);
  EXPECT_EQ(r->events[0].second, 3);
  s.remove("configmaps", "n", "a");
  ASSERT_EQ(r->events.size(), 2u);
  EXPECT_EQ(r->events[1].first, EventType::Deleted);
  s.unwatch(id);
  s.create("configmaps", cm("n", "c"));
  EXPECT_EQ(r->events.size(), 2u);
  s.compact();
  EXPECT_THROW(s.watch("configmaps", 2, std::make_shared<Recorder>()), TooOldError);
  EXPECT_NO_THROW(s.watch("configmaps", s.current_rv(), std::make_shared<Recorder>()));
}

TEST(Store, InitialEventsThenChanges) {
  Store s({});
  s.create("configmaps", cm("n", "a"));
  s.create("configmaps", cm("m", "b"));
  auto r = std::make_shared<Recorder>();
  std::int64_t done_rv = -1;
  s.watch("configmaps", -1, r, true, "n", [&](std::int64_t rv) { done_rv = rv; });
  ASSERT_EQ(r->events.size(), 1u);
  EXPECT_EQ(done_rv, 2);
  s.create("configmaps", cm("n", "c"));
  EXPECT_EQ(r->events.size(), 2u);
}

TEST(Store, HistoryWindowBounded) {
  Store s({.history = 3});
  for (int i = 0; i < 6; ++i) s.create("configmaps", cm("n", "o" + std::to_string(i)));
  EXPECT_EQ(s.oldest_rv(), 3);
  EXPECT_THROW(s.watch("configmaps", 2, std::make_shared<Recorder>()), TooOldError);
  auto r = std::make_shared<Recorder>();
  s.watch("configmaps", 3, r);
  EXPECT_EQ(r->events.size(), 3u);
}

TEST(Store, DurableAcrossReopen) {
  auto dir = std::filesystem::temp_directory_path() / ("capstan-store-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  {
    Store s({.data_dir = dir.string()});
    s.create("configmaps", cm("n", "a"));
    s.create("configmaps", cm("n", "b"));
    s.update("configmaps", "n", "a", [](const Object& cur) {
      json::Value v = *cur.value;
      v.at("data").at("k") = "changed";
      return v;
    });
    s.remove("configmaps", "n", "b");
  }
  {
    Store s({.data_dir = dir.string()});
    EXPECT_EQ(s.current_rv(), 4);
    auto a = s.get("configmaps", "n", "a");
    ASSERT_TRUE(a);
    EXPECT_EQ(json::get_string(*a, {"data", "k"}), "changed");
    EXPECT_EQ(a.rv, 3);
    EXPECT_FALSE(s.get("configmaps", "n", "b"));
    auto r = std::make_shared<Recorder>();
    s.watch("configmaps", 2, r);
    ASSERT_EQ(r->events.size(), 2u) << "history survives the restart";
    EXPECT_EQ(r->events[1].first, EventType::Deleted);
    EXPECT_EQ(s.create("configmaps", cm("n", "c")).rv, 5) << "resourceVersions keep increasing";
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace capstan::apiserver::storage
