#include "apiserver/system/root_ca_publisher.h"
#include "apiserver/system/test_env.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::system {
namespace {

using testing::Env;
using testing::eventually;

const std::string kCa = "-----BEGIN CERTIFICATE-----\nMIIBroot\n-----END CERTIFICATE-----\n";
const std::string kCm(kRootCaConfigMap);

class RootCaPublisherTest : public ::testing::Test {
 protected:
  void SetUp() override { publisher.start(); }
  void TearDown() override { publisher.stop(); }

  std::string ca_of(const std::string& ns) { return std::string(json::get_string(env.get("configmaps", ns, kCm), {"data", "ca.crt"})); }

  Env env;
  RootCaPublisher publisher{env.service, kCa};
};

TEST_F(RootCaPublisherTest, EveryNamespaceGetsTheCaConfigMapWrittenAsTheControllerManager) {
  env.create_namespace("team-a");
  ASSERT_TRUE(eventually([&] { return env.exists("configmaps", "team-a", kCm); }));
  auto cm = env.get("configmaps", "team-a", kCm);
  EXPECT_EQ(json::serialize(*json::find(cm, {"data"})), json::serialize(json::Value(json::Object{{"ca.crt", kCa}})));
  EXPECT_NE(meta::annotation(cm, "kubernetes.io/description").find("Contains a CA bundle"), std::string_view::npos);
  const auto* mf = json::get_array(cm, {"metadata", "managedFields"});
  ASSERT_TRUE(mf && mf->size() == 1);
  EXPECT_EQ(json::get_string(mf->at(0), {"manager"}), "kube-controller-manager");
}

TEST_F(RootCaPublisherTest, ADeletedConfigMapIsRecreatedAndAChangedOneRestored) {
  env.create_namespace("team-b");
  ASSERT_TRUE(eventually([&] { return env.exists("configmaps", "team-b", kCm); }));
  std::string uid(meta::uid_of(env.get("configmaps", "team-b", kCm)));
  env.remove("configmaps", "team-b", kCm);
  ASSERT_TRUE(eventually([&] {
    auto cm = env.get("configmaps", "team-b", kCm);
    return cm.is_object() && meta::uid_of(cm) != uid;
  })) << "a deleted kube-root-ca.crt is re-created";

  auto cm = env.get("configmaps", "team-b", kCm);
  cm.as_object()["data"] = json::Object{{"ca.crt", "tampered"}, {"extra", "x"}};
  json::erase(cm, {"metadata", "annotations"});
  rest::WriteOptions o;
  o.field_manager = "test";
  env.service.update(env.target("configmaps", "team-b", kCm), cm, o);
  EXPECT_TRUE(eventually([&] {
    auto now = env.get("configmaps", "team-b", kCm);
    return ca_of("team-b") == kCa && !json::find(now, {"data", "extra"}) &&
           !meta::annotation(now, "kubernetes.io/description").empty();
  })) << "its data and description annotation are put back";
}

}  // namespace
}  // namespace capstan::apiserver::system
