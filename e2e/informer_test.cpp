// runtime/cache informers against either backend: a 10,000-object sync, every
// later change seen exactly once in order, resumption across a server restart, and a relist
// after 410 Gone that reports what was deleted meanwhile.
#include "testing/cluster.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/client/config.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <thread>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const meta::GroupVersionResource kConfigMaps{"", "v1", "configmaps"};
// The test's own ConfigMaps (a real cluster has kube-root-ca.crt in every namespace too).
const std::string kOurs = "test=informer";

json::Value configmap(const std::string& name, const std::string& value) {
  return json::Object{{"apiVersion", "v1"},
                      {"kind", "ConfigMap"},
                      {"metadata", json::Object{{"name", name}, {"namespace", "default"}, {"labels", json::Object{{"test", "informer"}}}}},
                      {"data", json::Object{{"v", value}, {"pad", std::string(1500, 'x')}}}};
}

// Records, per object, the sequence of (event, data.v) the handlers saw.
struct Recorder {
  std::mutex mu;
  std::map<std::string, std::vector<std::string>> seen;
  std::size_t initial = 0;

  cache::Handlers handlers() {
    cache::Handlers h;
    h.on_add = [this](const cache::ObjectPtr& o, bool init) {
      std::lock_guard<std::mutex> l(mu);
      if (init) {
        ++initial;
        return;
      }
      seen[std::string(o->name())].push_back("add:" + value(*o));
    };
    h.on_update = [this](const cache::ObjectPtr&, const cache::ObjectPtr& o) {
      std::lock_guard<std::mutex> l(mu);
      seen[std::string(o->name())].push_back("update:" + value(*o));
    };
    h.on_delete = [this](const cache::ObjectPtr& o) {
      std::lock_guard<std::mutex> l(mu);
      seen[std::string(o->name())].push_back("delete");
    };
    return h;
  }
  static std::string value(const cache::CachedObject& o) { return std::string(json::get_string(o.value(), {"data", "v"})); }
  std::size_t count() {
    std::lock_guard<std::mutex> l(mu);
    std::size_t n = 0;
    for (auto& [k, v] : seen) n += v.size();
    return n;
  }
  std::vector<std::string> of(const std::string& name) {
    std::lock_guard<std::mutex> l(mu);
    return seen[name];
  }
};

class InformerE2E : public ::testing::TestWithParam<Backend> {
 protected:
  // `durable`: the embedded server keeps its store on disk (etcd always does);
  // `compactable`: compact() makes older resourceVersions 410 on either backend.
  void start(bool durable, bool compactable = false) {
    dir_ = std::make_unique<TempDir>("informer-" + to_string(GetParam()));
    ClusterOptions o;
    if (durable) o.data_dir = dir_->file("data");
    o.compactable_history = compactable;
    server_ = make_cluster(GetParam(), *dir_, o);
    server_->start();
    auto cfg = client::load_kubeconfig(server_->kubeconfig());
    cfg.qps = 0;  // tests create objects as fast as they can
    client_ = std::make_unique<client::Client>(cfg);
  }
  void TearDown() override {
    if (HasFailure() && server_) std::cerr << "apiserver log:\n" << server_->logs().substr(0, 20000) << std::endl;
  }
  void create_many(int n, const std::string& prefix) {
    std::atomic<int> next{0};
    std::vector<std::thread> ts;
    for (int t = 0; t < 4; ++t) {
      ts.emplace_back([&] {
        for (int i; (i = next++) < n;) client_->create(kConfigMaps, "default", configmap(prefix + std::to_string(i), "0"));
      });
    }
    for (auto& t : ts) t.join();
  }
  void set_value(const std::string& name, const std::string& v) {
    client_->patch(kConfigMaps, "default", name, client::PatchType::Merge, json::Value(json::Object{{"data", json::Object{{"v", v}}}}));
  }

  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<Cluster> server_;
  std::unique_ptr<client::Client> client_;
};

TEST_P(InformerE2E, SyncsTenThousandThenSeesEveryChangeOnceInOrder) {
  start(false);
  create_many(10000, "cm-");
  Recorder rec;
  cache::Informer inf(*client_, {.gvr = kConfigMaps, .ns = "default", .label_selector = kOurs});
  inf.add_handlers(rec.handlers());
  inf.start();
  ASSERT_TRUE(inf.wait_for_sync(60s));
  EXPECT_EQ(inf.store().size(), 10000u);
  EXPECT_EQ(rec.initial, 10000u);
  // 200 objects: create, update twice, delete; interleaved across objects.
  for (int i = 0; i < 200; ++i) client_->create(kConfigMaps, "default", configmap("new-" + std::to_string(i), "a"));
  for (int i = 0; i < 200; ++i) set_value("new-" + std::to_string(i), "b");
  for (int i = 0; i < 200; ++i) set_value("new-" + std::to_string(i), "c");
  for (int i = 0; i < 200; ++i) client_->remove(kConfigMaps, "default", "new-" + std::to_string(i));
  for (int i = 0; i < 100; ++i) set_value("cm-" + std::to_string(i), "x");
  ASSERT_TRUE(eventually([&] { return rec.count() == 900; }, 30s)) << rec.count();
  for (int i = 0; i < 200; ++i) {
    EXPECT_EQ(rec.of("new-" + std::to_string(i)), (std::vector<std::string>{"add:a", "update:b", "update:c", "delete"})) << i;
  }
  for (int i = 0; i < 100; ++i) EXPECT_EQ(rec.of("cm-" + std::to_string(i)), (std::vector<std::string>{"update:x"}));
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(rec.count(), 900u) << "no duplicates arrive later";
  EXPECT_EQ(inf.store().size(), 10000u);
  inf.stop();
}

TEST_P(InformerE2E, ResumesAcrossAServerRestartWithoutMissingOrRepeating) {
  start(true);
  create_many(50, "cm-");
  Recorder rec;
  cache::Informer inf(*client_, {.gvr = kConfigMaps, .ns = "default", .label_selector = kOurs});
  inf.add_handlers(rec.handlers());
  inf.start();
  ASSERT_TRUE(inf.wait_for_sync(30s));
  set_value("cm-1", "before");
  ASSERT_TRUE(eventually([&] { return rec.count() == 1; }, 10s));
  server_->restart();
  // Changes made right after the restart, possibly before the informer reconnected.
  set_value("cm-2", "after");
  client_->create(kConfigMaps, "default", configmap("born-after", "n"));
  client_->remove(kConfigMaps, "default", "cm-3");
  ASSERT_TRUE(eventually([&] { return rec.count() == 4; }, 30s)) << rec.count();
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(rec.count(), 4u);
  EXPECT_EQ(rec.of("cm-1"), (std::vector<std::string>{"update:before"}));
  EXPECT_EQ(rec.of("cm-2"), (std::vector<std::string>{"update:after"}));
  EXPECT_EQ(rec.of("born-after"), (std::vector<std::string>{"add:n"}));
  EXPECT_EQ(rec.of("cm-3"), (std::vector<std::string>{"delete"}));
  // The embedded server keeps its history across a restart, so the watch resumes where it
  // was; kube-apiserver rebuilds its watch cache from etcd's current revision and may answer
  // the resume with 410, after which the relist must still deliver each change once (above).
  if (GetParam() == Backend::Embedded) EXPECT_EQ(inf.stats().relists_after_gone, 0u) << "the watch resumed from its resourceVersion";
  EXPECT_EQ(inf.store().size(), 50u);
  inf.stop();
}

TEST_P(InformerE2E, RelistsAfterGoneAndReportsWhatVanished) {
  start(false, true);
  create_many(20, "cm-");
  Recorder rec;
  cache::Informer inf(*client_, {.gvr = kConfigMaps, .ns = "default", .label_selector = kOurs});
  inf.add_handlers(rec.handlers());
  inf.start();
  ASSERT_TRUE(inf.wait_for_sync(30s));
  // The informer is away (as after a partition) while objects change and the server
  // compacts its history: its resume resourceVersion is then too old.
  inf.stop();
  for (int i = 0; i < 5; ++i) client_->remove(kConfigMaps, "default", "cm-" + std::to_string(i));
  set_value("cm-10", "changed");
  server_->compact();
  inf.start();
  ASSERT_TRUE(eventually([&] { return inf.stats().relists_after_gone >= 1; }, 30s)) << "no 410 seen";
  ASSERT_TRUE(eventually([&] { return inf.store().size() == 15; }, 30s)) << inf.store().size();
  for (int i = 0; i < 5; ++i) EXPECT_EQ(rec.of("cm-" + std::to_string(i)), (std::vector<std::string>{"delete"})) << i;
  EXPECT_EQ(rec.of("cm-10"), (std::vector<std::string>{"update:changed"}));
  inf.stop();
}

CAPSTAN_E2E_BACKENDS(InformerE2E);

}  // namespace
}  // namespace capstan::e2e
