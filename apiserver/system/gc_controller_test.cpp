#include "apiserver/system/gc_controller.h"
#include "apiserver/system/test_env.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::system {
namespace {

using testing::Env;
using testing::eventually;
using testing::owner_ref;

class GcControllerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    env.create_namespace("gc");
    gc.start();
  }
  void TearDown() override { gc.stop(); }

  json::Array refs_of(const json::Value& obj) {
    const auto* a = json::get_array(obj, {"metadata", "ownerReferences"});
    return a ? *a : json::Array{};
  }

  Env env;
  GcController gc{env.service};
};

TEST_F(GcControllerTest, BackgroundDeletionCascadesThroughAChain) {
  auto a = env.create_owned("ConfigMap", "gc", "a");
  auto b = env.create_owned("Secret", "gc", "b", {owner_ref(a)});
  auto c = env.create_owned("ConfigMap", "gc", "c", {owner_ref(b)});
  env.create_owned("Secret", "gc", "d", {owner_ref(c)});
  env.create_owned("ConfigMap", "gc", "unrelated");

  env.remove("configmaps", "gc", "a", "Background");
  EXPECT_TRUE(eventually([&] {
    return !env.exists("secrets", "gc", "b") && !env.exists("configmaps", "gc", "c") && !env.exists("secrets", "gc", "d");
  }));
  EXPECT_TRUE(env.exists("configmaps", "gc", "unrelated"));
}

TEST_F(GcControllerTest, DependentWithAnotherLiveOwnerLosesOnlyTheDanglingReference) {
  auto o1 = env.create_owned("ConfigMap", "gc", "o1");
  auto o2 = env.create_owned("ConfigMap", "gc", "o2");
  env.create_owned("Secret", "gc", "dep", {owner_ref(o1), owner_ref(o2)});

  env.remove("configmaps", "gc", "o1");
  ASSERT_TRUE(eventually([&] { return refs_of(env.get("secrets", "gc", "dep")).size() == 1; }));
  auto dep = env.get("secrets", "gc", "dep");
  auto refs = refs_of(dep);
  EXPECT_EQ(json::get_string(refs[0], {"uid"}), meta::uid_of(o2));
  // The write went through the Service: the removed reference left the creator's managed fields.
  const auto* mf = json::get_array(dep, {"metadata", "managedFields"});
  ASSERT_NE(mf, nullptr);
  std::string fields = json::serialize(*mf);
  EXPECT_EQ(fields.find(std::string(meta::uid_of(o1))), std::string::npos) << fields;
  EXPECT_NE(fields.find(std::string(meta::uid_of(o2))), std::string::npos) << fields;
}

TEST_F(GcControllerTest, ForegroundDeletionKeepsTheOwnerUntilBlockingDependentsAreGone) {
  auto owner = env.create_owned("ConfigMap", "gc", "owner");
  env.create_owned("Secret", "gc", "blocker", {owner_ref(owner, true)}, {"example.com/hold"});
  env.create_owned("Secret", "gc", "free", {owner_ref(owner, false)});

  env.remove("configmaps", "gc", "owner", "Foreground");
  // The blocking dependent is deleted (it waits on its own finalizer), the owner waits for it.
  ASSERT_TRUE(eventually([&] { return meta::is_deleting(env.get("secrets", "gc", "blocker")); }));
  ASSERT_TRUE(eventually([&] { return !env.exists("secrets", "gc", "free"); }));
  auto waiting = env.get("configmaps", "gc", "owner");
  ASSERT_TRUE(waiting.is_object());
  EXPECT_TRUE(meta::is_deleting(waiting));
  EXPECT_TRUE(meta::has_finalizer(waiting, "foregroundDeletion"));

  env.clear_finalizers("secrets", "gc", "blocker");
  EXPECT_TRUE(eventually([&] { return !env.exists("configmaps", "gc", "owner"); }));
  EXPECT_FALSE(env.exists("secrets", "gc", "blocker"));
}

TEST_F(GcControllerTest, ForegroundDeletionOfAChainRemovesEverything) {
  auto a = env.create_owned("ConfigMap", "gc", "a");
  auto b = env.create_owned("Secret", "gc", "b", {owner_ref(a, true)});
  auto c = env.create_owned("ConfigMap", "gc", "c", {owner_ref(b, true)});
  env.create_owned("Secret", "gc", "d", {owner_ref(c, true)});

  auto start = std::chrono::steady_clock::now();
  env.remove("configmaps", "gc", "a", "Foreground");
  EXPECT_TRUE(eventually([&] {
    return !env.exists("configmaps", "gc", "a") && !env.exists("secrets", "gc", "b") &&
           !env.exists("configmaps", "gc", "c") && !env.exists("secrets", "gc", "d");
  }));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2)) << "a small tree goes promptly";
}

TEST_F(GcControllerTest, OrphanDeletionLeavesDependentsWithoutTheReference) {
  auto owner = env.create_owned("ConfigMap", "gc", "owner");
  auto other = env.create_owned("ConfigMap", "gc", "other");
  env.create_owned("Secret", "gc", "only", {owner_ref(owner)});
  env.create_owned("Secret", "gc", "shared", {owner_ref(owner), owner_ref(other)});

  env.remove("configmaps", "gc", "owner", "Orphan");
  ASSERT_TRUE(eventually([&] { return !env.exists("configmaps", "gc", "owner"); }));
  auto only = env.get("secrets", "gc", "only");
  ASSERT_TRUE(only.is_object());
  EXPECT_EQ(json::find(only, {"metadata", "ownerReferences"}), nullptr);
  auto shared = env.get("secrets", "gc", "shared");
  ASSERT_EQ(refs_of(shared).size(), 1u);
  EXPECT_EQ(json::get_string(refs_of(shared)[0], {"uid"}), meta::uid_of(other));
}

TEST_F(GcControllerTest, DependentOfAnOwnerThatNeverExistedIsCollected) {
  json::Value ghost = json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", json::Object{{"name", "ghost"}, {"uid", "00000000-0000-0000-0000-000000000001"}}}};
  env.create_owned("Secret", "gc", "orphaned", {owner_ref(ghost)});
  // Same name as a live owner but another uid: that owner is absent too.
  env.create_owned("ConfigMap", "gc", "live");
  json::Value impostor = json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", json::Object{{"name", "live"}, {"uid", "00000000-0000-0000-0000-000000000002"}}}};
  env.create_owned("Secret", "gc", "mismatched", {owner_ref(impostor)});
  EXPECT_TRUE(eventually([&] { return !env.exists("secrets", "gc", "orphaned") && !env.exists("secrets", "gc", "mismatched"); }));
  EXPECT_TRUE(env.exists("configmaps", "gc", "live"));
}

TEST_F(GcControllerTest, OwnerInAnotherNamespaceNeverResolves) {
  env.create_namespace("elsewhere");
  auto owner = env.create_owned("ConfigMap", "elsewhere", "owner");
  env.create_owned("Secret", "gc", "cross", {owner_ref(owner)});
  EXPECT_TRUE(eventually([&] { return !env.exists("secrets", "gc", "cross"); }));
  EXPECT_TRUE(env.exists("configmaps", "elsewhere", "owner"));
}

TEST_F(GcControllerTest, ClusterScopedOwnerIsResolvedAtClusterScope) {
  auto role = env.create("clusterroles.rbac.authorization.k8s.io", "",
                         json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "ClusterRole"},
                                      {"metadata", json::Object{{"name", "owner-role"}}}});
  env.create_owned("ConfigMap", "gc", "by-role", {owner_ref(role)});
  // Give the collector a chance to (wrongly) act, then delete the owner.
  env.create_owned("ConfigMap", "gc", "marker", {json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", "nope"}, {"uid", "x"}}});
  ASSERT_TRUE(eventually([&] { return !env.exists("configmaps", "gc", "marker"); }));
  EXPECT_TRUE(env.exists("configmaps", "gc", "by-role"));
  env.remove("clusterroles.rbac.authorization.k8s.io", "", "owner-role");
  EXPECT_TRUE(eventually([&] { return !env.exists("configmaps", "gc", "by-role"); }));
}

TEST_F(GcControllerTest, ReferenceToAnUnservedKindLeavesTheDependentAlone) {
  env.create_owned("Secret", "gc", "widget-child",
                   {json::Object{{"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"name", "w"}, {"uid", "u-1"}}});
  env.create_owned("ConfigMap", "gc", "marker", {json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", "nope"}, {"uid", "x"}}});
  ASSERT_TRUE(eventually([&] { return !env.exists("configmaps", "gc", "marker"); }));
  EXPECT_TRUE(env.exists("secrets", "gc", "widget-child"));
}

TEST_F(GcControllerTest, ObjectsPresentAtStartAreCollected) {
  gc.stop();
  Env env2;
  env2.create_namespace("gc");
  auto owner = env2.create_owned("ConfigMap", "gc", "owner");
  env2.create_owned("Secret", "gc", "child", {owner_ref(owner)});
  env2.remove("configmaps", "gc", "owner");  // no collector running yet
  ASSERT_TRUE(env2.exists("secrets", "gc", "child"));
  GcController late(env2.service);
  late.start();
  EXPECT_TRUE(eventually([&] { return !env2.exists("secrets", "gc", "child"); }));
  late.stop();
}

}  // namespace
}  // namespace capstan::apiserver::system
