// The controller builder against the embedded API server: For enqueues the object itself,
// Owns maps a child to its controller owner through the owner informer's UID index, Watches
// goes through its map function, and predicates filter each source; apply_if_changed skips
// what the informer shows applied.
#include "runtime/controller/apply.h"
#include "runtime/controller/manager.h"
#include "testing/test_cluster.h"
#include "runtime/json/json.h"
#include "runtime/log/log.h"
#include "runtime/meta/object.h"
#include "runtime/metrics/registry.h"

#include <gtest/gtest.h>

#include <deque>

#include <future>
#include <mutex>
#include <set>
#include <thread>

namespace capstan::controller {
namespace {
using namespace std::chrono_literals;
using integration::eventually;

const ResourceType kConfigMapType{{"", "v1", "configmaps"}, "ConfigMap", true};
const ResourceType kSecretType{{"", "v1", "secrets"}, "Secret", true};
const meta::GroupVersionResource kNamespaces{"", "v1", "namespaces"};

// The requests a reconciler was called with, in order.
struct Calls {
  std::mutex mu;
  std::vector<std::string> keys;
  Reconciler reconciler() {
    return [this](const Request& r, Context&) {
      std::lock_guard<std::mutex> l(mu);
      keys.push_back(r.key());
      return Result::done();
    };
  }
  bool saw(const std::string& key) {
    std::lock_guard<std::mutex> l(mu);
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  }
  std::set<std::string> set() {
    std::lock_guard<std::mutex> l(mu);
    return {keys.begin(), keys.end()};
  }
  void clear() {
    std::lock_guard<std::mutex> l(mu);
    keys.clear();
  }
};

json::Value config_map(const std::string& name, std::map<std::string, std::string> labels = {}) {
  json::Object l;
  for (const auto& [k, v] : labels) l[k] = v;
  return json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", json::Object{{"name", name}, {"namespace", "t"}, {"labels", l}}}};
}

json::Value secret(const std::string& name, json::Array owners = {}, std::map<std::string, std::string> labels = {}) {
  json::Object l;
  for (const auto& [k, v] : labels) l[k] = v;
  return json::Object{{"apiVersion", "v1"},
                      {"kind", "Secret"},
                      {"metadata", json::Object{{"name", name}, {"namespace", "t"}, {"labels", l}, {"ownerReferences", owners}}}};
}

json::Value owner_ref(const std::string& name, const std::string& uid, bool controller) {
  return json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", name}, {"uid", uid}, {"controller", controller}};
}

class BuilderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_.client().create(kNamespaces, "", json::Object{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::Object{{"name", "t"}}}});
    ManagerOptions o;
    o.metrics_bind_address = "0";
    o.health_probe_bind_address = "0";
    o.registry = &registry_;
    o.graceful_shutdown = 2s;
    mgr_ = std::make_unique<Manager>(cluster_.client(), o);
  }
  void run() {
    run_ = std::async(std::launch::async, [this] { return mgr_->run(); });
    ASSERT_TRUE(eventually([&] { return mgr_->is_leader(); }, 10s)) << "the manager did not start its controllers";
  }
  void TearDown() override {
    if (run_.valid()) {
      mgr_->stop();
      EXPECT_EQ(run_.get(), 0);
    }
    mgr_.reset();
  }
  client::Client& client() { return cluster_.client(); }
  json::Value create(const meta::GroupVersionResource& gvr, const json::Value& obj) { return client().create(gvr, "t", obj); }
  // What reconcilers and map functions record lives in the fixture: the manager's workers and
  // informers may still call them after a test body ends, until TearDown stops the manager.
  Calls& new_calls() { return calls_.emplace_back(); }

  integration::TestCluster cluster_;
  metrics::Registry registry_;
  std::deque<Calls> calls_;
  std::atomic<int> mapped_{0};
  std::unique_ptr<Manager> mgr_;
  std::future<int> run_;
};

TEST_F(BuilderTest, OwnsMapsAChildToItsControllerOwnerByUid) {
  Calls& calls = new_calls();
  mgr_->controller("owners").for_(kConfigMapType).owns(kSecretType).complete(calls.reconciler());
  auto owner = create(kConfigMapType.gvr, config_map("owner"));
  std::string uid(meta::uid_of(owner));
  run();
  ASSERT_TRUE(eventually([&] { return calls.saw("t/owner"); }, 10s)) << "For did not enqueue the object";
  calls.clear();

  // The reference names a ConfigMap that does not exist, but carries the owner's UID: the
  // UID index finds the real owner.
  create(kSecretType.gvr, secret("child", json::Array{owner_ref("renamed", uid, true)}));
  ASSERT_TRUE(eventually([&] { return calls.saw("t/owner"); }, 10s)) << "the child's event did not reach its owner";
  // A non-controller reference does not enqueue; a controller reference to an owner not in
  // the cache (yet) falls back to its name.
  create(kSecretType.gvr, secret("shared", json::Array{owner_ref("owner-too", "0000-not-a-uid", false)}));
  create(kSecretType.gvr, secret("orphan", json::Array{owner_ref("missing", "1111-not-cached", true)}));
  ASSERT_TRUE(eventually([&] { return calls.saw("t/missing"); }, 10s));
  EXPECT_EQ(calls.set(), (std::set<std::string>{"t/owner", "t/missing"}));
  EXPECT_FALSE(calls.saw("t/child"));
  EXPECT_FALSE(calls.saw("t/owner-too"));
  EXPECT_FALSE(calls.saw("t/renamed"));
}

TEST_F(BuilderTest, WatchesGoesThroughItsMapFunctionAndPredicatesFilterEachSource) {
  Calls& calls = new_calls();
  std::atomic<int>& mapped = mapped_;
  mgr_->controller("mapped")
      .for_(kConfigMapType, {label_selector(meta::LabelSelector::parse("reconcile=yes"))})
      .watches(kSecretType,
               [&](const cache::ObjectPtr& o) {
                 ++mapped;
                 std::vector<Request> out;
                 for (std::size_t i = 0; i < o->label_count(); ++i) {
                   auto [k, v] = o->label(i);
                   if (k == "for") out.push_back({std::string(o->ns()), std::string(v)});
                 }
                 return out;
               },
               {label_selector(meta::LabelSelector::parse("for"))})
      .complete(calls.reconciler());
  run();
  // For, with a predicate: only labelled ConfigMaps. One worker, events in order: once the
  // marker is reconciled, the unlabelled one would have been before it.
  create(kConfigMapType.gvr, config_map("ignored"));
  create(kConfigMapType.gvr, config_map("wanted", {{"reconcile", "yes"}}));
  ASSERT_TRUE(eventually([&] { return calls.saw("t/wanted"); }, 10s));
  EXPECT_FALSE(calls.saw("t/ignored"));

  // Watches: the map function turns a Secret into requests; the predicate keeps Secrets
  // without the label from reaching it at all.
  create(kSecretType.gvr, secret("unlabelled"));
  create(kSecretType.gvr, secret("pointer", {}, {{"for", "target"}}));
  ASSERT_TRUE(eventually([&] { return calls.saw("t/target"); }, 10s));
  EXPECT_EQ(mapped.load(), 1) << "the predicate let an unlabelled Secret through to the map function";
  EXPECT_EQ(calls.set(), (std::set<std::string>{"t/wanted", "t/target"}));
}

TEST_F(BuilderTest, ControllersShareInformersAndForIsRequired) {
  Calls& a = new_calls();
  Calls& b = new_calls();
  mgr_->controller("first").for_(kConfigMapType).complete(a.reconciler());
  mgr_->controller("second").for_(kConfigMapType).owns(kSecretType).complete(b.reconciler());
  EXPECT_EQ(mgr_->informers().informers().size(), 2u) << "one ConfigMap informer and one Secret informer";
  EXPECT_THROW(mgr_->controller("nothing").owns(kSecretType).complete(a.reconciler()), std::invalid_argument);
  run();
  create(kConfigMapType.gvr, config_map("both"));
  ASSERT_TRUE(eventually([&] { return a.saw("t/both") && b.saw("t/both"); }, 10s));
}

// A resource the manager cannot list (here: no such API; in a cluster, a missing RBAC rule or
// CRD) holds back only the controller reading it: the others start as their own caches sync,
// and an error names the waiting controller and the resource.
TEST_F(BuilderTest, AControllerWhoseCacheCannotSyncHoldsBackOnlyItself) {
  ManagerOptions o;
  o.metrics_bind_address = "0";
  o.health_probe_bind_address = "0";
  o.registry = &registry_;
  o.cache_sync_timeout = 300ms;
  mgr_ = std::make_unique<Manager>(client(), o);
  const ResourceType widgets{{"nosuch.capstan.dev", "v1", "widgets"}, "Widget", true};
  Calls& maps = new_calls();
  Calls& widget_calls = new_calls();
  mgr_->controller("maps").for_(kConfigMapType).complete(maps.reconciler());
  auto& stuck = mgr_->controller("widgets").for_(widgets).complete(widget_calls.reconciler());
  create(kConfigMapType.gvr, config_map("works"));
  log::init(log::Format::Json, 0);
  ::testing::internal::CaptureStderr();
  run();
  bool reconciled = eventually([&] { return maps.saw("t/works"); }, 10s);
  std::this_thread::sleep_for(500ms);  // past the cache sync timeout
  std::string logs = ::testing::internal::GetCapturedStderr();
  log::init(log::Format::Text, 0);
  EXPECT_TRUE(reconciled) << "the ConfigMap controller waited for the widgets cache";
  EXPECT_FALSE(stuck.started());
  EXPECT_EQ(stuck.unsynced_sources(), (std::vector<std::string>{"nosuch.capstan.dev/v1/widgets"}));
  EXPECT_NE(logs.find("\"controller\":\"widgets\""), std::string::npos) << logs;
  EXPECT_NE(logs.find("\"resources\":\"nosuch.capstan.dev/v1/widgets\""), std::string::npos) << logs;
}

}  // namespace
}  // namespace capstan::controller

namespace capstan::controller {
namespace {

// apply_if_changed (apply.h) with the manager's informer of the children: an unchanged child is
// not sent again, a changed one is, and a hand edit of an applied field is undone.
TEST_F(BuilderTest, ApplyIfChangedSendsOnlyWhatChangedAndUndoesHandEdits) {
  cache::Informer& owned = mgr_->informer(kConfigMapType);
  run();
  ASSERT_TRUE(owned.wait_for_sync(10s));
  json::Value desired = config_map("child");
  desired.as_object()["data"] = json::Object{{"rules.yaml", "groups: []"}};
  auto cached_has = [&](std::string_view value) {
    auto o = owned.get("t", "child");
    return o && json::get_string(o->value(), {"data", "rules.yaml"}) == value;
  };

  EXPECT_TRUE(apply_if_changed(client(), owned, kConfigMapType.gvr, desired, "test"));
  ASSERT_TRUE(eventually([&] { return cached_has("groups: []"); }, 10s));
  EXPECT_FALSE(apply_if_changed(client(), owned, kConfigMapType.gvr, desired, "test")) << "unchanged: nothing is sent";

  // By hand: the value changed (the digest annotation stays): applied again, and restored.
  client().patch(kConfigMapType.gvr, "t", "child", client::PatchType::Merge, std::string_view(R"({"data":{"rules.yaml":"edited"}})"));
  ASSERT_TRUE(eventually([&] { return cached_has("edited"); }, 10s));
  EXPECT_TRUE(apply_if_changed(client(), owned, kConfigMapType.gvr, desired, "test"));
  EXPECT_EQ(json::get_string(client().get(kConfigMapType.gvr, "t", "child"), {"data", "rules.yaml"}), "groups: []");

  // A key dropped from what is applied: the digest differs, so it is sent and the key goes.
  ASSERT_TRUE(eventually([&] { return cached_has("groups: []"); }, 10s));
  desired.as_object()["data"] = json::Object{{"other.yaml", "x"}};
  EXPECT_TRUE(apply_if_changed(client(), owned, kConfigMapType.gvr, desired, "test"));
  EXPECT_EQ(json::find(client().get(kConfigMapType.gvr, "t", "child"), {"data", "rules.yaml"}), nullptr);
}

}  // namespace
}  // namespace capstan::controller
