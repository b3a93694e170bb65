#include "runtime/meta/base64.h"
#include "runtime/client/client.h"
#include "runtime/client/test_support.h"
#include "runtime/http/client.h"
#include "runtime/json/patch.h"
#include "runtime/metrics/registry.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

namespace capstan::client {
namespace {
using namespace std::chrono_literals;
using testing::FakeApiServer;
using testing::json_response;
using testing::status_body;

const meta::GroupVersionResource kConfigMaps{"", "v1", "configmaps"};
const meta::GroupVersionResource kNodes{"", "v1", "nodes"};
const meta::GroupVersionResource kDeployments{"apps", "v1", "deployments"};
const meta::GroupVersionResource kCerts{"certs.capstan.dev", "v1", "certificates"};

json::Value obj(std::string_view text) { return json::parse(text); }

void expect_json_eq(std::string_view actual, std::string_view expected) {
  EXPECT_TRUE(json::deep_equal(json::parse(actual), json::parse(expected))) << "actual:   " << actual
                                                                             << "\nexpected: " << expected;
}

// Answers every request with the object it was sent (or a fixed object for bodiless requests).
void echo(http::Request& req, http::Reply& reply) {
  std::string body = req.body.empty() ? R"({"kind":"ConfigMap","metadata":{"name":"demo"}})" : req.body;
  if (req.headers.get_or("Content-Type", "") != "application/json") body = R"({"kind":"Patched"})";
  reply.send(json_response(req.method == "POST" ? 201 : 200, body));
}

TEST(ClientCrud, GetSendsHeadersAndParsesTheObject) {
  FakeApiServer server([](http::Request&, http::Reply& reply) {
    reply.send(json_response(200, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","namespace":"default","resourceVersion":"5"},"data":{"k":"v"}})"));
  });
  Config c = server.config();
  c.bearer_token = "secret-token";
  c.user_agent = "capstan-test/1.0";
  Client client(c);
  json::Value cm = client.get(kConfigMaps, "default", "demo");
  EXPECT_EQ(json::get_string(cm, {"data", "k"}), "v");
  auto r = server.last();
  EXPECT_EQ(r.method, "GET");
  EXPECT_EQ(r.path, "/api/v1/namespaces/default/configmaps/demo");
  EXPECT_EQ(r.query, "");
  EXPECT_EQ(r.headers.get_or("Accept", ""), "application/json");
  EXPECT_EQ(r.headers.get_or("User-Agent", ""), "capstan-test/1.0");
  EXPECT_EQ(r.headers.get_or("Authorization", ""), "Bearer secret-token");
  EXPECT_FALSE(r.headers.get("Content-Type"));

  client.get(kConfigMaps, "default", "demo", {.resource_version = "0", .subresource = "status"});
  EXPECT_EQ(server.last().path, "/api/v1/namespaces/default/configmaps/demo/status");
  EXPECT_EQ(server.last().query, "resourceVersion=0");
}

TEST(ClientCrud, NoAuthorizationHeaderWithoutToken) {
  FakeApiServer server([](http::Request&, http::Reply& reply) { reply.send(json_response(200, "{}")); });
  Client client(server.config());
  client.get(kNodes, "", "n1");
  EXPECT_FALSE(server.last().headers.get("Authorization"));
  EXPECT_EQ(server.last().path, "/api/v1/nodes/n1");
}

TEST(ClientImpersonation, AViewSendsImpersonateHeadersAndSharesTheConnection) {
  FakeApiServer server([](http::Request&, http::Reply& reply) { reply.send(json_response(200, "{}")); });
  Config c = server.config();
  c.bearer_token = "manager-token";
  Client client(c);
  Impersonation who = Impersonation::service_account("shop", "deployer");
  who.groups = {"team-a", "team-b"};
  who.extra["scopes.example.com/a b"] = {"x", "y"};
  auto as = client.impersonating(who);
  EXPECT_EQ(as->impersonation().user, "system:serviceaccount:shop:deployer");
  as->get(kConfigMaps, "shop", "demo");
  auto r = server.last();
  EXPECT_EQ(r.headers.get_or("Authorization", ""), "Bearer manager-token");
  EXPECT_EQ(r.headers.get_or("Impersonate-User", ""), "system:serviceaccount:shop:deployer");
  std::vector<std::string> groups, extra;
  for (const auto& [k, v] : r.headers.entries()) {
    if (http::iequals(k, "Impersonate-Group")) groups.push_back(v);
    if (http::iequals(k, "Impersonate-Extra-scopes.example.com%2Fa%20b")) extra.push_back(v);
  }
  EXPECT_EQ(groups, (std::vector<std::string>{"team-a", "team-b"}));
  EXPECT_EQ(extra, (std::vector<std::string>{"x", "y"}));
  // The client it came from still acts as itself, and both share the request metrics and mapper.
  client.get(kConfigMaps, "shop", "demo");
  EXPECT_FALSE(server.last().headers.get("Impersonate-User"));
  EXPECT_EQ(&as->mapper(), &client.mapper());
  // Watches carry the headers too (the fake's "{}" is not an event stream: only the request matters).
  try {
    as->watch(kConfigMaps, "shop", {.timeout_seconds = 1},
              [](json::EventType, std::string_view, const json::MetaSummary&) { return false; });
  } catch (const std::exception&) {
  }
  EXPECT_EQ(server.last().path, "/api/v1/namespaces/shop/configmaps");
  EXPECT_EQ(server.last().headers.get_or("Impersonate-User", ""), "system:serviceaccount:shop:deployer");
}

TEST(ClientCrud, ErrorsAreTypedAndNameTheRequest) {
  FakeApiServer server([](http::Request& req, http::Reply& reply) {
    if (req.method == "GET")
      reply.send(json_response(404, status_body(404, "NotFound", "configmaps \"demo\" not found")));
    else
      reply.send(json_response(409, status_body(409, "AlreadyExists", "configmaps \"demo\" already exists")));
  });
  Client client(server.config());
  try {
    client.get(kConfigMaps, "default", "demo");
    FAIL() << "expected ApiError";
  } catch (const ApiError& e) {
    EXPECT_TRUE(is_not_found(e));
    EXPECT_EQ(e.message(), "configmaps \"demo\" not found");
    EXPECT_EQ(e.request().verb, "get");
    EXPECT_EQ(std::string(e.what()), "get configmaps default/demo: 404 NotFound: configmaps \"demo\" not found");
  }
  try {
    client.create(kConfigMaps, "default", obj(R"({"metadata":{"name":"demo"}})"));
    FAIL() << "expected ApiError";
  } catch (const ApiError& e) {
    EXPECT_TRUE(is_already_exists(e));
    EXPECT_EQ(std::string(e.what()).rfind("create configmaps default/demo: 409 AlreadyExists", 0), 0u) << e.what();
  }
}

TEST(ClientCrud, ListQueryItemsAndMetadata) {
  FakeApiServer server([](http::Request&, http::Reply& reply) {
    reply.send(json_response(200, R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"42","continue":"tok","remainingItemCount":3},"items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]})"));
  });
  Client client(server.config());
  ListOptions o;
  o.label_selector = "app=web,tier in (a,b)";
  o.field_selector = "metadata.name=x";
  o.limit = 50;
  o.resource_version = "0";
  o.resource_version_match = "NotOlderThan";
  o.timeout_seconds = 10;
  ObjectList list = client.list(kConfigMaps, "default", o);
  auto r = server.last();
  EXPECT_EQ(r.method, "GET");
  EXPECT_EQ(r.path, "/api/v1/namespaces/default/configmaps");
  EXPECT_EQ(r.query,
            "fieldSelector=metadata.name%3Dx&labelSelector=app%3Dweb%2Ctier%20in%20%28a%2Cb%29&limit=50&"
            "resourceVersion=0&resourceVersionMatch=NotOlderThan&timeoutSeconds=10");
  EXPECT_EQ(list.kind, "ConfigMapList");
  EXPECT_EQ(list.api_version, "v1");
  EXPECT_EQ(list.resource_version, "42");
  EXPECT_EQ(list.continue_token, "tok");
  EXPECT_EQ(list.remaining_item_count, 3);
  ASSERT_EQ(list.items.size(), 2u);
  EXPECT_EQ(json::get_string(list.items[1], {"metadata", "name"}), "b");

  std::string raw = client.list_raw(kDeployments, "", {});
  EXPECT_EQ(server.last().path, "/apis/apps/v1/deployments");
  EXPECT_EQ(server.last().query, "");
  json::ListMeta meta;
  std::vector<std::string> names;
  ASSERT_TRUE(json::decode_list(raw, meta, [&](std::string_view item) {
    json::MetaSummary s;
    json::summarize(item, s);
    names.emplace_back(s.name);
  }));
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(meta.resource_version, "42");
}

TEST(ClientCrud, ListAllFollowsContinueTokens) {
  std::atomic<int> page{0};
  FakeApiServer server([&](http::Request&, http::Reply& reply) {
    int p = page++;
    if (p == 0)
      reply.send(json_response(200, R"({"metadata":{"resourceVersion":"9","continue":"c1"},"items":[{"metadata":{"name":"a"}}]})"));
    else
      reply.send(json_response(200, R"({"metadata":{"resourceVersion":"9"},"items":[{"metadata":{"name":"b"}},{"metadata":{"name":"c"}}]})"));
  });
  Client client(server.config());
  ObjectList all = client.list_all(kConfigMaps, "", {.label_selector = "x", .limit = 1, .resource_version = "0"});
  EXPECT_EQ(all.items.size(), 3u);
  EXPECT_TRUE(all.continue_token.empty());
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].query, "labelSelector=x&limit=1&resourceVersion=0");
  EXPECT_EQ(reqs[1].query, "continue=c1&labelSelector=x&limit=1");
}

TEST(ClientCrud, CreateUpdateAndUpdateStatus) {
  FakeApiServer server(echo);
  Client client(server.config());
  json::Value cm = obj(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","resourceVersion":"7"},"data":{"k":"v"}})");

  json::Value created = client.create(kConfigMaps, "default", cm,
                                      {.field_manager = "capstan", .dry_run = true, .field_validation = "Strict"});
  auto r = server.last();
  EXPECT_EQ(r.method, "POST");
  EXPECT_EQ(r.path, "/api/v1/namespaces/default/configmaps");
  EXPECT_EQ(r.query, "dryRun=All&fieldManager=capstan&fieldValidation=Strict");
  EXPECT_EQ(r.headers.get_or("Content-Type", ""), "application/json");
  expect_json_eq(r.body, json::serialize(cm));
  EXPECT_TRUE(json::deep_equal(created, cm));

  client.update(kConfigMaps, "default", cm);
  r = server.last();
  EXPECT_EQ(r.method, "PUT");
  EXPECT_EQ(r.path, "/api/v1/namespaces/default/configmaps/demo");
  EXPECT_EQ(r.query, "");
  expect_json_eq(r.body, json::serialize(cm));

  client.update_status(kCerts, "ns1", cm, {.field_manager = "m"});
  r = server.last();
  EXPECT_EQ(r.method, "PUT");
  EXPECT_EQ(r.path, "/apis/certs.capstan.dev/v1/namespaces/ns1/certificates/demo/status");
  EXPECT_EQ(r.query, "fieldManager=m");

  EXPECT_THROW(client.update(kConfigMaps, "default", obj(R"({"metadata":{}})")), std::invalid_argument);
}

TEST(ClientCrud, PatchTypesContentTypesAndServerSideApply) {
  FakeApiServer server(echo);
  Client client(server.config());
  struct Case {
    PatchType type;
    const char* ct;
  };
  for (auto [type, ct] : {Case{PatchType::Json, "application/json-patch+json"},
                          Case{PatchType::Merge, "application/merge-patch+json"},
                          Case{PatchType::StrategicMerge, "application/strategic-merge-patch+json"}}) {
    client.patch(kDeployments, "prod", "web", type, std::string_view(R"({"spec":{"replicas":3}})"));
    auto r = server.last();
    EXPECT_EQ(r.method, "PATCH");
    EXPECT_EQ(r.path, "/apis/apps/v1/namespaces/prod/deployments/web");
    EXPECT_EQ(r.headers.get_or("Content-Type", ""), ct);
    EXPECT_EQ(r.query, "");
    EXPECT_EQ(r.body, R"({"spec":{"replicas":3}})");
  }

  json::Value ops = obj(R"([{"op":"test","path":"/metadata/resourceVersion","value":"7"},{"op":"remove","path":"/metadata/finalizers/0"}])");
  client.patch(kCerts, "ns", "c1", PatchType::Json, ops, {.field_manager = "capstan-finalizer"});
  auto r = server.last();
  EXPECT_EQ(r.query, "fieldManager=capstan-finalizer");
  expect_json_eq(r.body, json::serialize(ops));

  json::Value desired = obj(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","namespace":"default"},"data":{"k":"v"}})");
  json::Value applied = client.apply(kConfigMaps, "default", desired, "x", true);
  r = server.last();
  EXPECT_EQ(r.method, "PATCH");
  EXPECT_EQ(r.path, "/api/v1/namespaces/default/configmaps/demo");
  EXPECT_EQ(r.query, "fieldManager=x&force=true");
  EXPECT_EQ(r.headers.get_or("Content-Type", ""), "application/apply-patch+yaml");
  expect_json_eq(r.body, json::serialize(desired));  // JSON is valid YAML: sent as JSON, like kubectl
  EXPECT_EQ(json::get_string(applied, {"kind"}), "Patched");

  client.apply(kConfigMaps, "default", desired, "x", false, "status");
  r = server.last();
  EXPECT_EQ(r.path, "/api/v1/namespaces/default/configmaps/demo/status");
  EXPECT_EQ(r.query, "fieldManager=x");

  client.patch(kConfigMaps, "default", "demo", PatchType::Merge, std::string_view(R"({"status":{}})"),
               {.dry_run = true, .field_validation = "Ignore", .subresource = "status"});
  r = server.last();
  EXPECT_EQ(r.path, "/api/v1/namespaces/default/configmaps/demo/status");
  EXPECT_EQ(r.query, "dryRun=All&fieldValidation=Ignore");

  std::size_t before = server.count();
  EXPECT_THROW(client.patch(kConfigMaps, "default", "demo", PatchType::Apply, std::string_view("{}")),
               std::invalid_argument);
  EXPECT_THROW(client.patch(kConfigMaps, "default", "", PatchType::Merge, std::string_view("{}")),
               std::invalid_argument);
  EXPECT_EQ(server.count(), before);
}

TEST(ClientCrud, DeleteSendsDeleteOptionsAndCanIgnoreNotFound) {
  std::atomic<bool> gone{false};
  FakeApiServer server([&](http::Request& req, http::Reply& reply) {
    if (gone) {
      reply.send(json_response(404, status_body(404, "NotFound", "configmaps \"demo\" not found")));
      return;
    }
    reply.send(json_response(200, R"({"kind":"Status","apiVersion":"v1","status":"Success","details":{"name":"demo","kind":"configmaps"}})"));
  });
  Client client(server.config());
  DeleteOptions o;
  o.propagation = Propagation::Foreground;
  o.grace_period_seconds = 0;
  o.precondition_uid = "uid-1";
  o.precondition_resource_version = "7";
  o.dry_run = true;
  auto result = client.remove(kConfigMaps, "default", "demo", o);
  ASSERT_TRUE(result);
  EXPECT_EQ(json::get_string(*result, {"status"}), "Success");
  auto r = server.last();
  EXPECT_EQ(r.method, "DELETE");
  EXPECT_EQ(r.path, "/api/v1/namespaces/default/configmaps/demo");
  EXPECT_EQ(r.query, "");
  EXPECT_EQ(r.headers.get_or("Content-Type", ""), "application/json");
  expect_json_eq(r.body, R"({"propagationPolicy":"Foreground","gracePeriodSeconds":0,
                             "preconditions":{"uid":"uid-1","resourceVersion":"7"},"dryRun":["All"]})");

  client.remove(kConfigMaps, "default", "demo", {.propagation = Propagation::Background});
  EXPECT_EQ(server.last().body, R"({"propagationPolicy":"Background"})");
  client.remove(kConfigMaps, "default", "demo");
  EXPECT_EQ(server.last().body, "{}");

  gone = true;
  EXPECT_FALSE(client.remove(kConfigMaps, "default", "demo", {.ignore_not_found = true}).has_value());
  try {
    client.remove(kConfigMaps, "default", "demo");
    FAIL() << "expected ApiError";
  } catch (const ApiError& e) {
    EXPECT_TRUE(is_not_found(e));
    EXPECT_EQ(e.request().verb, "delete");
  }
}

TEST(ClientCrud, DeleteCollectionSendsSelectorAndOptions) {
  FakeApiServer server([](http::Request&, http::Reply& reply) {
    reply.send(json_response(200, R"({"kind":"Status","status":"Success"})"));
  });
  Client client(server.config());
  client.delete_collection(kConfigMaps, "default", {.label_selector = "app=x"}, {.propagation = Propagation::Orphan});
  auto r = server.last();
  EXPECT_EQ(r.method, "DELETE");
  EXPECT_EQ(r.path, "/api/v1/namespaces/default/configmaps");
  EXPECT_EQ(r.query, "labelSelector=app%3Dx");
  EXPECT_EQ(r.body, R"({"propagationPolicy":"Orphan"})");
}

TEST(ClientCrud, PathsForScopesGroupsAndOddNames) {
  FakeApiServer server([](http::Request&, http::Reply& reply) { reply.send(json_response(200, "{}")); });
  Config c = server.config();
  c.server += "/";  // a trailing slash is tolerated
  Client client(c);
  client.get(meta::GroupVersionResource{"rbac.authorization.k8s.io", "v1", "clusterroles"}, "", "system:controller:job-controller");
  EXPECT_EQ(server.last().path, "/apis/rbac.authorization.k8s.io/v1/clusterroles/system:controller:job-controller");
  client.get(kConfigMaps, "default", "a b/c");
  EXPECT_EQ(server.last().path, "/api/v1/namespaces/default/configmaps/a%20b%2Fc");
}

TEST(ClientCrud, RawRequestsAndNonJsonBodies) {
  FakeApiServer server([](http::Request& req, http::Reply& reply) {
    if (req.path() == "/version") reply.send(json_response(200, R"({"gitVersion":"v1.32.0"})"));
    else if (req.path() == "/api/v1/broken/x") reply.send(http::Response(200, "not json", "text/plain"));
    else reply.send(http::Response(502, "bad gateway", "text/plain"));
  });
  Client client(server.config());
  auto r = client.raw("GET", "/version?timeout=5s");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(server.last().query, "timeout=5s");
  try {
    client.raw("GET", "/proxy");
    FAIL();
  } catch (const ApiError& e) {
    EXPECT_EQ(e.code(), 502);
    EXPECT_TRUE(is_server_error(e));
    EXPECT_NE(e.message().find("bad gateway"), std::string::npos);
    EXPECT_EQ(std::string(e.what()).rfind("get /proxy: 502", 0), 0u) << e.what();
  }
  try {
    client.get(meta::GroupVersionResource{"", "v1", "broken"}, "", "x");
    FAIL();
  } catch (const ApiError& e) {
    EXPECT_TRUE(is_internal_error(e));
    EXPECT_NE(e.message().find("not JSON"), std::string::npos) << e.what();
  }
  EXPECT_THROW(client.raw("GET", "version"), std::invalid_argument);
}

TEST(ClientConfig, RejectsUnusableServerUrls) {
  Config c;
  EXPECT_THROW(Client{c}, ConfigError);
  c.server = "ftp://x";
  EXPECT_THROW(Client{c}, ConfigError);
}

TEST(ClientRetry, TooManyRequestsIsRetriedAfterRetryAfter) {
  std::atomic<int> calls{0};
  FakeApiServer server([&](http::Request&, http::Reply& reply) {
    int n = ++calls;
    if (n <= 2) {
      http::Response r(429, status_body(429, "TooManyRequests", "too many requests, please try again later"));
      r.headers.set("Retry-After", n == 1 ? "0" : "1");
      reply.send(std::move(r));
      return;
    }
    reply.send(json_response(200, R"({"metadata":{"name":"demo"}})"));
  });
  Client client(server.config());
  auto start = std::chrono::steady_clock::now();
  json::Value v = client.get(kConfigMaps, "default", "demo");
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(json::get_string(v, {"metadata", "name"}), "demo");
  EXPECT_EQ(calls.load(), 3);
  EXPECT_GE(elapsed, 950ms);  // the second answer asked for 1 s
  EXPECT_LT(elapsed, 1900ms);
}

TEST(ClientRetry, GivesUpAfterMaxRetriesAndOnlyWithRetryAfter) {
  std::atomic<int> calls{0};
  FakeApiServer server([&](http::Request& req, http::Reply& reply) {
    ++calls;
    if (req.path() == "/api/v1/namespaces/default/configmaps/busy") {
      http::Response r(429, status_body(429, "TooManyRequests", "slow down"));
      r.headers.set("Retry-After", "0");
      reply.send(std::move(r));
    } else if (req.path() == "/api/v1/namespaces/default/configmaps/flaky") {
      http::Response r(503, status_body(503, "ServiceUnavailable", "starting"));
      if (calls == 1) r.headers.set("Retry-After", "0");
      reply.send(std::move(r));
    } else {
      reply.send(json_response(500, status_body(500, "InternalError", "boom")));
    }
  });
  ClientOptions o;
  o.max_retries = 2;
  Client client(server.config(), o);
  try {
    client.get(kConfigMaps, "default", "busy");
    FAIL();
  } catch (const ApiError& e) {
    EXPECT_TRUE(is_too_many_requests(e));
    EXPECT_EQ(e.retry_after_seconds(), 0);
  }
  EXPECT_EQ(calls.load(), 3);  // first try + 2 retries

  calls = 0;
  EXPECT_THROW(client.get(kConfigMaps, "default", "flaky"), ApiError);
  EXPECT_EQ(calls.load(), 2);  // 503 with Retry-After retried once; the next 503 had none

  calls = 0;
  EXPECT_THROW(client.create(kConfigMaps, "default", obj(R"({"metadata":{"name":"x"}})")), ApiError);
  EXPECT_EQ(calls.load(), 1);  // no Retry-After: not retried
}

TEST(ClientMetrics, RequestsTotalByCodeMethodHost) {
  FakeApiServer server([](http::Request& req, http::Reply& reply) {
    if (req.method == "POST") reply.send(json_response(201, "{}"));
    else if (req.path().ends_with("/missing")) reply.send(json_response(404, status_body(404, "NotFound", "x")));
    else reply.send(json_response(200, "{}"));
  });
  metrics::Registry registry;
  ClientOptions o;
  o.registry = &registry;
  Client client(server.config(), o);
  client.get(kConfigMaps, "default", "a");
  client.get(kConfigMaps, "default", "b");
  EXPECT_THROW(client.get(kConfigMaps, "default", "missing"), ApiError);
  client.create(kConfigMaps, "default", obj(R"({"metadata":{"name":"c"}})"));

  std::string host = server.url().substr(std::string("http://").size());
  auto total = [&](const std::vector<std::string>& labels) {
    return testing::counter_value(registry, "rest_client_requests_total", labels);
  };
  EXPECT_EQ(total({"200", "GET", host}), 2);
  EXPECT_EQ(total({"404", "GET", host}), 1);
  EXPECT_EQ(total({"201", "POST", host}), 1);
  auto latency = testing::find_sample(registry, "rest_client_request_duration_seconds", {"GET", host});
  ASSERT_TRUE(latency);
  EXPECT_EQ(latency->count, 3u);

  bool found_latency = false;
  for (const auto& fam : registry.collect()) {
    if (fam.name != "rest_client_request_duration_seconds") continue;
    found_latency = true;
    ASSERT_EQ(fam.label_names, (std::vector<std::string>{"verb", "host"}));
  }
  EXPECT_TRUE(found_latency);

  // A transport failure counts as code "<error>".
  Config dead;
  dead.server = "http://127.0.0.1:1";
  dead.timeout = 2s;
  Client broken(dead, o);
  EXPECT_THROW(broken.get(kConfigMaps, "default", "a"), http::TransportError);
  EXPECT_EQ(total({"<error>", "GET", "127.0.0.1:1"}), 1);
}

TEST(ClientTls, KubeconfigWithClientCertificateAndCa) {
  const auto& p = testing::TestPki::get();
  http::ServerTls tls;
  tls.cert_pem = p.server_cert_pem;
  tls.key_pem = p.server_key_pem;
  tls.client_ca_pem = p.ca_pem;
  FakeApiServer server([](http::Request& req, http::Reply& reply) { reply.send(json_response(200, "{}")); }, tls);
  ASSERT_EQ(server.url().rfind("https://", 0), 0u);

  testing::TempDir dir;
  dir.write("ca.crt", p.ca_pem);
  std::string path = dir.write("config", "current-context: c\nclusters: [{name: k, cluster: {server: \"" +
                                             server.url() + "\", certificate-authority: ca.crt}}]\n" +
                                             "contexts: [{name: c, context: {cluster: k, user: admin}}]\n" +
                                             "users: [{name: admin, user: {client-certificate-data: " +
                                             meta::base64_encode(p.client_cert_pem) + ", client-key-data: " +
                                             meta::base64_encode(p.client_key_pem) + "}}]\n");
  Config c = load_kubeconfig(path);
  c.qps = 0;
  Client client(c);
  client.get(kNodes, "", "n1");
  EXPECT_EQ(server.last().peer_cn.value_or(""), "admin");

  // Verification by another name, and failure without the right CA.
  Config named = c;
  named.server = "https://127.0.0.1:" + server.url().substr(server.url().rfind(':') + 1);
  named.tls_server_name = "localhost";
  EXPECT_NO_THROW(Client(named).get(kNodes, "", "n1"));

  Config untrusted = server.config();
  untrusted.ca_pem = testing::TestPki::get().client_cert_pem;  // a certificate that is not the CA
  EXPECT_THROW(Client(untrusted).get(kNodes, "", "n1"), http::TransportError);

  Config insecure = server.config();
  insecure.insecure_skip_tls_verify = true;
  insecure.bearer_token = "t";
  EXPECT_NO_THROW(Client(insecure).get(kNodes, "", "n1"));
  EXPECT_EQ(server.last().headers.get_or("Authorization", ""), "Bearer t");
  EXPECT_FALSE(server.last().peer_cn.has_value());
}

}  // namespace
}  // namespace capstan::client
