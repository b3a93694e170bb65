// The aggregation layer against the in-process API server over HTTPS: an APIService naming a
// Service (with Endpoints on a backend of the test's own) becomes Available, is listed in
// discovery, and requests for its group-version are authorized here and forwarded with the
// user in X-Remote-* headers over TLS verified with caBundle and the front-proxy client
// certificate; a caBundle that does not verify makes it unavailable (503).
#include "apiserver/aggregator/proxy.h"
#include "apiserver/server.h"
#include "runtime/http/client.h"
#include "runtime/http/server.h"
#include "runtime/json/json.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/pki.h"
#include "testing/eventually.h"

#include <gtest/gtest.h>

#include <mutex>

namespace capstan::apiserver {
namespace {

using namespace std::chrono_literals;

struct Seen {
  std::string method, target, user, body, authorization, impersonate;
  std::vector<std::string> groups;
  std::optional<std::string> peer_cn;
};

class Aggregator : public ::testing::Test {
 protected:
  void SetUp() override {
    ApiServerOptions o;
    o.handler_threads = 4;
    server_ = std::make_unique<ApiServer>(o);
    server_->start();
    auto cfg = server_->client_config();
    http::ClientOptions ho;
    ho.tls.ca_pem = cfg.ca_pem;
    ho.tls.cert_pem = cfg.client_cert_pem;
    ho.tls.key_pem = cfg.client_key_pem;
    api_ = std::make_unique<http::Client>(ho);

    // The backend: its own CA, serving "solver.sandbox.svc"; client certificates checked
    // against the front proxy's CA, as published for aggregated API servers.
    auto auth = json::parse(call("GET", "/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication").body, "cm");
    requestheader_ca_ = std::string(json::get_string(auth, {"data", "requestheader-client-ca-file"}));
    ASSERT_FALSE(requestheader_ca_.empty()) << json::serialize(auth);
    EXPECT_EQ(json::get_string(auth, {"data", "client-ca-file"}), cfg.ca_pem);
    EXPECT_EQ(json::get_string(auth, {"data", "requestheader-allowed-names"}), R"(["front-proxy-client"])");
    EXPECT_EQ(json::get_string(auth, {"data", "requestheader-username-headers"}), R"(["X-Remote-User"])");
    auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
    auto ca = pki::self_signed_ca("backend-ca", 24h, key);
    backend_ca_ = ca.to_pem();
    auto serving = pki::serving_certificate({"solver.sandbox.svc"}, ca, key, 24h);
    http::ServerOptions so;
    so.address = "127.0.0.1";
    http::ServerTls tls;
    tls.cert_pem = serving.certificate.to_pem();
    tls.key_pem = serving.key.to_pem(pki::KeyEncoding::PKCS8);
    tls.client_ca_pem = requestheader_ca_;
    so.tls = tls;
    backend_ = std::make_unique<http::Server>(so, [this](http::Request& r, http::Reply& reply) {
      Seen s{r.method, r.target, std::string(r.headers.get_or("X-Remote-User", "")), r.body,
             std::string(r.headers.get_or("Authorization", "")), std::string(r.headers.get_or("Impersonate-User", "")), {},
             r.peer_cn};
      for (const auto& [k, v] : r.headers.entries())
        if (http::iequals(k, "X-Remote-Group")) s.groups.push_back(v);
      {
        std::lock_guard<std::mutex> l(mu_);
        seen_.push_back(s);
      }
      if (r.path() == "/apis/acme.example.com/v1alpha1") {
        reply.send(http::Response(200, R"({"kind":"APIResourceList","apiVersion":"v1","groupVersion":"acme.example.com/v1alpha1",
             "resources":[{"name":"solver1","singularName":"solver1","namespaced":false,"kind":"ChallengePayload","verbs":["create"]},
                          {"name":"solver1/status","singularName":"","namespaced":false,"kind":"ChallengePayload","verbs":["get"]}]})"));
        return;
      }
      reply.send(http::Response(201, json::serialize(json::Object{{"echo", r.body}, {"user", s.user}})));
    });
    backend_->start();

    create("/api/v1/namespaces", R"({"metadata":{"name":"sandbox"}})");
    create("/api/v1/namespaces/sandbox/services",
           R"({"metadata":{"name":"solver"},"spec":{"ports":[{"name":"https","port":443,"targetPort":8443}]}})");
    create("/api/v1/namespaces/sandbox/endpoints",
           json::serialize(json::Object{
               {"metadata", json::Object{{"name", "solver"}}},
               {"subsets", json::Array{json::Object{
                               {"addresses", json::Array{json::Object{{"ip", "127.0.0.1"}}}},
                               {"ports", json::Array{json::Object{{"name", "https"}, {"port", backend_->port()}}}}}}}}));
  }

  void TearDown() override {
    backend_->stop();
    server_->stop();
  }

  http::Response call(std::string_view method, const std::string& path, std::string_view body = {}, http::Headers h = {}) {
    h.set("Content-Type", "application/json");
    if (!h.get("Accept")) h.set("Accept", "application/json");
    return api_->request(method, server_->url() + path, h, body, 10s);
  }
  void create(const std::string& path, std::string_view body) {
    auto r = call("POST", path, body);
    ASSERT_EQ(r.status, 201) << path << ": " << r.body;
  }
  void create_api_service(const std::string& ca_pem) {
    create("/apis/apiregistration.k8s.io/v1/apiservices",
           json::serialize(json::Object{
               {"metadata", json::Object{{"name", "v1alpha1.acme.example.com"}}},
               {"spec", json::Object{{"group", "acme.example.com"},
                                     {"version", "v1alpha1"},
                                     {"service", json::Object{{"namespace", "sandbox"}, {"name", "solver"}, {"port", 443}}},
                                     {"caBundle", meta::base64_encode(ca_pem)},
                                     {"groupPriorityMinimum", 1000},
                                     {"versionPriority", 15}}}}));
  }
  std::string available() {
    auto r = call("GET", "/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.acme.example.com");
    auto v = json::parse(r.body, "apiservice");
    if (const auto* conds = json::get_array(v, {"status", "conditions"}))
      for (const auto& c : *conds)
        if (json::get_string(c, {"type"}) == "Available")
          return std::string(json::get_string(c, {"status"})) + "/" + std::string(json::get_string(c, {"reason"}));
    return "";
  }
  std::vector<Seen> seen() {
    std::lock_guard<std::mutex> l(mu_);
    return seen_;
  }

  std::unique_ptr<ApiServer> server_;
  std::unique_ptr<http::Client> api_;
  std::unique_ptr<http::Server> backend_;
  std::string backend_ca_;
  std::string requestheader_ca_;
  std::mutex mu_;
  std::vector<Seen> seen_;
};

TEST_F(Aggregator, ProxiesAuthorizedRequestsWithTheUserInRequestHeaders) {
  create_api_service(backend_ca_);
  ASSERT_TRUE(e2e::eventually([&] { return available() == "True/Passed"; }, 10s)) << available();

  // Discovery lists the aggregated group-version.
  auto apis = json::parse(call("GET", "/apis").body, "/apis");
  bool listed = false;
  for (const auto& g : *json::get_array(apis, {"groups"}))
    if (json::get_string(g, {"name"}) == "acme.example.com")
      listed = json::get_string(g, {"preferredVersion", "groupVersion"}) == "acme.example.com/v1alpha1";
  EXPECT_TRUE(listed) << json::serialize(apis);
  auto v2 = call("GET", "/apis", {}, http::Headers{{"Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"}});
  json::Value want_v2 = json::parse(R"({"metadata":{"name":"acme.example.com"},"versions":[{"version":"v1alpha1","resources":[
      {"resource":"solver1","responseKind":{"group":"acme.example.com","version":"v1alpha1","kind":"ChallengePayload"},
       "scope":"Cluster","singularResource":"solver1","verbs":["create"],
       "subresources":[{"subresource":"status","responseKind":{"group":"acme.example.com","version":"v1alpha1","kind":"ChallengePayload"},
                        "verbs":["get"]}]}],"freshness":"Current"}]})", "want");
  bool found = false;
  const json::Value v2_doc = json::parse(v2.body, "v2");
  ASSERT_NE(json::get_array(v2_doc, {"items"}), nullptr) << v2.body;
  for (const auto& item : *json::get_array(v2_doc, {"items"}))
    if (json::get_string(item, {"metadata", "name"}) == "acme.example.com") {
      found = true;
      EXPECT_EQ(item, want_v2) << json::serialize(item);
    }
  EXPECT_TRUE(found) << v2.body;
  auto group = call("GET", "/apis/acme.example.com");
  EXPECT_EQ(group.status, 200);
  EXPECT_EQ(json::get_string(json::parse(group.body, "group"), {"kind"}), "APIGroup");

  // A request of the admin, with a forged requestheader that must not pass.
  auto r = call("POST", "/apis/acme.example.com/v1alpha1/solver1?dryRun=All", R"({"kind":"ChallengePayload"})",
                http::Headers{{"X-Remote-User", "mallory"}});
  ASSERT_EQ(r.status, 201) << r.body;
  auto answer = json::parse(r.body, "answer");
  EXPECT_EQ(json::get_string(answer, {"echo"}), R"({"kind":"ChallengePayload"})");
  EXPECT_EQ(json::get_string(answer, {"user"}), "admin");
  auto s = seen();
  ASSERT_FALSE(s.empty());
  const Seen& last = s.back();
  EXPECT_EQ(last.method, "POST");
  EXPECT_EQ(last.target, "/apis/acme.example.com/v1alpha1/solver1?dryRun=All");
  EXPECT_EQ(last.user, "admin");
  EXPECT_NE(std::find(last.groups.begin(), last.groups.end(), "system:masters"), last.groups.end());
  EXPECT_EQ(last.authorization, "");
  ASSERT_TRUE(last.peer_cn);
  EXPECT_EQ(*last.peer_cn, "front-proxy-client");

  // Another user without RBAC on the group is refused here; the backend never sees it.
  std::size_t before = seen().size();
  auto denied = call("POST", "/apis/acme.example.com/v1alpha1/solver1", "{}", http::Headers{{"Impersonate-User", "alice"}});
  EXPECT_EQ(denied.status, 403) << denied.body;
  EXPECT_NE(denied.body.find("solver1"), std::string::npos) << denied.body;
  EXPECT_EQ(seen().size(), before);

  // Given RBAC, the impersonated user is the one passed on.
  create("/apis/rbac.authorization.k8s.io/v1/clusterroles",
         R"({"metadata":{"name":"solve"},"rules":[{"apiGroups":["acme.example.com"],"resources":["*"],"verbs":["create"]}]})");
  create("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
         R"({"metadata":{"name":"alice-solve"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"solve"},
             "subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"alice"}]})");
  ASSERT_TRUE(e2e::eventually([&] {
    return call("POST", "/apis/acme.example.com/v1alpha1/solver1", "{}", http::Headers{{"Impersonate-User", "alice"}}).status == 201;
  }, 5s));
  EXPECT_EQ(seen().back().user, "alice");
  EXPECT_EQ(seen().back().impersonate, "");
}

TEST(AggregatorHeaders, CredentialsAndForgedRequestHeadersAreNotForwarded) {
  rest::User u{"jane", "", {"devs", "system:authenticated"}, {{"scopes.example.com/x y", {"a", "b"}}}};
  http::Headers in{{"Authorization", "Bearer secret"}, {"Impersonate-User", "root"}, {"X-Remote-User", "root"},
                   {"x-remote-group", "system:masters"}, {"Accept-Encoding", "gzip"}, {"Content-Type", "application/json"},
                   {"Accept", "application/json"}, {"Connection", "keep-alive"}};
  auto out = aggregator::Proxy::forwarded_headers(in, u);
  std::vector<std::pair<std::string, std::string>> got(out.entries().begin(), out.entries().end());
  EXPECT_EQ(got, (std::vector<std::pair<std::string, std::string>>{{"Content-Type", "application/json"},
                                                                  {"Accept", "application/json"},
                                                                  {"X-Remote-User", "jane"},
                                                                  {"X-Remote-Group", "devs"},
                                                                  {"X-Remote-Group", "system:authenticated"},
                                                                  {"X-Remote-Extra-scopes.example.com%2Fx%20y", "a"},
                                                                  {"X-Remote-Extra-scopes.example.com%2Fx%20y", "b"}}));
}

TEST_F(Aggregator, UnverifiableBackendIsUnavailable) {
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
  create_api_service(pki::self_signed_ca("other-ca", 24h, key).to_pem());
  ASSERT_TRUE(e2e::eventually([&] { return available() == "False/FailedDiscoveryCheck"; }, 10s)) << available();
  auto r = call("POST", "/apis/acme.example.com/v1alpha1/solver1", "{}");
  EXPECT_EQ(r.status, 503) << r.body;
  for (const auto& s : seen()) EXPECT_NE(s.method, "POST");
}

TEST_F(Aggregator, MissingEndpointsAreReported) {
  ASSERT_EQ(call("DELETE", "/api/v1/namespaces/sandbox/endpoints/solver").status, 200);
  create_api_service(backend_ca_);
  ASSERT_TRUE(e2e::eventually([&] { return available() == "False/MissingEndpoints"; }, 10s)) << available();
}

TEST_F(Aggregator, EndpointSlicesAndExternalNameServicesAreResolved) {
  ASSERT_EQ(call("DELETE", "/api/v1/namespaces/sandbox/endpoints/solver").status, 200);
  create("/apis/discovery.k8s.io/v1/namespaces/sandbox/endpointslices",
         json::serialize(json::Object{
             {"metadata", json::Object{{"name", "solver-1"}, {"labels", json::Object{{"kubernetes.io/service-name", "solver"}}}}},
             {"addressType", "IPv4"},
             {"endpoints", json::Array{json::Object{{"addresses", json::Array{"127.0.0.1"}},
                                                    {"conditions", json::Object{{"ready", true}}}}}},
             {"ports", json::Array{json::Object{{"name", "https"}, {"port", backend_->port()}}}}}));
  create_api_service(backend_ca_);
  ASSERT_TRUE(e2e::eventually([&] { return available() == "True/Passed"; }, 10s)) << available();

  // An ExternalName Service is dialled at its name and the APIService's port.
  ASSERT_EQ(call("DELETE", "/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.acme.example.com").status, 200);
  ASSERT_EQ(call("DELETE", "/api/v1/namespaces/sandbox/services/solver").status, 200);
  create("/api/v1/namespaces/sandbox/services",
         R"({"metadata":{"name":"solver"},"spec":{"type":"ExternalName","externalName":"127.0.0.1"}})");
  create("/apis/apiregistration.k8s.io/v1/apiservices",
         json::serialize(json::Object{
             {"metadata", json::Object{{"name", "v1alpha1.acme.example.com"}}},
             {"spec", json::Object{{"group", "acme.example.com"},
                                   {"version", "v1alpha1"},
                                   {"service", json::Object{{"namespace", "sandbox"}, {"name", "solver"}, {"port", backend_->port()}}},
                                   {"caBundle", meta::base64_encode(backend_ca_)},
                                   {"groupPriorityMinimum", 1000},
                                   {"versionPriority", 15}}}}));
  ASSERT_TRUE(e2e::eventually([&] { return available() == "True/Passed"; }, 10s)) << available();
  EXPECT_EQ(call("POST", "/apis/acme.example.com/v1alpha1/solver1", "{}").status, 201);
}

}  // namespace
}  // namespace capstan::apiserver
