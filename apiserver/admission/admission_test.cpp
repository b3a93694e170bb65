// WebhookAdmission wired into rest::Service, against in-process HTTPS webhooks.
#include "apiserver/admission/test_support.h"
#include "runtime/meta/base64.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace capstan::apiserver::admission {
namespace {

using namespace std::chrono_literals;
using testing::allow;
using testing::Cluster;
using testing::deny;
using testing::FakeWebhook;
using testing::review_answer;
using testing::webhook_entry;

template <typename F>
ApiError api_error(F&& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an ApiError";
  return ApiError(0, "", "");
}

std::string str(const json::Value& v, json::Path p) { return std::string(json::get_string(v, p)); }

json::Value add_label(std::string key, std::string value) {
  return json::Object{{"op", "add"}, {"path", "/metadata/labels"}, {"value", json::Object{{key, value}}}};
}

TEST(WebhookAdmissionTest, MutatingJsonPatchIsAppliedAndRequestIsComplete) {
  Cluster c;
  FakeWebhook mutator([](const json::Value& r) { return allow(r, json::Array{add_label("mutated", "yes")}); });
  FakeWebhook validator([](const json::Value& r) { return allow(r); });
  c.add_mutating("m", json::Array{webhook_entry("m.capstan.dev", mutator.url("/mutate"), {"configmaps"}, {"CREATE"})});
  c.add_validating("v", json::Array{webhook_entry("v.capstan.dev", validator.url("/validate"), {"configmaps"})});

  rest::WriteOptions o;
  o.user = rest::User{"alice", "u-1", {"devs", "system:authenticated"}};
  o.field_manager = "kubectl-create";
  auto created = c.create("configmaps", "default", Cluster::configmap("cm1", {}, {{"k", "v"}}), &o);
  EXPECT_EQ(str(created, {"metadata", "labels", "mutated"}), "yes");
  auto stored = c.service.get(c.target("configmaps", "", "default", "cm1"));
  EXPECT_EQ(str(stored, {"metadata", "labels", "mutated"}), "yes");

  ASSERT_EQ(mutator.calls(), 1u);
  EXPECT_EQ(mutator.targets()[0], "/mutate?timeout=10s");
  const json::Value review = mutator.reviews()[0];
  EXPECT_EQ(str(review, {"apiVersion"}), "admission.k8s.io/v1");
  EXPECT_EQ(str(review, {"kind"}), "AdmissionReview");
  const json::Value& req = review.at("request");
  EXPECT_FALSE(str(req, {"uid"}).empty());
  EXPECT_EQ(req.at("kind"), (json::Value(json::Object{{"group", ""}, {"version", "v1"}, {"kind", "ConfigMap"}})));
  EXPECT_EQ(req.at("resource"), (json::Value(json::Object{{"group", ""}, {"version", "v1"}, {"resource", "configmaps"}})));
  EXPECT_EQ(req.at("requestKind"), req.at("kind"));
  EXPECT_EQ(req.at("requestResource"), req.at("resource"));
  EXPECT_EQ(json::find(req, {"subResource"}), nullptr);
  EXPECT_EQ(str(req, {"operation"}), "CREATE");
  EXPECT_EQ(str(req, {"namespace"}), "default");
  EXPECT_EQ(str(req, {"name"}), "cm1");
  EXPECT_EQ(str(req, {"userInfo", "username"}), "alice");
  EXPECT_EQ(str(req, {"userInfo", "uid"}), "u-1");
  EXPECT_EQ(req.at("userInfo").at("groups"), (json::Value(json::Array{"devs", "system:authenticated"})));
  EXPECT_EQ(str(req, {"object", "data", "k"}), "v");
  EXPECT_TRUE(req.at("oldObject").is_null());
  EXPECT_EQ(req.at("dryRun"), json::Value(false));
  EXPECT_EQ(str(req, {"options", "kind"}), "CreateOptions");
  EXPECT_EQ(str(req, {"options", "fieldManager"}), "kubectl-create");

  // Validating webhooks see the mutated object.
  ASSERT_EQ(validator.calls(), 1u);
  EXPECT_EQ(str(validator.reviews()[0], {"request", "object", "metadata", "labels", "mutated"}), "yes");
  EXPECT_NE(str(validator.reviews()[0], {"request", "uid"}), str(req, {"uid"}));
}

TEST(WebhookAdmissionTest, MutatingWebhooksRunInOrderAndSeeEarlierPatches) {
  Cluster c;
  auto tagger = [](std::string tag) {
    return [tag](const json::Value& r) {
      const json::Value* order = json::find(r, {"request", "object", "metadata", "annotations", "order"});
      json::Value op = order ? json::Value(json::Object{{"op", "replace"},
                                                        {"path", "/metadata/annotations/order"},
                                                        {"value", std::string(order->get_string()) + "," + tag}})
                             : json::Value(json::Object{{"op", "add"},
                                                        {"path", "/metadata/annotations"},
                                                        {"value", json::Object{{"order", tag}}}});
      return allow(r, json::Array{op});
    };
  };
  FakeWebhook z(tagger("z")), y(tagger("y")), x(tagger("x"));
  // Configurations in name order; inside one, the listed order.
  c.add_mutating("b-second", json::Array{webhook_entry("x.second.test", x.url())});
  c.add_mutating("a-first", json::Array{webhook_entry("z.first.test", z.url()), webhook_entry("y.first.test", y.url())});

  auto created = c.create("configmaps", "default", Cluster::configmap("ordered"));
  EXPECT_EQ(str(created, {"metadata", "annotations", "order"}), "z,y,x");
  ASSERT_EQ(x.calls(), 1u);
  EXPECT_EQ(str(x.reviews()[0], {"request", "object", "metadata", "annotations", "order"}), "z,y");
}

TEST(WebhookAdmissionTest, ValidatingDenialCarriesWebhookStatus) {
  Cluster c;
  FakeWebhook v([](const json::Value& r) {
    return deny(r, 403, "spec.duration: Invalid value: \"1h\": must be at least 2h", "Forbidden");
  });
  c.add_validating("certs", json::Array{webhook_entry("vcert.capstan.dev", v.url("/validate"), {"configmaps"})});
  auto e = api_error([&] { c.create("configmaps", "default", Cluster::configmap("denied")); });
  EXPECT_EQ(e.code, 403);
  EXPECT_EQ(e.reason, "Forbidden");
  EXPECT_STREQ(e.what(), "admission webhook \"vcert.capstan.dev\" denied the request: spec.duration: Invalid value: \"1h\": must be at least 2h");
  EXPECT_EQ(api_error([&] { c.service.get(c.target("configmaps", "", "default", "denied")); }).code, 404);

  // No explanation, a code below 400, a reason only.
  v.set_responder([](const json::Value& r) { return deny(r, 0, ""); });
  e = api_error([&] { c.create("configmaps", "default", Cluster::configmap("denied")); });
  EXPECT_EQ(e.code, 400);
  EXPECT_EQ(e.reason, "");
  EXPECT_STREQ(e.what(), "admission webhook \"vcert.capstan.dev\" denied the request without explanation");
  v.set_responder([](const json::Value& r) { return deny(r, 200, "", "NotAllowed"); });
  e = api_error([&] { c.create("configmaps", "default", Cluster::configmap("denied")); });
  EXPECT_EQ(e.code, 400);
  EXPECT_STREQ(e.what(), "admission webhook \"vcert.capstan.dev\" denied the request: NotAllowed");
}

TEST(WebhookAdmissionTest, FailurePolicyFailRejectsWhenWebhookIsDown) {
  Cluster c;
  std::string port = std::to_string(testing::closed_port());
  std::string url = "https://127.0.0.1:" + port + "/validate";
  c.add_validating("down", json::Array{webhook_entry("down.capstan.dev", url, {"configmaps"})});
  auto e = api_error([&] { c.create("configmaps", "default", Cluster::configmap("x")); });
  EXPECT_EQ(e.code, 500);
  EXPECT_EQ(e.reason, "InternalError");
  std::string cause = "failed calling webhook \"down.capstan.dev\": failed to call webhook: Post \"https://127.0.0.1:" + port +
                      "/validate?timeout=10s\": dial tcp 127.0.0.1:" + port + ": connect: connection refused";
  EXPECT_EQ(std::string(e.what()), "Internal error occurred: " + cause);
  EXPECT_EQ(str(e.details.at("causes").as_array().at(0), {"message"}), cause);

  // The same for a mutating webhook.
  Cluster m;
  m.add_mutating("down", json::Array{webhook_entry("mdown.capstan.dev", url, {"configmaps"})});
  e = api_error([&] { m.create("configmaps", "default", Cluster::configmap("x")); });
  EXPECT_EQ(e.code, 500);
  EXPECT_NE(std::string(e.what()).find("failed calling webhook \"mdown.capstan.dev\": failed to call webhook: Post"),
            std::string::npos);
}

TEST(WebhookAdmissionTest, FailurePolicyIgnoreProceedsWhenWebhookIsDown) {
  Cluster c;
  std::string url = "https://127.0.0.1:" + std::to_string(testing::closed_port()) + "/";
  auto v = webhook_entry("down.capstan.dev", url, {"configmaps"});
  v["failurePolicy"] = "Ignore";
  auto m = webhook_entry("mdown.capstan.dev", url, {"configmaps"});
  m["failurePolicy"] = "Ignore";
  c.add_validating("down", json::Array{v});
  c.add_mutating("down", json::Array{m});
  EXPECT_NO_THROW(c.create("configmaps", "default", Cluster::configmap("ignored")));
}

TEST(WebhookAdmissionTest, TimeoutSecondsBoundsTheCall) {
  Cluster c;
  FakeWebhook slow([](const json::Value& r) { return allow(r); });
  slow.set_delay(3000ms);
  auto hook = webhook_entry("slow.capstan.dev", slow.url("/validate"), {"configmaps"});
  hook["timeoutSeconds"] = 1;
  c.add_validating("slow", json::Array{hook});
  // The webhook answers after 3s: only a working timeout turns this into an error.
  auto e = api_error([&] { c.create("configmaps", "default", Cluster::configmap("slow")); });
  EXPECT_EQ(e.code, 500);
  EXPECT_EQ(std::string(e.what()), "Internal error occurred: failed calling webhook \"slow.capstan.dev\": failed to call webhook: Post \"" +
                                       slow.url("/validate") + "?timeout=1s\": context deadline exceeded");

  Cluster ignore;
  hook["failurePolicy"] = "Ignore";
  ignore.add_validating("slow", json::Array{hook});
  EXPECT_NO_THROW(ignore.create("configmaps", "default", Cluster::configmap("slow")));
}

TEST(WebhookAdmissionTest, NamespaceSelectorFiltersByNamespaceLabels) {
  Cluster c;
  c.create_namespace("prod", {{"env", "prod"}});
  c.create_namespace("dev", {{"env", "dev"}});
  FakeWebhook v([](const json::Value& r) { return allow(r); });
  auto hook = webhook_entry("ns.capstan.dev", v.url(), {"configmaps", "namespaces", "clusterroles"});
  hook["namespaceSelector"] = json::Object{{"matchLabels", json::Object{{"env", "prod"}}}};
  c.add_validating("ns", json::Array{hook});

  c.create("configmaps", "dev", Cluster::configmap("a"));
  EXPECT_EQ(v.calls(), 0u);
  c.create("configmaps", "prod", Cluster::configmap("a"));
  EXPECT_EQ(v.calls(), 1u);
  // A Namespace is matched on its own labels; it has no namespace on CREATE.
  c.create_namespace("prod2", {{"env", "prod"}});
  ASSERT_EQ(v.calls(), 2u);
  EXPECT_EQ(json::find(v.reviews()[1], {"request", "namespace"}), nullptr);
  c.create_namespace("qa");
  EXPECT_EQ(v.calls(), 2u);
  // Cluster-scoped objects other than Namespaces always match.
  c.create("clusterroles.rbac.authorization.k8s.io", "",
           json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"},
                        {"kind", "ClusterRole"},
                        {"metadata", json::Object{{"name", "reader"}}},
                        {"rules", json::Array{}}});
  EXPECT_EQ(v.calls(), 3u);
}

TEST(WebhookAdmissionTest, ObjectSelectorMatchesObjectOrOldObject) {
  Cluster c;
  FakeWebhook v([](const json::Value& r) { return allow(r); });
  auto hook = webhook_entry("obj.capstan.dev", v.url(), {"configmaps"});
  hook["objectSelector"] = json::Object{{"matchLabels", json::Object{{"app", "web"}}}};
  c.add_validating("obj", json::Array{hook});

  c.create("configmaps", "default", Cluster::configmap("web", {{"app", "web"}}));
  EXPECT_EQ(v.calls(), 1u);
  c.create("configmaps", "default", Cluster::configmap("plain"));
  EXPECT_EQ(v.calls(), 1u);
  rest::WriteOptions o;
  // plain gains the label: the new object matches.
  c.service.update(c.target("configmaps", "", "default", "plain"), Cluster::configmap("plain", {{"app", "web"}}), o);
  EXPECT_EQ(v.calls(), 2u);
  // web loses it: the old object matches.
  c.service.update(c.target("configmaps", "", "default", "web"), Cluster::configmap("web"), o);
  EXPECT_EQ(v.calls(), 3u);
  EXPECT_EQ(str(v.reviews()[2], {"request", "operation"}), "UPDATE");
  EXPECT_EQ(str(v.reviews()[2], {"request", "oldObject", "metadata", "labels", "app"}), "web");
  EXPECT_EQ(json::find(v.reviews()[2], {"request", "object", "metadata", "labels"}), nullptr);
}

TEST(WebhookAdmissionTest, RulesMatchOperationsAndSubresources) {
  Cluster c;
  auto gadgets = c.add_crd("example.com", "gadgets", "Gadget", {"v1"}, "v1", true);
  FakeWebhook main_updates([](const json::Value& r) { return allow(r); });
  FakeWebhook status_only([](const json::Value& r) { return allow(r); });
  FakeWebhook everything([](const json::Value& r) { return allow(r); });
  c.add_validating("rules", json::Array{webhook_entry("main.capstan.dev", main_updates.url(), {"gadgets"}, {"UPDATE"}),
                                        webhook_entry("status.capstan.dev", status_only.url(), {"gadgets/status"}),
                                        webhook_entry("all.capstan.dev", everything.url(), {"*/*"})});
  json::Value g = json::Object{{"apiVersion", "example.com/v1"},
                               {"kind", "Gadget"},
                               {"metadata", json::Object{{"name", "g1"}}},
                               {"spec", json::Object{{"size", 1}}}};
  auto created = c.create("gadgets.example.com", "default", g);
  EXPECT_EQ(main_updates.calls(), 0u);
  EXPECT_EQ(status_only.calls(), 0u);
  EXPECT_EQ(everything.calls(), 1u);

  rest::WriteOptions o;
  json::Value next = created;
  next.as_object()["spec"] = json::Object{{"size", 2}};
  auto updated = c.service.update(c.target("gadgets.example.com", "v1", "default", "g1"), next, o).object;
  EXPECT_EQ(main_updates.calls(), 1u);
  EXPECT_EQ(status_only.calls(), 0u);
  EXPECT_EQ(everything.calls(), 2u);

  json::Value st = updated;
  st.as_object()["status"] = json::Object{{"ready", true}};
  c.service.update(c.target("gadgets.example.com", "v1", "default", "g1", "status"), st, o);
  EXPECT_EQ(main_updates.calls(), 1u);
  ASSERT_EQ(status_only.calls(), 1u);
  EXPECT_EQ(everything.calls(), 3u);
  const json::Value req = status_only.reviews()[0].at("request");
  EXPECT_EQ(str(req, {"subResource"}), "status");
  EXPECT_EQ(str(req, {"requestSubResource"}), "status");
  EXPECT_EQ(str(req, {"kind", "kind"}), "Gadget");
  (void)gadgets;
}

TEST(WebhookAdmissionTest, ServiceReferenceResolvesThroughEndpointsWithServiceTlsName) {
  Cluster c;
  c.create_namespace("capstan-system");
  // The serving certificate names only the service: TLS must verify "<svc>.<ns>.svc".
  FakeWebhook v([](const json::Value& r) { return allow(r); }, {"webhook.capstan-system.svc"});
  c.create("services", "capstan-system",
           json::Object{{"apiVersion", "v1"},
                        {"kind", "Service"},
                        {"metadata", json::Object{{"name", "webhook"}}},
                        {"spec", json::Object{{"ports", json::Array{json::Object{{"name", "https"}, {"port", 443}, {"targetPort", 9443}}}}}}});
  json::Object subset{{"addresses", json::Array{json::Object{{"ip", "127.0.0.1"}}}},
                      {"ports", json::Array{json::Object{{"name", "https"}, {"port", v.port()}}}}};
  c.create("endpoints", "capstan-system",
           json::Object{{"apiVersion", "v1"},
                        {"kind", "Endpoints"},
                        {"metadata", json::Object{{"name", "webhook"}}},
                        {"subsets", json::Array{subset}}});
  auto hook = webhook_entry("svc.capstan.dev", "", {"configmaps"});
  hook["clientConfig"] = json::Object{
      {"service", json::Object{{"namespace", "capstan-system"}, {"name", "webhook"}, {"path", "/validate"}}},
      {"caBundle", testing::ca_bundle()}};
  c.add_validating("svc", json::Array{hook});
  c.create("configmaps", "default", Cluster::configmap("via-service"));
  ASSERT_EQ(v.calls(), 1u);
  EXPECT_EQ(v.targets()[0], "/validate?timeout=10s");
  EXPECT_EQ(v.hosts()[0], "webhook.capstan-system.svc:443");

  // A missing service, and the same server reached by IP (its certificate does not name it).
  Cluster m;
  auto missing = hook;
  missing["name"] = "missing.capstan.dev";
  missing["clientConfig"].as_object()["service"].as_object()["name"] = "missing";
  m.add_validating("svc", json::Array{missing});
  auto e = api_error([&] { m.create("configmaps", "default", Cluster::configmap("x")); });
  EXPECT_EQ(std::string(e.what()),
            "Internal error occurred: failed calling webhook \"missing.capstan.dev\": failed to call webhook: Post "
            "\"https://missing.capstan-system.svc:443/validate?timeout=10s\": service \"missing\" not found");

  Cluster byip;
  byip.add_validating("ip", json::Array{webhook_entry("ip.capstan.dev", v.url("/validate"), {"configmaps"})});
  e = api_error([&] { byip.create("configmaps", "default", Cluster::configmap("x")); });
  EXPECT_NE(std::string(e.what()).find("failed to call webhook: Post \"" + v.url("/validate") +
                                       "?timeout=10s\": tls: failed to verify certificate"),
            std::string::npos)
      << e.what();
}

TEST(WebhookAdmissionTest, DryRunHonoursSideEffects) {
  Cluster c;
  FakeWebhook some([](const json::Value& r) { return allow(r); });
  FakeWebhook none([](const json::Value& r) { return allow(r); });
  auto with_effects = webhook_entry("some.capstan.dev", some.url(), {"configmaps"});
  with_effects["sideEffects"] = "Some";
  auto on_dry_run = webhook_entry("none.capstan.dev", none.url(), {"configmaps"});
  on_dry_run["sideEffects"] = "NoneOnDryRun";
  c.store_validating("a", json::Array{with_effects});
  c.add_mutating("b", json::Array{on_dry_run});

  rest::WriteOptions dry;
  dry.dry_run = true;
  auto e = api_error([&] { c.create("configmaps", "default", Cluster::configmap("dry"), &dry); });
  EXPECT_EQ(e.code, 400);
  EXPECT_EQ(e.reason, "BadRequest");
  EXPECT_STREQ(e.what(), "admission webhook \"some.capstan.dev\" does not support dry run");
  EXPECT_EQ(some.calls(), 0u);
  ASSERT_EQ(none.calls(), 1u);
  EXPECT_EQ(none.reviews()[0].at("request").at("dryRun"), json::Value(true));
  EXPECT_EQ(none.reviews()[0].at("request").at("options").at("dryRun"), (json::Value(json::Array{"All"})));

  // Without dry-run both are called.
  c.create("configmaps", "default", Cluster::configmap("wet"));
  EXPECT_EQ(some.calls(), 1u);
  EXPECT_EQ(none.calls(), 2u);

  // sideEffects unset is a call failure (failurePolicy applies).
  Cluster n;
  auto unset = webhook_entry("unset.capstan.dev", none.url(), {"configmaps"});
  unset.erase("sideEffects");
  n.store_validating("u", json::Array{unset});
  rest::WriteOptions dry2;
  dry2.dry_run = true;
  e = api_error([&] { n.create("configmaps", "default", Cluster::configmap("dry"), &dry2); });
  EXPECT_STREQ(e.what(), "Internal error occurred: failed calling webhook \"unset.capstan.dev\": Webhook SideEffects is nil");
}

TEST(WebhookAdmissionTest, WarningsAreReturned) {
  Cluster c;
  FakeWebhook m([](const json::Value& r) { return allow(r, {}, {"mutating says hi"}); });
  FakeWebhook v([](const json::Value& r) { return allow(r, {}, {"spec.duration is deprecated", "second"}); });
  c.add_mutating("m", json::Array{webhook_entry("m.capstan.dev", m.url(), {"configmaps"})});
  c.add_validating("v", json::Array{webhook_entry("v.capstan.dev", v.url(), {"configmaps"})});
  rest::WriteOptions o;
  c.create("configmaps", "default", Cluster::configmap("warned"), &o);
  EXPECT_EQ(o.warnings, (std::vector<std::string>{"mutating says hi", "spec.duration is deprecated", "second"}));
}

TEST(WebhookAdmissionTest, DeleteSendsOldObjectAndOptions) {
  Cluster c;
  c.create("configmaps", "default", Cluster::configmap("doomed"));
  FakeWebhook v([](const json::Value& r) { return deny(r, 403, "keep it", "Forbidden"); });
  c.add_validating("del", json::Array{webhook_entry("del.capstan.dev", v.url(), {"configmaps"}, {"DELETE"})});
  rest::DeleteOptions d;
  d.propagation = "Foreground";
  auto e = api_error([&] { c.service.remove(c.target("configmaps", "", "default", "doomed"), d); });
  EXPECT_EQ(e.code, 403);
  ASSERT_EQ(v.calls(), 1u);
  const json::Value req = v.reviews()[0].at("request");
  EXPECT_EQ(str(req, {"operation"}), "DELETE");
  EXPECT_TRUE(req.at("object").is_null());
  EXPECT_EQ(str(req, {"oldObject", "metadata", "name"}), "doomed");
  EXPECT_EQ(str(req, {"options", "kind"}), "DeleteOptions");
  EXPECT_EQ(str(req, {"options", "propagationPolicy"}), "Foreground");
  EXPECT_NO_THROW(c.service.get(c.target("configmaps", "", "default", "doomed")));

  v.set_responder([](const json::Value& r) { return allow(r); });
  EXPECT_TRUE(c.service.remove(c.target("configmaps", "", "default", "doomed"), rest::DeleteOptions{}).deleted);
}

TEST(WebhookAdmissionTest, ConfigurationsAreExemptAndChangesArePickedUp) {
  Cluster c;
  FakeWebhook v([](const json::Value& r) { return deny(r, 403, "no", "Forbidden"); });
  c.add_validating("deny-all", json::Array{webhook_entry("deny.capstan.dev", v.url(), {"*"})});
  EXPECT_EQ(api_error([&] { c.create("configmaps", "default", Cluster::configmap("a")); }).code, 403);
  // Webhook configurations themselves never go to webhooks.
  EXPECT_NO_THROW(c.add_validating("another", json::Array{webhook_entry("other.capstan.dev", v.url(), {"secrets"})}));
  EXPECT_NO_THROW(c.add_mutating("m", json::Array{webhook_entry("m.capstan.dev", v.url(), {"secrets"})}));
  std::size_t calls = v.calls();
  c.service.remove(c.target("validatingwebhookconfigurations.admissionregistration.k8s.io", "", "", "deny-all"), {});
  EXPECT_EQ(v.calls(), calls);
  EXPECT_NO_THROW(c.create("configmaps", "default", Cluster::configmap("a")));
}

TEST(WebhookAdmissionTest, V1beta1ReviewWhenOnlyVersionOffered) {
  Cluster c;
  FakeWebhook m([](const json::Value& r) {
    // v1beta1: no uid check, and a patch without patchType is taken as JSONPatch.
    json::Object resp{{"allowed", true},
                      {"patch", meta::base64_encode(json::serialize(json::Array{add_label("beta", "1")}))}};
    return testing::json_answer(200, json::Object{{"apiVersion", "admission.k8s.io/v1beta1"},
                                                  {"kind", "AdmissionReview"},
                                                  {"response", std::move(resp)}});
  });
  auto hook = webhook_entry("beta.capstan.dev", m.url(), {"configmaps"});
  hook["admissionReviewVersions"] = json::Array{"v1beta2", "v1beta1"};
  c.add_mutating("beta", json::Array{hook});
  auto created = c.create("configmaps", "default", Cluster::configmap("b"));
  EXPECT_EQ(str(created, {"metadata", "labels", "beta"}), "1");
  EXPECT_EQ(str(m.reviews()[0], {"apiVersion"}), "admission.k8s.io/v1beta1");

  auto none = webhook_entry("none.capstan.dev", m.url(), {"configmaps"});
  none["admissionReviewVersions"] = json::Array{"v2"};
  Cluster n;
  n.store_validating("none", json::Array{none});
  EXPECT_STREQ(api_error([&] { n.create("configmaps", "default", Cluster::configmap("b")); }).what(),
               "Internal error occurred: failed calling webhook \"none.capstan.dev\": webhook does not accept known "
               "AdmissionReview versions (v1, v1beta1)");
}

TEST(WebhookAdmissionTest, BadAnswersAreCallFailures) {
  Cluster c;
  FakeWebhook v([](const json::Value& r) {
    return testing::json_answer(200, json::Object{{"apiVersion", "admission.k8s.io/v1"},
                                                  {"kind", "AdmissionReview"},
                                                  {"response", json::Object{{"uid", "nope"}, {"allowed", true}}}});
  });
  c.add_validating("bad", json::Array{webhook_entry("bad.capstan.dev", v.url(), {"configmaps"})});
  auto e = api_error([&] { c.create("configmaps", "default", Cluster::configmap("x")); });
  std::string uid = str(v.reviews().back(), {"request", "uid"});
  EXPECT_EQ(std::string(e.what()), "Internal error occurred: failed calling webhook \"bad.capstan.dev\": received invalid "
                                   "webhook response: expected response.uid=\"" + uid + "\", got \"nope\"");

  v.set_responder([](const json::Value&) { return testing::json_answer(404, json::Object{{"oops", true}}); });
  EXPECT_STREQ(api_error([&] { c.create("configmaps", "default", Cluster::configmap("x")); }).what(),
               "Internal error occurred: failed calling webhook \"bad.capstan.dev\": failed to call webhook: the server "
               "could not find the requested resource");
  v.set_responder([](const json::Value&) { return http::Response(500, "boom\n", "text/plain"); });
  EXPECT_STREQ(api_error([&] { c.create("configmaps", "default", Cluster::configmap("x")); }).what(),
               "Internal error occurred: failed calling webhook \"bad.capstan.dev\": failed to call webhook: an error on "
               "the server (\"boom\") has prevented the request from succeeding");
  v.set_responder([](const json::Value& r) {
    return review_answer(r, json::Object{{"allowed", true}, {"patchType", "JSONPatch"},
                                         {"patch", meta::base64_encode("[]")}});
  });
  EXPECT_STREQ(api_error([&] { c.create("configmaps", "default", Cluster::configmap("x")); }).what(),
               "Internal error occurred: failed calling webhook \"bad.capstan.dev\": received invalid webhook response: "
               "validating webhook may not return response.patch");

  // A patch that does not apply is an internal error whatever the failure policy.
  Cluster m;
  FakeWebhook mm([](const json::Value& r) {
    return allow(r, json::Array{json::Object{{"op", "remove"}, {"path", "/spec/missing"}}});
  });
  auto hook = webhook_entry("patch.capstan.dev", mm.url(), {"configmaps"});
  hook["failurePolicy"] = "Ignore";
  m.add_mutating("p", json::Array{hook});
  e = api_error([&] { m.create("configmaps", "default", Cluster::configmap("x")); });
  EXPECT_EQ(e.code, 500);
  EXPECT_EQ(e.reason, "InternalError");
}

TEST(WebhookAdmissionTest, EquivalentMatchPolicyCallsInTheRuleVersion) {
  Cluster c;
  c.add_crd("example.com", "things", "Thing", {"v2", "v1"}, "v2");
  FakeWebhook m([](const json::Value& r) { return allow(r, json::Array{add_label("seen-as", "v1")}); });
  FakeWebhook exact([](const json::Value& r) { return allow(r); });
  auto hook = webhook_entry("eq.capstan.dev", m.url(), {"things"});
  hook["rules"].as_array()[0].as_object()["apiVersions"] = json::Array{"v1"};
  auto exact_hook = webhook_entry("exact.capstan.dev", exact.url(), {"things"});
  exact_hook["rules"] = hook["rules"];
  exact_hook["matchPolicy"] = "Exact";
  c.add_mutating("eq", json::Array{hook, exact_hook});

  json::Value thing = json::Object{{"apiVersion", "example.com/v2"},
                                   {"kind", "Thing"},
                                   {"metadata", json::Object{{"name", "t1"}}},
                                   {"spec", json::Object{{"a", 1}}}};
  auto created = c.create("things.example.com", "default", thing, nullptr, "v2");
  EXPECT_EQ(str(created, {"apiVersion"}), "example.com/v2");
  EXPECT_EQ(str(created, {"metadata", "labels", "seen-as"}), "v1");
  EXPECT_EQ(exact.calls(), 0u);
  ASSERT_EQ(m.calls(), 1u);
  const json::Value req = m.reviews()[0].at("request");
  EXPECT_EQ(str(req, {"kind", "version"}), "v1");
  EXPECT_EQ(str(req, {"resource", "version"}), "v1");
  EXPECT_EQ(str(req, {"requestKind", "version"}), "v2");
  EXPECT_EQ(str(req, {"requestResource", "version"}), "v2");
  EXPECT_EQ(str(req, {"object", "apiVersion"}), "example.com/v1");
}

TEST(WebhookAdmissionTest, ReinvocationIfNeededRunsAgainAfterLaterChanges) {
  Cluster c;
  FakeWebhook first([](const json::Value& r) { return allow(r); });
  FakeWebhook later([](const json::Value& r) { return allow(r, json::Array{add_label("later", "x")}); });
  auto a = webhook_entry("a.capstan.dev", first.url(), {"configmaps"});
  a["reinvocationPolicy"] = "IfNeeded";
  c.add_mutating("a", json::Array{a});
  c.add_mutating("b", json::Array{webhook_entry("b.capstan.dev", later.url(), {"configmaps"})});
  c.create("configmaps", "default", Cluster::configmap("again"));
  ASSERT_EQ(first.calls(), 2u);
  EXPECT_EQ(later.calls(), 1u);
  EXPECT_EQ(str(first.reviews()[1], {"request", "object", "metadata", "labels", "later"}), "x");

  // Without later changes there is no second round.
  Cluster q;
  q.add_mutating("a", json::Array{a});
  q.create("configmaps", "default", Cluster::configmap("once"));
  EXPECT_EQ(first.calls(), 3u);
}

TEST(WebhookAdmissionTest, ValidatingWebhooksRunInParallel) {
  // Each webhook waits (bounded) for the other to arrive: only concurrent calls both see two.
  Cluster c;
  std::mutex mu;
  std::condition_variable cv;
  int arrived = 0;
  std::atomic<int> saw_both{0};
  auto rendezvous = [&](const json::Value& r) {
    std::unique_lock<std::mutex> l(mu);
    ++arrived;
    cv.notify_all();
    if (cv.wait_for(l, 5s, [&] { return arrived >= 2; })) ++saw_both;
    return allow(r);
  };
  FakeWebhook s1(rendezvous), s2(rendezvous);
  c.add_validating("p", json::Array{webhook_entry("p1.capstan.dev", s1.url(), {"configmaps"}),
                                    webhook_entry("p2.capstan.dev", s2.url(), {"configmaps"})});
  c.create("configmaps", "default", Cluster::configmap("par"));
  EXPECT_EQ(saw_both.load(), 2);
}

}  // namespace
}  // namespace capstan::apiserver::admission
