#include "runtime/client/client.h"
#include "runtime/client/discovery.h"
#include "runtime/client/mapper.h"
#include "runtime/client/test_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace capstan::client {
namespace {
using namespace std::chrono_literals;
using testing::FakeApiServer;
using testing::json_response;
using testing::status_body;

// Legacy discovery for core/v1, apps/v1 and (once `crd_installed`) certs.capstan.dev/v1.
struct DiscoveryServer {
  std::atomic<bool> crd_installed{false};
  FakeApiServer server{[this](http::Request& req, http::Reply& reply) { handle(req, reply); }};

  void handle(http::Request& req, http::Reply& reply) {
    std::string_view p = req.path();
    if (p == "/api") {
      reply.send(json_response(200, R"({"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[]})"));
    } else if (p == "/apis") {
      std::string groups = R"({"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}})";
      if (crd_installed)
        groups += R"(,{"name":"certs.capstan.dev","versions":[{"groupVersion":"certs.capstan.dev/v1","version":"v1"},{"groupVersion":"certs.capstan.dev/v1alpha1","version":"v1alpha1"}],"preferredVersion":{"groupVersion":"certs.capstan.dev/v1","version":"v1"}})";
      reply.send(json_response(200, R"({"kind":"APIGroupList","apiVersion":"v1","groups":[)" + groups + "]}"));
    } else if (p == "/api/v1") {
      reply.send(json_response(200, R"({"kind":"APIResourceList","groupVersion":"v1","resources":[
        {"name":"configmaps","singularName":"configmap","namespaced":true,"kind":"ConfigMap","verbs":["get","list"],"shortNames":["cm"]},
        {"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod","verbs":["get"]},
        {"name":"pods/status","singularName":"","namespaced":true,"kind":"Pod","verbs":["get","patch"]},
        {"name":"nodes","singularName":"node","namespaced":false,"kind":"Node","verbs":["get"]}]})"));
    } else if (p == "/apis/apps/v1") {
      reply.send(json_response(200, R"({"kind":"APIResourceList","groupVersion":"apps/v1","resources":[
        {"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment","verbs":["get"],"categories":["all"]},
        {"name":"deployments/scale","singularName":"","namespaced":true,"group":"autoscaling","version":"v1","kind":"Scale","verbs":["get"]}]})"));
    } else if (p == "/apis/certs.capstan.dev/v1" && crd_installed) {
      reply.send(json_response(200, R"({"kind":"APIResourceList","groupVersion":"certs.capstan.dev/v1","resources":[
        {"name":"certificates","singularName":"certificate","namespaced":true,"kind":"Certificate","verbs":["get"]},
        {"name":"clusterissuers","singularName":"clusterissuer","namespaced":false,"kind":"ClusterIssuer","verbs":["get"]}]})"));
    } else if (req.method == "POST" || req.method == "PATCH" || req.method == "PUT" || req.method == "GET" ||
               req.method == "DELETE") {
      if (p.starts_with("/api/v1/") || p.starts_with("/apis/apps/") ||
          (crd_installed && p.starts_with("/apis/certs.capstan.dev/v1/"))) {
        reply.send(json_response(200, req.body.empty() ? "{}" : req.body));
      } else {
        reply.send(json_response(404, status_body(404, "NotFound", "the server could not find the requested resource")));
      }
    }
  }

  std::size_t hits(std::string_view path) const {
    std::size_t n = 0;
    for (const auto& r : server.requests()) n += r.path == path;
    return n;
  }
};

TEST(ClientDiscovery, GroupsAndResourcesFromLegacyEndpoints) {
  DiscoveryServer ds;
  ds.crd_installed = true;
  Client client(ds.server.config());
  auto groups = client.discovery().groups();
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].name, "");
  EXPECT_EQ(groups[0].preferred_version, "v1");
  EXPECT_EQ(groups[2].name, "certs.capstan.dev");
  EXPECT_EQ(groups[2].versions, (std::vector<std::string>{"v1", "v1alpha1"}));
  EXPECT_EQ(groups[2].preferred_version, "v1");
  auto core = client.discovery().resources({"", "v1"});
  ASSERT_TRUE(core);
  ASSERT_EQ(core->size(), 4u);
  EXPECT_EQ((*core)[0].name, "configmaps");
  EXPECT_EQ((*core)[0].short_names, (std::vector<std::string>{"cm"}));
  EXPECT_TRUE((*core)[2].is_subresource());
  auto apps = client.discovery().resources({"apps", "v1"});
  ASSERT_TRUE(apps);
  EXPECT_EQ((*apps)[0].group, "apps");
  EXPECT_EQ((*apps)[0].categories, (std::vector<std::string>{"all"}));
  EXPECT_EQ((*apps)[1].group, "autoscaling");
  EXPECT_FALSE(client.discovery().resources({"nope.example.com", "v1"}).has_value());
}

TEST(ClientMapper, MapsKindsAndCachesThem) {
  DiscoveryServer ds;
  Client client(ds.server.config());
  RestMapper& m = client.mapper();
  RestMapping cm = m.mapping({"", "v1", "ConfigMap"});
  EXPECT_EQ(cm.gvr, (meta::GroupVersionResource{"", "v1", "configmaps"}));
  EXPECT_TRUE(cm.namespaced);
  RestMapping node = m.mapping({"", "v1", "Node"});
  EXPECT_EQ(node.gvr.resource, "nodes");
  EXPECT_FALSE(node.namespaced);
  RestMapping pod = m.mapping({"", "v1", "Pod"});
  EXPECT_EQ(pod.gvr.resource, "pods");  // not pods/status
  RestMapping deploy = m.mapping({"apps", "", "Deployment"});  // preferred version
  EXPECT_EQ(deploy.gvr, (meta::GroupVersionResource{"apps", "v1", "deployments"}));
  EXPECT_EQ(deploy.gvk.version, "v1");
  EXPECT_THROW(m.mapping({"apps", "v1", "Scale"}), NoKindMatchError);  // only a subresource

  std::size_t requests = ds.server.count();
  m.mapping({"", "v1", "ConfigMap"});
  m.mapping({"apps", "v1", "Deployment"});
  m.mapping({"apps", "", "Deployment"});
  EXPECT_EQ(ds.server.count(), requests) << "hits are served from the cache";
  EXPECT_EQ(ds.hits("/api/v1"), 1u);

  RestMapping back = m.mapping_for({"apps", "v1", "deployments"});
  EXPECT_EQ(back.gvk.kind, "Deployment");
  EXPECT_TRUE(back.namespaced);
  EXPECT_TRUE(m.is_namespaced({"", "v1", "Pod"}));

  m.reset();
  m.mapping({"", "v1", "ConfigMap"});
  EXPECT_EQ(ds.hits("/api/v1"), 2u);
}

TEST(ClientMapper, CrdInstalledLaterBecomesMappableWithRateLimitedRefresh) {
  DiscoveryServer ds;
  ClientOptions o;
  o.mapper.min_refresh_interval = 150ms;
  Client client(ds.server.config(), o);
  RestMapper& m = client.mapper();
  const meta::GroupVersionKind cert{"certs.capstan.dev", "v1", "Certificate"};
  try {
    m.mapping(cert);
    FAIL();
  } catch (const NoKindMatchError& e) {
    EXPECT_EQ(std::string(e.what()), "no matches for kind \"Certificate\" in version \"certs.capstan.dev/v1\"");
    EXPECT_EQ(e.gvk(), cert);
    EXPECT_TRUE(is_no_match(e));
  }
  EXPECT_EQ(ds.hits("/apis/certs.capstan.dev/v1"), 1u);
  ds.crd_installed = true;
  // Within the refresh interval a miss does not ask again.
  EXPECT_FALSE(m.find(cert).has_value());
  EXPECT_EQ(ds.hits("/apis/certs.capstan.dev/v1"), 1u);
  std::this_thread::sleep_for(200ms);
  RestMapping mapped = m.mapping(cert);
  EXPECT_EQ(mapped.gvr.resource, "certificates");
  EXPECT_EQ(ds.hits("/apis/certs.capstan.dev/v1"), 2u);
  EXPECT_FALSE(m.mapping({"certs.capstan.dev", "v1", "ClusterIssuer"}).namespaced);
  EXPECT_EQ(ds.hits("/apis/certs.capstan.dev/v1"), 2u);

  // An unknown group without a version: the group list is consulted (rate-limited too).
  EXPECT_THROW(m.mapping({"nope.example.com", "", "Thing"}), NoKindMatchError);
}

TEST(ClientTyped, KindAddressedOperationsUseTheMapper) {
  DiscoveryServer ds;
  Client client(ds.server.config());
  json::Value cm = json::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","namespace":"team"}})");
  client.create(cm);
  EXPECT_EQ(ds.server.last().method, "POST");
  EXPECT_EQ(ds.server.last().path, "/api/v1/namespaces/team/configmaps");
  client.update(cm);
  EXPECT_EQ(ds.server.last().path, "/api/v1/namespaces/team/configmaps/demo");
  client.update_status(cm);
  EXPECT_EQ(ds.server.last().path, "/api/v1/namespaces/team/configmaps/demo/status");
  client.apply(cm, "capstan", true);
  EXPECT_EQ(ds.server.last().method, "PATCH");
  EXPECT_EQ(ds.server.last().query, "fieldManager=capstan&force=true");
  client.remove(cm);
  EXPECT_EQ(ds.server.last().method, "DELETE");
  EXPECT_EQ(ds.server.last().path, "/api/v1/namespaces/team/configmaps/demo");

  // Cluster-scoped kinds ignore the namespace; namespaced ones need it.
  client.get(meta::GroupVersionKind{"", "v1", "Node"}, "ignored", "n1");
  EXPECT_EQ(ds.server.last().path, "/api/v1/nodes/n1");
  EXPECT_THROW(client.get(meta::GroupVersionKind{"", "v1", "ConfigMap"}, "", "demo"), std::invalid_argument);
  client.list(meta::GroupVersionKind{"apps", "v1", "Deployment"}, "");
  EXPECT_EQ(ds.server.last().path, "/apis/apps/v1/deployments");
  client.patch(meta::GroupVersionKind{"apps", "v1", "Deployment"}, "prod", "web", PatchType::Merge, "{}");
  EXPECT_EQ(ds.server.last().path, "/apis/apps/v1/namespaces/prod/deployments/web");
  EXPECT_THROW(client.create(json::parse(R"({"metadata":{"name":"x"}})")), std::invalid_argument);
  EXPECT_THROW(client.create(json::parse(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"x","namespace":"a"}})")),
               NoKindMatchError);
}

}  // namespace
}  // namespace capstan::client
