// Pure pieces: configuration parsing and defaults, rule matching, review building/checking and
// the Go-worded client errors.
#include "apiserver/admission/admission_review.h"
#include "apiserver/admission/matcher.h"
#include "apiserver/admission/webhook_client.h"
#include "apiserver/admission/webhook_config.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::admission {
namespace {

Rule rule(std::vector<std::string> ops, std::vector<std::string> groups, std::vector<std::string> versions,
          std::vector<std::string> resources, std::string scope = "*") {
  return Rule{std::move(ops), std::move(groups), std::move(versions), std::move(resources), std::move(scope)};
}

RuleTarget target(std::string_view group, std::string_view resource, std::string_view sub = "",
                  std::string_view op = "CREATE", std::string_view ns = "default", std::string_view version = "v1") {
  return RuleTarget{group, version, resource, sub, op, ns};
}

TEST(WebhookMatcherTest, ResourcesAndSubresources) {
  auto pods = rule({"*"}, {""}, {"v1"}, {"pods"});
  EXPECT_TRUE(rule_matches(pods, target("", "pods")));
  EXPECT_FALSE(rule_matches(pods, target("", "pods", "status")));
  EXPECT_FALSE(rule_matches(pods, target("", "configmaps")));
  EXPECT_FALSE(rule_matches(pods, target("apps", "pods")));
  EXPECT_FALSE(rule_matches(pods, target("", "pods", "", "CREATE", "default", "v2")));

  auto star = rule({"*"}, {"*"}, {"*"}, {"*"});
  EXPECT_TRUE(rule_matches(star, target("apps", "deployments")));
  EXPECT_FALSE(rule_matches(star, target("apps", "deployments", "scale")));  // "*" is main resources only

  auto all = rule({"*"}, {"*"}, {"*"}, {"*/*"});
  EXPECT_TRUE(rule_matches(all, target("apps", "deployments")));
  EXPECT_TRUE(rule_matches(all, target("apps", "deployments", "scale")));

  auto pod_subs = rule({"*"}, {""}, {"v1"}, {"pods/*"});
  EXPECT_TRUE(rule_matches(pod_subs, target("", "pods", "status")));
  EXPECT_TRUE(rule_matches(pod_subs, target("", "pods")));
  EXPECT_FALSE(rule_matches(pod_subs, target("", "services", "status")));

  auto any_status = rule({"*"}, {"*"}, {"*"}, {"*/status"});
  EXPECT_TRUE(rule_matches(any_status, target("", "pods", "status")));
  EXPECT_TRUE(rule_matches(any_status, target("example.com", "gadgets", "status")));
  EXPECT_FALSE(rule_matches(any_status, target("", "pods")));
  EXPECT_FALSE(rule_matches(any_status, target("apps", "deployments", "scale")));

  auto pod_status = rule({"UPDATE"}, {""}, {"v1"}, {"pods/status"});
  EXPECT_TRUE(rule_matches(pod_status, target("", "pods", "status", "UPDATE")));
  EXPECT_FALSE(rule_matches(pod_status, target("", "pods", "status", "CREATE")));
}

TEST(WebhookMatcherTest, OperationsAndScope) {
  auto create_update = rule({"CREATE", "UPDATE"}, {"*"}, {"*"}, {"*"});
  EXPECT_TRUE(rule_matches(create_update, target("", "configmaps", "", "UPDATE")));
  EXPECT_FALSE(rule_matches(create_update, target("", "configmaps", "", "DELETE")));
  EXPECT_TRUE(rule_matches(rule({"*"}, {"*"}, {"*"}, {"*"}), target("", "configmaps", "", "CONNECT")));

  auto cluster = rule({"*"}, {"*"}, {"*"}, {"*"}, "Cluster");
  auto namespaced = rule({"*"}, {"*"}, {"*"}, {"*"}, "Namespaced");
  EXPECT_FALSE(rule_matches(cluster, target("", "configmaps")));
  EXPECT_TRUE(rule_matches(namespaced, target("", "configmaps")));
  EXPECT_TRUE(rule_matches(cluster, target("rbac.authorization.k8s.io", "clusterroles", "", "CREATE", "")));
  EXPECT_FALSE(rule_matches(namespaced, target("rbac.authorization.k8s.io", "clusterroles", "", "CREATE", "")));
  // A Namespace carries its own name as namespace, yet is cluster-scoped.
  EXPECT_TRUE(rule_matches(cluster, target("", "namespaces", "", "UPDATE", "prod")));
  EXPECT_FALSE(rule_matches(namespaced, target("", "namespaces", "", "UPDATE", "prod")));
  EXPECT_FALSE(rule_matches(rule({"*"}, {"*"}, {"*"}, {"*"}, "Bogus"), target("", "configmaps")));
}

TEST(WebhookMatcherTest, MatchPolicyExactAndEquivalent) {
  registry::ResourceInfo r;
  r.group = "example.com";
  r.resource = "things";
  r.kind = "Thing";
  for (auto v : {"v2", "v1", "v1beta1"}) {
    registry::VersionInfo vi;
    vi.name = v;
    vi.served = std::string(v) != "v1beta1";
    r.versions.push_back(vi);
  }
  Webhook h;
  h.rules = {rule({"*"}, {"example.com"}, {"v1"}, {"things"})};
  auto t = target("example.com", "things", "", "CREATE", "default", "v2");
  EXPECT_EQ(match_version(h, r, t), std::optional<std::string>("v1"));
  h.match_policy = "Exact";
  EXPECT_EQ(match_version(h, r, t), std::nullopt);
  h.rules = {rule({"*"}, {"example.com"}, {"v2", "v1"}, {"things"})};
  EXPECT_EQ(match_version(h, r, t), std::optional<std::string>("v2"));
  h.match_policy = "Equivalent";
  h.rules = {rule({"*"}, {"example.com"}, {"v1beta1"}, {"things"})};  // not served: no equivalent
  EXPECT_EQ(match_version(h, r, t), std::nullopt);
}

TEST(WebhookMatcherTest, ObjectSelectorAndExemptions) {
  auto sel = meta::LabelSelector::from_json(nullptr);
  EXPECT_TRUE(object_selector_matches(sel, nullptr, nullptr));
  json::Value web = json::Object{{"metadata", json::Object{{"labels", json::Object{{"app", "web"}}}}}};
  json::Value plain = json::Object{{"metadata", json::Object{}}};
  json::Value spec = json::Object{{"matchLabels", json::Object{{"app", "web"}}}};
  sel = meta::LabelSelector::from_json(&spec);
  EXPECT_TRUE(object_selector_matches(sel, &web, nullptr));
  EXPECT_FALSE(object_selector_matches(sel, &plain, nullptr));
  EXPECT_TRUE(object_selector_matches(sel, &plain, &web));
  EXPECT_TRUE(object_selector_matches(sel, nullptr, &web));
  EXPECT_FALSE(object_selector_matches(sel, nullptr, nullptr));

  EXPECT_TRUE(is_exempt("admissionregistration.k8s.io", "ValidatingWebhookConfiguration"));
  EXPECT_TRUE(is_exempt("admissionregistration.k8s.io", "MutatingWebhookConfiguration"));
  EXPECT_TRUE(is_exempt("admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"));
  EXPECT_FALSE(is_exempt("admissionregistration.k8s.io", "Other"));
  EXPECT_FALSE(is_exempt("", "ConfigMap"));
}

TEST(WebhookMatcherTest, ConfigurationDefaultsAndOrder) {
  json::Value cfg = json::Object{
      {"metadata", json::Object{{"name", "b"}}},
      {"webhooks", json::Array{json::Object{{"name", "z.example.com"},
                                            {"clientConfig", json::Object{{"service", json::Object{{"namespace", "sys"}, {"name", "hook"}}}}},
                                            {"rules", json::Array{json::Object{{"operations", json::Array{"CREATE"}},
                                                                               {"apiGroups", json::Array{""}},
                                                                               {"apiVersions", json::Array{"v1"}},
                                                                               {"resources", json::Array{"pods"}}}}},
                                            {"namespaceSelector", json::Object{{"matchExpressions", json::Array{json::Object{
                                                                                  {"key", "a"}, {"operator", "Bogus"}}}}}},
                                            {"admissionReviewVersions", json::Array{"v1"}}},
                               json::Object{{"name", "a.example.com"},
                                            {"clientConfig", json::Object{{"url", "https://x/"}, {"caBundle", "!!!"}}},
                                            {"failurePolicy", "Ignore"},
                                            {"matchPolicy", "Exact"},
                                            {"sideEffects", "None"},
                                            {"timeoutSeconds", 3},
                                            {"reinvocationPolicy", "IfNeeded"},
                                            {"matchConditions", json::Array{json::Object{{"name", "c"}, {"expression", "true"}}}}}}}};
  auto hooks = parse_configuration(cfg, true);
  ASSERT_EQ(hooks.size(), 2u);
  const auto& z = hooks[0];
  EXPECT_EQ(z.configuration, "b");
  EXPECT_EQ(z.failure_policy, "Fail");
  EXPECT_EQ(z.match_policy, "Equivalent");
  EXPECT_EQ(z.timeout_seconds, 10);
  EXPECT_EQ(z.reinvocation_policy, "Never");
  EXPECT_FALSE(z.side_effects.has_value());
  ASSERT_TRUE(z.client.service.has_value());
  EXPECT_EQ(z.client.service->port, 443);
  EXPECT_EQ(z.rules.at(0).scope, "*");
  EXPECT_FALSE(z.namespace_selector.error.empty());
  EXPECT_TRUE(z.object_selector.error.empty());
  const auto& a = hooks[1];
  EXPECT_EQ(a.failure_policy, "Ignore");
  EXPECT_EQ(a.match_policy, "Exact");
  EXPECT_EQ(a.timeout_seconds, 3);
  EXPECT_EQ(a.side_effects, std::optional<std::string>("None"));
  EXPECT_EQ(a.reinvocation_policy, "IfNeeded");
  EXPECT_EQ(a.match_conditions, 1u);
  EXPECT_FALSE(a.client.ca_error.empty());

  json::Value first = json::Object{{"metadata", json::Object{{"name", "a"}}},
                                   {"webhooks", json::Array{json::Object{{"name", "only.example.com"}}}}};
  auto flat = flatten_configurations({cfg, first}, false);
  ASSERT_EQ(flat.size(), 3u);
  EXPECT_EQ(flat[0].name, "only.example.com");
  EXPECT_EQ(flat[1].name, "z.example.com");
  EXPECT_EQ(flat[2].name, "a.example.com");
  EXPECT_EQ(flat[2].reinvocation_policy, "Never");  // validating webhooks have none
}

TEST(WebhookMatcherTest, AdmissionReviewResponseChecks) {
  auto ok = R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"u1","allowed":true,"warnings":["w"]}})";
  auto r = parse_admission_response(ok, "v1", "u1", false);
  EXPECT_TRUE(r.allowed);
  EXPECT_EQ(r.warnings, std::vector<std::string>{"w"});
  // apiVersion/kind may be omitted (the decoder defaults them).
  EXPECT_TRUE(parse_admission_response(R"({"response":{"uid":"u1","allowed":true}})", "v1", "u1", false).allowed);

  auto invalid = [](std::string_view body, bool mutating) -> std::string {
    try {
      parse_admission_response(body, "v1", "u1", mutating);
    } catch (const ReviewInvalidError& e) {
      return std::string("invalid: ") + e.what();
    } catch (const ReviewDecodeError& e) {
      return std::string("decode: ") + e.what();
    }
    return "ok";
  };
  EXPECT_EQ(invalid(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"})", false),
            "invalid: webhook response was absent");
  EXPECT_EQ(invalid(R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview","response":{"uid":"u1"}})", false),
            "invalid: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got "
            "admission.k8s.io/v1beta1, Kind=AdmissionReview");
  EXPECT_EQ(invalid(R"({"response":{"uid":"u2"}})", false), "invalid: expected response.uid=\"u1\", got \"u2\"");
  EXPECT_EQ(invalid(R"({"response":{"uid":"u1","allowed":true,"patch":"W10="}})", true),
            "invalid: webhook returned response.patch but not response.patchType");
  EXPECT_EQ(invalid(R"({"response":{"uid":"u1","allowed":true,"patchType":"JSONPatch"}})", true),
            "invalid: webhook returned response.patchType but not response.patch");
  EXPECT_EQ(invalid(R"({"response":{"uid":"u1","allowed":true,"patchType":"JSONPatch"}})", false),
            "invalid: validating webhook may not return response.patchType");
  EXPECT_EQ(invalid(R"({"response":{"uid":"u1","allowed":true,"patch":"%%","patchType":"JSONPatch"}})", true),
            "decode: illegal base64 data at input byte 0");
  EXPECT_EQ(invalid("not json", false).rfind("decode: couldn't get version/kind; json parse error: ", 0), 0u);
  auto patched = parse_admission_response(R"({"response":{"uid":"u1","allowed":true,"patch":"W10=","patchType":"JSONPatch"}})",
                                          "v1", "u1", true);
  EXPECT_EQ(patched.patch, "[]");
  EXPECT_EQ(patched.patch_type, "JSONPatch");
}

TEST(WebhookMatcherTest, ReviewVersionAndGvkText) {
  EXPECT_EQ(pick_review_version({"v1beta1", "v1"}), std::optional<std::string>("v1beta1"));
  EXPECT_EQ(pick_review_version({"v2", "v1"}), std::optional<std::string>("v1"));
  EXPECT_EQ(pick_review_version({"v2"}), std::nullopt);
  EXPECT_EQ(gvk_string("example.com/v2", "Widget"), "example.com/v2, Kind=Widget");
  EXPECT_EQ(gvk_string("v1", "Pod"), "/v1, Kind=Pod");
}

TEST(WebhookClientTest, GoWording) {
  using namespace std::chrono_literals;
  EXPECT_EQ(go_duration(10s), "10s");
  EXPECT_EQ(go_duration(90s), "1m30s");
  EXPECT_EQ(generic_server_response_message(404, "unknown"), "the server could not find the requested resource");
  EXPECT_EQ(generic_server_response_message(502, "bad gateway"),
            "an error on the server (\"bad gateway\") has prevented the request from succeeding");
  EXPECT_EQ(generic_server_response_message(302, "unknown"),
            "the server responded with the status code 302 but did not return more information");
  EXPECT_EQ(go_transport_error("POST https://127.0.0.1:9/x?timeout=1s: dial tcp https://127.0.0.1:9: Connection refused",
                               "https://127.0.0.1:9/x?timeout=1s", "https://svc.ns.svc:443/x?timeout=1s"),
            "Post \"https://svc.ns.svc:443/x?timeout=1s\": dial tcp 127.0.0.1:9: connect: connection refused");
  EXPECT_EQ(go_transport_error("POST https://127.0.0.1:9/x: timed out", "https://127.0.0.1:9/x", "https://127.0.0.1:9/x"),
            "Post \"https://127.0.0.1:9/x\": context deadline exceeded");
  EXPECT_EQ(go_transport_error("POST https://h.invalid:9/x: resolving h.invalid: Host not found", "https://h.invalid:9/x",
                               "https://h.invalid:9/x"),
            "Post \"https://h.invalid:9/x\": dial tcp: lookup h.invalid: no such host");
}

TEST(WebhookClientTest, ResolveUrlAndServiceErrors) {
  storage::Store store{storage::StoreOptions{}};
  WebhookClient client(store);
  ClientConfig cc;
  cc.url = "https://hooks.example.com:8443/validate?ignored=1";
  auto t = client.resolve(cc, std::chrono::seconds(10));
  EXPECT_EQ(t.display_url, "https://hooks.example.com:8443/validate?timeout=10s");
  EXPECT_EQ(t.dial_url, t.display_url);
  cc.url = "https://hooks.example.com";
  EXPECT_EQ(client.resolve(cc, std::chrono::seconds(1)).display_url, "https://hooks.example.com/?timeout=1s");
  cc.url = "https://hooks.example.com/validate/";
  EXPECT_EQ(client.resolve(cc, std::chrono::seconds(1)).display_url, "https://hooks.example.com/validate?timeout=1s");
  cc.url = "ftp://hooks.example.com/";
  EXPECT_THROW(client.resolve(cc, std::chrono::seconds(1)), CallError);

  auto error_of = [&](const ClientConfig& c) -> std::string {
    try {
      client.resolve(c, std::chrono::seconds(10));
    } catch (const CallError& e) {
      return e.what();
    }
    return "ok";
  };
  EXPECT_EQ(error_of(ClientConfig{}), "webhook configuration must have either service or URL");
  ClientConfig svc;
  svc.service = ServiceReference{"sys", "hook", "", 8443};
  EXPECT_EQ(error_of(svc), "Post \"https://hook.sys.svc:8443/?timeout=10s\": service \"hook\" not found");
  store.create("services", json::Object{{"metadata", json::Object{{"name", "hook"}, {"namespace", "sys"}}},
                                        {"spec", json::Object{{"ports", json::Array{json::Object{{"port", 443}}}}}}});
  EXPECT_EQ(error_of(svc), "Post \"https://hook.sys.svc:8443/?timeout=10s\": no service port 8443 found for service \"hook\"");
  svc.service->port = 443;
  EXPECT_EQ(error_of(svc), "Post \"https://hook.sys.svc:443/?timeout=10s\": endpoints \"hook\" not found");
  store.create("endpoints", json::Object{{"metadata", json::Object{{"name", "hook"}, {"namespace", "sys"}}}});
  EXPECT_EQ(error_of(svc), "Post \"https://hook.sys.svc:443/?timeout=10s\": no endpoints available for service \"hook\"");
  store.update("endpoints", "sys", "hook", [](const storage::Object& cur) -> std::optional<json::Value> {
    json::Value v = *cur.value;
    v.as_object()["subsets"] = json::Array{
        json::Object{{"notReadyAddresses", json::Array{json::Object{{"ip", "10.0.0.9"}}}},
                     {"ports", json::Array{json::Object{{"port", 9443}}}}},
        json::Object{{"addresses", json::Array{json::Object{{"ip", "10.0.0.1"}}, json::Object{{"ip", "10.0.0.2"}}}},
                     {"ports", json::Array{json::Object{{"port", 9443}}}}}};
    return v;
  });
  t = client.resolve(svc, std::chrono::seconds(10));
  EXPECT_EQ(t.dial_url, "https://10.0.0.1:9443/?timeout=10s");
  EXPECT_EQ(t.server_name, "hook.sys.svc");
  EXPECT_EQ(t.host_header, "hook.sys.svc:443");
}

}  // namespace
}  // namespace capstan::apiserver::admission
