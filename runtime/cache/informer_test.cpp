// Informers and the informer factory against the embedded API server: one shared informer per
// resource and scope, namespace and label-selector narrowing, the relist after 410 Gone
// telling handlers what changed while nobody watched, and a stop that cancels a slow list.
#include "runtime/cache/factory.h"
#include "runtime/cache/informer.h"
#include "testing/test_cluster.h"
#include "runtime/json/json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <set>

namespace capstan::cache {
namespace {
using namespace std::chrono_literals;
using integration::eventually;

const meta::GroupVersionResource kConfigMaps{"", "v1", "configmaps"};
const meta::GroupVersionResource kNamespaces{"", "v1", "namespaces"};

json::Value config_map(const std::string& ns, const std::string& name, const std::string& value,
                       std::map<std::string, std::string> labels = {}) {
  json::Object l;
  for (const auto& [k, v] : labels) l[k] = v;
  return json::Object{{"apiVersion", "v1"},
                      {"kind", "ConfigMap"},
                      {"metadata", json::Object{{"name", name}, {"namespace", ns}, {"labels", l}}},
                      {"data", json::Object{{"v", value}}}};
}

// What the handlers of an informer were told, as "add:ns/name", "update:ns/name", "delete:ns/name".
struct Recorder {
  std::mutex mu;
  std::vector<std::string> events;
  std::set<std::string> initial;

  Handlers handlers() {
    Handlers h;
    h.on_add = [this](const ObjectPtr& o, bool is_initial) {
      std::lock_guard<std::mutex> l(mu);
      events.push_back("add:" + std::string(o->key()));
      if (is_initial) initial.insert(std::string(o->key()));
    };
    h.on_update = [this](const ObjectPtr& a, const ObjectPtr& b) {
      std::lock_guard<std::mutex> l(mu);
      events.push_back("update:" + std::string(b->key()) + ":" + std::string(a->resource_version()) + "->" +
                       std::string(b->resource_version()));
    };
    h.on_delete = [this](const ObjectPtr& o) {
      std::lock_guard<std::mutex> l(mu);
      events.push_back("delete:" + std::string(o->key()));
    };
    return h;
  }
  bool has_prefix(const std::string& p) {
    std::lock_guard<std::mutex> l(mu);
    return std::any_of(events.begin(), events.end(), [&](const std::string& e) { return e.rfind(p, 0) == 0; });
  }
  std::vector<std::string> snapshot() {
    std::lock_guard<std::mutex> l(mu);
    return events;
  }
  void clear() {
    std::lock_guard<std::mutex> l(mu);
    events.clear();
  }
};

std::vector<std::string> keys_of(const Informer& inf) {
  std::vector<std::string> out;
  for (const auto& o : inf.store().list()) out.emplace_back(o->key());
  std::sort(out.begin(), out.end());
  return out;
}

class InformerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Once their kube-root-ca.crt is there, what an informer lists and is told is settled.
    for (const char* ns : {"a", "b"}) integration::create_namespace(client(), ns);
  }
  client::Client& client() { return cluster_.client(); }
  integration::TestCluster cluster_;
};

TEST_F(InformerTest, TheFactorySharesOneInformerPerResourceAndScope) {
  InformerFactory f(client(), {.namespace_restriction = "a"});
  Informer& one = f.informer({.gvr = kConfigMaps});
  Informer& same = f.informer({.gvr = kConfigMaps});
  EXPECT_EQ(&one, &same);
  EXPECT_EQ(one.options().ns, "a") << "the restriction narrows namespaced resources";
  Informer& explicit_a = f.informer({.gvr = kConfigMaps, .ns = "a"});
  EXPECT_EQ(&one, &explicit_a) << "an explicit namespace equal to the restriction is the same scope";
  Informer& labelled = f.informer({.gvr = kConfigMaps, .label_selector = "app=web"});
  EXPECT_NE(&one, &labelled);
  EXPECT_EQ(&labelled, &f.informer({.gvr = kConfigMaps, .label_selector = "app=web"}));
  Informer& namespaces = f.informer({.gvr = kNamespaces}, /*namespaced=*/false);
  EXPECT_EQ(namespaces.options().ns, "") << "cluster-scoped resources are not narrowed";
  EXPECT_EQ(f.informers().size(), 3u);

  client().create(kConfigMaps, "a", config_map("a", "x", "1"));
  f.start();
  ASSERT_TRUE(f.wait_for_sync(10s));
  EXPECT_TRUE(f.all_synced());
  // An informer asked for after the start runs at once.
  Informer& late = f.informer({.gvr = kConfigMaps, .ns = "b"});
  EXPECT_TRUE(late.wait_for_sync(10s));
  EXPECT_EQ(keys_of(one), (std::vector<std::string>{"a/kube-root-ca.crt", "a/x"}));
  f.stop();
}

TEST_F(InformerTest, NamespaceAndLabelSelectorsNarrowWhatIsCachedAndTold) {
  client().create(kConfigMaps, "a", config_map("a", "web", "1", {{"app", "web"}}));
  client().create(kConfigMaps, "a", config_map("a", "db", "1", {{"app", "db"}}));
  client().create(kConfigMaps, "b", config_map("b", "web", "1", {{"app", "web"}}));
  Informer in_a(client(), {.gvr = kConfigMaps, .ns = "a"});
  Informer webs(client(), {.gvr = kConfigMaps, .label_selector = "app=web"});
  Recorder seen_a, seen_webs;
  in_a.add_handlers(seen_a.handlers());
  webs.add_handlers(seen_webs.handlers());
  in_a.start();
  webs.start();
  ASSERT_TRUE(in_a.wait_for_sync(10s));
  ASSERT_TRUE(webs.wait_for_sync(10s));
  EXPECT_EQ(keys_of(in_a), (std::vector<std::string>{"a/db", "a/kube-root-ca.crt", "a/web"}));
  EXPECT_EQ(keys_of(webs), (std::vector<std::string>{"a/web", "b/web"}));
  EXPECT_EQ(seen_a.initial, (std::set<std::string>{"a/db", "a/kube-root-ca.crt", "a/web"}));
  EXPECT_EQ(seen_webs.initial, (std::set<std::string>{"a/web", "b/web"}));

  // Watch events are narrowed the same way.
  seen_a.clear();
  seen_webs.clear();
  client().create(kConfigMaps, "b", config_map("b", "db", "1", {{"app", "db"}}));
  client().create(kConfigMaps, "b", config_map("b", "web2", "1", {{"app", "web"}}));
  client().create(kConfigMaps, "a", config_map("a", "marker", "1", {{"app", "web"}}));
  ASSERT_TRUE(eventually([&] { return seen_a.has_prefix("add:a/marker") && seen_webs.has_prefix("add:a/marker"); }, 10s));
  EXPECT_EQ(seen_a.snapshot(), (std::vector<std::string>{"add:a/marker"}));
  EXPECT_EQ(seen_webs.snapshot(), (std::vector<std::string>{"add:b/web2", "add:a/marker"}));
  EXPECT_EQ(in_a.get("b", "db"), nullptr);
  ASSERT_NE(webs.get("b", "web2"), nullptr);
  EXPECT_EQ(webs.get("b", "web2")->name(), "web2");
  in_a.stop();
  webs.stop();
}

// keep_fields: the cached objects carry only the fields named (and their identity and labels),
// from the list and from watch events alike; the informer is not shared with a whole-object one.
TEST_F(InformerTest, KeepFieldsCachesOnlyTheFieldsNamed) {
  auto big = [](const std::string& name, const std::string& v) {
    json::Value cm = config_map("a", name, v, {{"app", "web"}});
    cm.as_object()["data"].as_object()["bulk"] = std::string(4096, 'x');
    cm.as_object()["metadata"].as_object()["annotations"] = json::Object{{"note", std::string(1024, 'y')}};
    return cm;
  };
  client().create(kConfigMaps, "a", big("listed", "1"));
  InformerOptions narrow{.gvr = kConfigMaps, .ns = "a", .keep_fields = {{"data", "v"}}};
  Informer in(client(), narrow);
  EXPECT_NE(narrow.identity(), InformerOptions({.gvr = kConfigMaps, .ns = "a"}).identity());
  in.start();
  ASSERT_TRUE(in.wait_for_sync(10s));
  client().create(kConfigMaps, "a", big("watched", "2"));
  ASSERT_TRUE(eventually([&] { return in.get("a", "watched") != nullptr; }, 10s));
  for (const auto& [name, v] : {std::pair{"listed", "1"}, std::pair{"watched", "2"}}) {
    const json::Value cached = in.get("a", name)->value();
    EXPECT_EQ(json::get_string(cached, {"data", "v"}), v) << name;
    EXPECT_EQ(json::find(cached, {"data", "bulk"}), nullptr) << name;
    EXPECT_EQ(json::find(cached, {"metadata", "annotations"}), nullptr) << name;
    EXPECT_EQ(in.get("a", name)->label("app"), "web") << name;
    EXPECT_EQ(json::get_string(cached, {"kind"}), "ConfigMap") << name;
    EXPECT_LT(in.get("a", name)->json().size(), 600u) << name;
  }
  in.stop();
}

// Changes made while the informer was not watching reach the handlers through the relist
// that follows a 410 Gone: an update, an add and a delete, each once.
TEST_F(InformerTest, TheRelistAfterGoneReportsWhatChangedMeanwhile) {
  client().create(kConfigMaps, "a", config_map("a", "kept", "1"));
  client().create(kConfigMaps, "a", config_map("a", "changed", "1"));
  client().create(kConfigMaps, "a", config_map("a", "removed", "1"));
  Informer inf(client(), {.gvr = kConfigMaps, .ns = "a"});
  Recorder seen;
  inf.add_handlers(seen.handlers());
  inf.start();
  ASSERT_TRUE(inf.wait_for_sync(10s));
  auto changed_rv = std::string(inf.get("a", "changed")->resource_version());
  inf.stop();
  seen.clear();

  client().update(kConfigMaps, "a", config_map("a", "changed", "2"));
  client().remove(kConfigMaps, "a", "removed");
  client().create(kConfigMaps, "a", config_map("a", "added", "1"));
  // The history the informer would resume from is gone: its watch gets 410 and it relists.
  cluster_.client().raw("POST", "/debug/capstan/compact", "{}", "application/json");
  auto new_rv = std::string(json::get_string(client().get(kConfigMaps, "a", "changed"), {"metadata", "resourceVersion"}));

  inf.start();
  ASSERT_TRUE(eventually([&] { return seen.snapshot().size() >= 3; }, 10s)) << ::testing::PrintToString(seen.snapshot());
  std::this_thread::sleep_for(100ms);  // nothing more arrives
  auto events = seen.snapshot();
  std::sort(events.begin(), events.end());
  EXPECT_EQ(events, (std::vector<std::string>{"add:a/added", "delete:a/removed", "update:a/changed:" + changed_rv + "->" + new_rv}));
  EXPECT_EQ(seen.initial.count("a/added"), 0u) << "a relist's adds are not initial ones";
  EXPECT_EQ(keys_of(inf), (std::vector<std::string>{"a/added", "a/changed", "a/kept", "a/kube-root-ca.crt"}));
  EXPECT_GE(inf.stats().relists_after_gone, 1u);
  inf.stop();
}

TEST_F(InformerTest, StopCancelsAListInFlight) {
  cluster_.server().faults().latency_ms = 8000;  // every request waits 8 s
  Informer inf(client(), {.gvr = kConfigMaps});
  inf.start();
  std::this_thread::sleep_for(200ms);  // the first list is waiting for the server
  auto t0 = std::chrono::steady_clock::now();
  inf.stop();
  auto took = std::chrono::steady_clock::now() - t0;
  cluster_.server().faults().latency_ms = 0;
  EXPECT_LT(took, 4s) << "stop() waited for the list";
  EXPECT_FALSE(inf.has_synced());
  EXPECT_FALSE(inf.wait_for_sync(10ms));
}

}  // namespace
}  // namespace capstan::cache
