// RBAC end to end over the real HTTP path of the in-process API server: a ServiceAccount gets a
// token (TokenRequest), is allowed what its RoleBinding grants and refused the rest with
// kube-apiserver's 403 bodies, and the real kubectl (`auth can-i`, `--as`) sees the same.
#include "apiserver/server.h"
#include "testing/process.h"
#include "runtime/client/client.h"
#include "runtime/client/config.h"
#include "runtime/http/client.h"
#include "runtime/json/json.h"

#include <gtest/gtest.h>

#include <sstream>

namespace capstan::apiserver {
namespace {

class RbacHttp : public ::testing::Test {
 protected:
  void SetUp() override { start("RBAC"); }
  void start(const std::string& mode) {
    if (server_) server_->stop();
    ApiServerOptions o;
    o.handler_threads = 4;
    o.authorization_mode = mode;
    server_ = std::make_unique<ApiServer>(o);
    server_->start();
    e2e::write_file(dir_.file("admin.kubeconfig"), server_->kubeconfig());
    admin_cfg_ = client::load_kubeconfig(dir_.file("admin.kubeconfig"));
    admin_cfg_.qps = 0;
    admin_ = std::make_unique<client::Client>(admin_cfg_);
    // The ServiceAccount default/reader may get and list ConfigMaps in default.
    admin_->create(meta::GroupVersionResource{"", "v1", "namespaces"}, "",
                   json::parse(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"other"}})"));
    admin_->create(meta::GroupVersionResource{"", "v1", "serviceaccounts"}, "default",
                   json::parse(R"({"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"reader"}})"));
    admin_->create(meta::GroupVersionResource{"rbac.authorization.k8s.io", "v1", "roles"}, "default",
                   json::parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"cm-reader"},
                                   "rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get","list"]}]})"));
    admin_->create(meta::GroupVersionResource{"rbac.authorization.k8s.io", "v1", "rolebindings"}, "default",
                   json::parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"reader"},
                                   "subjects":[{"kind":"ServiceAccount","name":"reader","namespace":"default"}],
                                   "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"cm-reader"}})"));
    admin_->create(meta::GroupVersionResource{"", "v1", "configmaps"}, "default",
                   json::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1"}})"));
    auto tr = admin_->raw("POST", "/api/v1/namespaces/default/serviceaccounts/reader/token",
                          R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{}})", "application/json");
    token_ = std::string(json::get_string(json::parse(tr.body), {"status", "token"}));
    ASSERT_FALSE(token_.empty());
    client::Config reader = admin_cfg_;
    reader.client_cert_pem.clear();
    reader.client_key_pem.clear();
    reader.bearer_token = token_;
    e2e::write_file(dir_.file("reader.kubeconfig"), client::to_kubeconfig(reader));
    http::ClientOptions ho;
    ho.tls.ca_pem = admin_cfg_.ca_pem;
    http_ = std::make_unique<http::Client>(ho);
  }
  void TearDown() override {
    http_.reset();
    admin_.reset();
    server_->stop();
  }
  // A request with the reader's token (or none); returns status and body.
  std::pair<int, std::string> as_reader(const std::string& method, const std::string& path, const std::string& body = "",
                                        http::Headers extra = {}, bool with_token = true) {
    if (with_token) extra.set("Authorization", "Bearer " + token_);
    if (!body.empty()) extra.set("Content-Type", "application/json");
    auto r = http_->request(method, server_->url() + path, extra, body);
    return {r.status, r.body};
  }
  e2e::RunResult kubectl(const std::string& kubeconfig, std::vector<std::string> args) {
    std::vector<std::string> full = {"/usr/bin/kubectl", "--kubeconfig", dir_.file(kubeconfig)};
    full.insert(full.end(), args.begin(), args.end());
    return e2e::run(full, {{"HOME", dir_.path()}});
  }

  e2e::TempDir dir_{"rbac-http"};
  std::unique_ptr<ApiServer> server_;
  client::Config admin_cfg_;
  std::unique_ptr<client::Client> admin_;
  std::unique_ptr<http::Client> http_;
  std::string token_;
};

TEST_F(RbacHttp, ServiceAccountTokenIsAllowedWhatItsBindingGrants) {
  EXPECT_EQ(as_reader("GET", "/api/v1/namespaces/default/configmaps").first, 200);
  EXPECT_EQ(as_reader("GET", "/api/v1/namespaces/default/configmaps/cm1").first, 200);
  EXPECT_EQ(as_reader("GET", "/apis").first, 200);  // system:discovery
  EXPECT_EQ(as_reader("GET", "/version").first, 200);
  EXPECT_EQ(as_reader("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                      R"({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"verb":"get","resource":"pods"}}})")
                .first,
            201);
}

TEST_F(RbacHttp, EverythingElseIsForbiddenAsKubeSaysIt) {
  auto r = as_reader("GET", "/api/v1/namespaces/other/configmaps");
  EXPECT_EQ(r.first, 403);
  EXPECT_EQ(r.second,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps is forbidden: User \"system:serviceaccount:default:reader\" cannot list resource \"configmaps\" in API group \"\" in the namespace \"other\"","reason":"Forbidden","details":{"kind":"configmaps"},"code":403})");
  r = as_reader("GET", "/api/v1/namespaces/default/configmaps?watch=1&fieldSelector=metadata.name%3Dabc");
  EXPECT_EQ(r.first, 403);
  EXPECT_EQ(r.second,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \"abc\" is forbidden: User \"system:serviceaccount:default:reader\" cannot watch resource \"configmaps\" in API group \"\" in the namespace \"default\"","reason":"Forbidden","details":{"name":"abc","kind":"configmaps"},"code":403})");
  r = as_reader("POST", "/api/v1/namespaces/default/serviceaccounts/reader/token", R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{}})");
  EXPECT_EQ(r.first, 403);
  EXPECT_NE(r.second.find(R"(serviceaccounts \"reader\" is forbidden: User \"system:serviceaccount:default:reader\" cannot create resource \"serviceaccounts/token\" in API group \"\" in the namespace \"default\")"),
            std::string::npos);
  r = as_reader("GET", "/api/v1/nodes");
  EXPECT_EQ(r.first, 403);
  EXPECT_NE(r.second.find(R"(cannot list resource \"nodes\" in API group \"\" at the cluster scope)"), std::string::npos);
  r = as_reader("POST", "/debug/capstan/compact");
  EXPECT_EQ(r.first, 403);
  EXPECT_NE(r.second.find(R"("message":"forbidden: User \"system:serviceaccount:default:reader\" cannot post path \"/debug/capstan/compact\"","reason":"Forbidden","details":{})"),
            std::string::npos);
  // Writing RBAC objects needs the permission to write them first.
  r = as_reader("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
                R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"x"},"rules":[]})");
  EXPECT_EQ(r.first, 403);
  // Unauthenticated requests stay 401; the public paths are open to everyone.
  EXPECT_EQ(as_reader("GET", "/api/v1/namespaces", "", {}, false).first, 401);
  EXPECT_EQ(as_reader("GET", "/version", "", {}, false).first, 200);
  EXPECT_EQ(as_reader("GET", "/readyz", "", {}, false).first, 200);
}

TEST_F(RbacHttp, ImpersonationNeedsTheImpersonateVerb) {
  auto r = as_reader("GET", "/api/v1/namespaces/default/configmaps", "", {{"Impersonate-User", "alice"}});
  EXPECT_EQ(r.first, 403);
  EXPECT_NE(r.second.find(R"(User \"system:serviceaccount:default:reader\" cannot impersonate-on:user-info:list resource \"configmaps\")"),
            std::string::npos)
      << r.second;
  r = as_reader("GET", "/api/v1/namespaces/default/configmaps", "", {{"Impersonate-Group", "g"}});
  EXPECT_EQ(r.first, 400);
  // The admin (system:masters) may impersonate anyone, and then runs as them.
  auto k = kubectl("admin.kubeconfig", {"--as=system:serviceaccount:default:reader", "get", "configmaps", "-n", "other"});
  EXPECT_NE(k.code, 0);
  EXPECT_NE(k.err.find(R"(Error from server (Forbidden): configmaps is forbidden: User "system:serviceaccount:default:reader" cannot list resource "configmaps" in API group "" in the namespace "other")"),
            std::string::npos)
      << k.err;
  k = kubectl("admin.kubeconfig", {"--as=system:serviceaccount:default:reader", "get", "configmaps", "-n", "default", "-o", "name"});
  EXPECT_EQ(k.code, 0) << k.err;
  k = kubectl("admin.kubeconfig", {"auth", "whoami", "--as=alice", "--as-group=devs", "-o", "json"});
  EXPECT_EQ(k.code, 0) << k.err;
  EXPECT_NE(k.out.find(R"("username": "alice")"), std::string::npos) << k.out;
}

TEST_F(RbacHttp, KubectlAuthCanI) {
  auto k = kubectl("reader.kubeconfig", {"auth", "can-i", "list", "configmaps", "-n", "default"});
  EXPECT_EQ(k.code, 0) << k.err;
  EXPECT_EQ(k.out, "yes\n");
  k = kubectl("reader.kubeconfig", {"auth", "can-i", "list", "configmaps", "-n", "other"});
  EXPECT_EQ(k.code, 1);
  EXPECT_EQ(k.out, "no\n");
  k = kubectl("reader.kubeconfig", {"auth", "can-i", "--list", "-n", "default"});
  EXPECT_EQ(k.code, 0) << k.err;
  auto has_row = [&](const std::string& resource, const std::string& verbs) {
    std::istringstream lines(k.out);
    for (std::string l; std::getline(lines, l);)
      if (l.rfind(resource + " ", 0) == 0 && l.size() >= verbs.size() && l.compare(l.size() - verbs.size(), verbs.size(), verbs) == 0) return true;
    return false;
  };
  EXPECT_TRUE(has_row("configmaps", "[get list]")) << k.out;
  EXPECT_TRUE(has_row("selfsubjectaccessreviews.authorization.k8s.io", "[create]")) << k.out;
  EXPECT_FALSE(has_row("secrets", "[get list]")) << k.out;
  k = kubectl("admin.kubeconfig", {"auth", "can-i", "list", "configmaps", "-n", "other", "--as=system:serviceaccount:default:reader"});
  EXPECT_EQ(k.out, "no\n");
  k = kubectl("admin.kubeconfig", {"auth", "can-i", "delete", "nodes"});
  EXPECT_EQ(k.out, "yes\n");
  k = kubectl("admin.kubeconfig", {"get", "clusterrole", "view", "-o", "jsonpath={.rules[0].resources}"});
  EXPECT_EQ(k.code, 0) << k.err;
  EXPECT_EQ(k.out,
            R"(["configmaps","endpoints","persistentvolumeclaims","persistentvolumeclaims/status","pods","replicationcontrollers","replicationcontrollers/scale","serviceaccounts","services","services/status"])");
}

TEST_F(RbacHttp, AlwaysAllowAllowsEveryone) {
  start("AlwaysAllow");
  EXPECT_EQ(as_reader("GET", "/api/v1/namespaces/other/configmaps").first, 200);
  auto k = kubectl("reader.kubeconfig", {"auth", "can-i", "delete", "nodes"});
  EXPECT_EQ(k.out, "yes\n");
}

}  // namespace
}  // namespace capstan::apiserver
