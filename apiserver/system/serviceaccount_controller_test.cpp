#include "apiserver/system/serviceaccount_controller.h"
#include "apiserver/system/test_env.h"
#include "runtime/meta/base64.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::system {
namespace {

using testing::Env;
using testing::eventually;

const std::string kCa = "-----BEGIN CERTIFICATE-----\nMIIBdummy\n-----END CERTIFICATE-----\n";

class ServiceAccountControllerTest : public ::testing::Test {
 protected:
  void SetUp() override { controller.start(); }
  void TearDown() override { controller.stop(); }

  json::Value token_secret(const std::string& name, const std::string& sa) {
    return json::Object{{"apiVersion", "v1"},
                        {"kind", "Secret"},
                        {"type", "kubernetes.io/service-account-token"},
                        {"metadata", json::Object{{"name", name}, {"annotations", json::Object{{"kubernetes.io/service-account.name", sa}}}}}};
  }
  std::string data(const json::Value& secret, std::string_view key) {
    auto v = meta::base64_decode(json::get_string(secret, {"data", key}));
    return v ? *v : std::string();
  }

  Env env;
  auth::TokenIssuer issuer{""};
  ServiceAccountController controller{env.service, issuer, kCa};
};

TEST_F(ServiceAccountControllerTest, DefaultServiceAccountAppearsInNewNamespaces) {
  env.create_namespace("team-a");
  ASSERT_TRUE(eventually([&] { return env.exists("serviceaccounts", "team-a", "default"); }));
  std::string uid(meta::uid_of(env.get("serviceaccounts", "team-a", "default")));

  env.remove("serviceaccounts", "team-a", "default");
  ASSERT_TRUE(eventually([&] {
    auto sa = env.get("serviceaccounts", "team-a", "default");
    return sa.is_object() && meta::uid_of(sa) != uid;
  })) << "a deleted default ServiceAccount is re-created";
}

TEST_F(ServiceAccountControllerTest, TokenSecretIsFilledAndTheTokenVerifies) {
  env.create_namespace("team-b");
  ASSERT_TRUE(eventually([&] { return env.exists("serviceaccounts", "team-b", "default"); }));
  auto sa = env.get("serviceaccounts", "team-b", "default");
  env.create("secrets", "team-b", token_secret("default-token", "default"));
  ASSERT_TRUE(eventually([&] { return !data(env.get("secrets", "team-b", "default-token"), "token").empty(); }));

  auto secret = env.get("secrets", "team-b", "default-token");
  EXPECT_EQ(data(secret, "ca.crt"), kCa);
  EXPECT_EQ(data(secret, "namespace"), "team-b");
  EXPECT_EQ(meta::annotation(secret, "kubernetes.io/service-account.uid"), meta::uid_of(sa));
  auto claims = issuer.verify(data(secret, "token"));
  ASSERT_TRUE(claims);
  EXPECT_EQ(claims->ns, "team-b");
  EXPECT_EQ(claims->service_account, "default");
  EXPECT_EQ(claims->uid, meta::uid_of(sa));
  EXPECT_EQ(claims->expires_at, 0) << "legacy tokens do not expire";
  bool recorded = false;
  if (const auto* mf = json::get_array(secret, {"metadata", "managedFields"}))
    for (const auto& e : *mf) recorded |= json::get_string(e, {"manager"}) == "kube-controller-manager";
  EXPECT_TRUE(recorded) << "written through the Service as kube-controller-manager";
}

TEST_F(ServiceAccountControllerTest, TokenSecretsOfAMissingOrDeletedServiceAccountAreDeleted) {
  env.create_namespace("team-c");
  env.create("serviceaccounts", "team-c",
             json::Object{{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", json::Object{{"name", "builder"}}}});
  env.create("secrets", "team-c", token_secret("builder-token", "builder"));
  ASSERT_TRUE(eventually([&] { return !data(env.get("secrets", "team-c", "builder-token"), "token").empty(); }));

  env.create("secrets", "team-c", token_secret("nobody-token", "nobody"));
  EXPECT_TRUE(eventually([&] { return !env.exists("secrets", "team-c", "nobody-token"); }));

  env.remove("serviceaccounts", "team-c", "builder");
  EXPECT_TRUE(eventually([&] { return !env.exists("secrets", "team-c", "builder-token"); }));
}

}  // namespace
}  // namespace capstan::apiserver::system
