#include "apiserver/system/gc_controller.h"
#include "apiserver/system/namespace_controller.h"
#include "apiserver/system/test_env.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::system {
namespace {

using testing::Env;
using testing::eventually;
using testing::owner_ref;

class NamespaceControllerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    namespaces.start();
    gc.start();
  }
  void TearDown() override {
    gc.stop();
    namespaces.stop();
  }
  std::optional<meta::Condition> condition(const std::string& ns, const std::string& type) {
    auto obj = env.get("namespaces", "", ns);
    if (!obj.is_object()) return std::nullopt;
    return meta::find_condition(obj, type);
  }

  Env env;
  NamespaceController namespaces{env.service};
  GcController gc{env.service};
};

TEST_F(NamespaceControllerTest, DeletionEmptiesAndRemovesTheNamespace) {
  env.create_namespace("doomed");
  env.create_namespace("kept");
  env.create_owned("ConfigMap", "doomed", "a");
  env.create_owned("Secret", "doomed", "b");
  env.create("serviceaccounts", "doomed",
             json::Object{{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", json::Object{{"name", "sa"}}}});
  env.create_owned("ConfigMap", "kept", "a");

  auto res = env.remove("namespaces", "", "doomed");
  EXPECT_FALSE(res.deleted);
  EXPECT_TRUE(eventually([&] { return !env.exists("namespaces", "", "doomed"); }));
  EXPECT_FALSE(env.exists("configmaps", "doomed", "a"));
  EXPECT_FALSE(env.exists("secrets", "doomed", "b"));
  EXPECT_FALSE(env.exists("serviceaccounts", "doomed", "sa"));
  EXPECT_TRUE(env.exists("configmaps", "kept", "a"));
  EXPECT_TRUE(env.exists("namespaces", "", "kept"));
}

TEST_F(NamespaceControllerTest, DeletionWaitsForADependentsFinalizer) {
  env.create_namespace("held");
  auto owner = env.create_owned("ConfigMap", "held", "owner");
  env.create_owned("Secret", "held", "dependent", {owner_ref(owner, true)}, {"example.com/hold"});

  env.remove("namespaces", "", "held");
  ASSERT_TRUE(eventually([&] {
    auto c = condition("held", "NamespaceFinalizersRemaining");
    return c && c->status == "True";
  }));
  auto ns = env.get("namespaces", "", "held");
  EXPECT_EQ(json::get_string(ns, {"status", "phase"}), "Terminating");
  auto finalizers = condition("held", "NamespaceFinalizersRemaining");
  EXPECT_EQ(finalizers->reason, "SomeFinalizersRemain");
  EXPECT_EQ(finalizers->message, "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances");
  auto content = condition("held", "NamespaceContentRemaining");
  ASSERT_TRUE(content);
  EXPECT_EQ(content->status, "True");
  EXPECT_EQ(content->reason, "SomeResourcesRemain");
  EXPECT_EQ(content->message, "Some resources are remaining: secrets. has 1 resource instances");
  auto failure = condition("held", "NamespaceDeletionContentFailure");
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->status, "False");
  EXPECT_EQ(failure->reason, "ContentDeleted");
  EXPECT_TRUE(meta::is_deleting(env.get("secrets", "held", "dependent")));
  EXPECT_FALSE(env.exists("configmaps", "held", "owner"));

  env.clear_finalizers("secrets", "held", "dependent");
  EXPECT_TRUE(eventually([&] { return !env.exists("namespaces", "", "held"); }));
}

TEST_F(NamespaceControllerTest, MetadataFinalizersKeepTheFinalizedNamespace) {
  env.create("namespaces", "",
             json::Object{{"apiVersion", "v1"}, {"kind", "Namespace"},
                          {"metadata", json::Object{{"name", "guarded"}, {"finalizers", json::Array{"example.com/ns"}}}}});
  env.create_owned("ConfigMap", "guarded", "a");
  env.remove("namespaces", "", "guarded");
  ASSERT_TRUE(eventually([&] {
    auto ns = env.get("namespaces", "", "guarded");
    const auto* f = json::get_array(ns, {"spec", "finalizers"});
    return f && f->empty();
  }));
  EXPECT_FALSE(env.exists("configmaps", "guarded", "a"));
  EXPECT_TRUE(env.exists("namespaces", "", "guarded"));
  env.clear_finalizers("namespaces", "", "guarded");
  EXPECT_TRUE(eventually([&] { return !env.exists("namespaces", "", "guarded"); }));
}

TEST_F(NamespaceControllerTest, CreationInATerminatingNamespaceIsRefused) {
  env.create_namespace("closing");
  env.create_owned("ConfigMap", "closing", "held", {}, {"example.com/hold"});
  env.remove("namespaces", "", "closing");
  ASSERT_TRUE(eventually([&] { return meta::is_deleting(env.get("configmaps", "closing", "held")); }));
  try {
    env.create_owned("ConfigMap", "closing", "late");
    FAIL() << "created content in a terminating namespace";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.code, 403);
  }
  env.clear_finalizers("configmaps", "closing", "held");
  EXPECT_TRUE(eventually([&] { return !env.exists("namespaces", "", "closing"); }));
}

TEST(NamespaceControllerStartup, TerminatingNamespaceFoundAtStartIsFinished) {
  Env env;
  env.create_namespace("left-over");
  env.create_owned("ConfigMap", "left-over", "a");
  env.remove("namespaces", "", "left-over");  // no controller running: it stays Terminating
  ASSERT_TRUE(env.exists("namespaces", "", "left-over"));
  NamespaceController late(env.service);
  late.start();
  EXPECT_TRUE(eventually([&] { return !env.exists("namespaces", "", "left-over"); }));
  EXPECT_FALSE(env.exists("configmaps", "left-over", "a"));
  late.stop();
}

// As kube-apiserver: the label is a default (the creator's field), finalizers and phase are
// set after the creator's managed fields were recorded.
TEST(NamespaceCreate, IsLabelledWithItsNameAndTheCreatorOwnsOnlyTheLabel) {
  Env env;
  auto ns = env.create_namespace("labelled");
  EXPECT_EQ(json::get_string(ns, {"metadata", "labels", "kubernetes.io/metadata.name"}), "labelled");
  EXPECT_EQ(json::serialize(*json::find(ns, {"spec"})), R"({"finalizers":["kubernetes"]})");
  EXPECT_EQ(json::get_string(ns, {"status", "phase"}), "Active");
  const auto* mf = json::get_array(ns, {"metadata", "managedFields"});
  ASSERT_TRUE(mf && mf->size() == 1);
  EXPECT_EQ(json::serialize(*json::find(mf->at(0), {"fieldsV1"})),
            R"({"f:metadata":{"f:labels":{".":{},"f:kubernetes.io/metadata.name":{}}}})");
}

}  // namespace
}  // namespace capstan::apiserver::system
