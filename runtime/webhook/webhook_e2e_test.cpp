// The webhook server called by the in-process API server: mutating and validating
// ConfigMap webhooks, and a CRD conversion webhook, configured with url + caBundle.
#include "runtime/meta/base64.h"
#include "runtime/webhook/admission.h"
#include "runtime/webhook/conversion.h"
#include "runtime/webhook/paths.h"
#include "runtime/webhook/server.h"
#include "runtime/webhook/test_support.h"

#include <gtest/gtest.h>

namespace capstan::webhook {
namespace {

using namespace std::chrono_literals;
using integration::eventually;
using integration::TempDir;
using integration::TestCluster;
using testing::TestCa;

const meta::GroupVersionResource kConfigMaps{"", "v1", "configmaps"};
const meta::GroupVersionResource kMutatingConfigs{"admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations"};
const meta::GroupVersionResource kValidatingConfigs{"admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations"};
const meta::GroupVersionResource kCrds{"apiextensions.k8s.io", "v1", "customresourcedefinitions"};

struct ConfigMapDefaults : Defaulter {
  void default_(json::Value& obj) override {
    auto& data = json::ensure_object(obj, {"data"});
    if (!data.contains("log-level")) data["log-level"] = "info";
    json::ensure_object(obj, {"metadata", "labels"})["capstan.dev/defaulted"] = "true";
  }
};

struct ConfigMapRules : Validator {
  Warnings validate_create(const json::Value& obj) override { return check(obj); }
  Warnings validate_update(const json::Value&, const json::Value& obj) override { return check(obj); }
  static Warnings check(const json::Value& obj) {
    if (json::get_string(obj, {"data", "log-level"}) == "verbose")
      throw Denied("data.log-level: Unsupported value: \"verbose\": supported values: \"debug\", \"info\"");
    return {};
  }
};

json::Object hook(std::string name, std::string url, const std::string& ca_pem) {
  return json::Object{
      {"name", std::move(name)},
      {"clientConfig", json::Object{{"url", std::move(url)}, {"caBundle", meta::base64_encode(ca_pem)}}},
      {"rules", json::Array{json::Object{{"operations", json::Array{"CREATE", "UPDATE"}},
                                         {"apiGroups", json::Array{""}},
                                         {"apiVersions", json::Array{"v1"}},
                                         {"resources", json::Array{"configmaps"}}}}},
      {"objectSelector", json::Object{{"matchLabels", json::Object{{"capstan-test", "webhook"}}}}},
      {"sideEffects", "None"},
      {"failurePolicy", "Fail"},
      {"admissionReviewVersions", json::Array{"v1"}}};
}

json::Value configmap(const std::string& name, json::Object data) {
  return json::Object{{"apiVersion", "v1"},
                      {"kind", "ConfigMap"},
                      {"metadata", json::Object{{"name", name}, {"namespace", "default"},
                                                {"labels", json::Object{{"capstan-test", "webhook"}}}}},
                      {"data", std::move(data)}};
}

class WebhookE2eTest : public ::testing::Test {
 protected:
  WebhookE2eTest() : certs("capstan-webhook-certs"), ca("capstan-webhook-ca") {
    ca.issue_into(certs);
    ServerOptions o;
    o.host = "127.0.0.1";
    o.port = 0;
    o.cert_dir = certs.path().string();
    o.cert_reload_interval = 1s;
    o.registry = &registry;
    server = std::make_unique<Server>(o);
  }
  std::string url(const std::string& path) const { return "https://127.0.0.1:" + std::to_string(server->port()) + path; }

  void configure_configmap_webhooks(const std::string& ca_pem) {
    std::string mpath = mutate_path({"", "v1", "ConfigMap"});
    std::string vpath = validate_path({"", "v1", "ConfigMap"});
    json::Value m = json::Object{{"apiVersion", "admissionregistration.k8s.io/v1"},
                                 {"kind", "MutatingWebhookConfiguration"},
                                 {"metadata", json::Object{{"name", "capstan-test"}}},
                                 {"webhooks", json::Array{hook("mconfigmap.capstan.dev", url(mpath), ca_pem)}}};
    json::Value v = json::Object{{"apiVersion", "admissionregistration.k8s.io/v1"},
                                 {"kind", "ValidatingWebhookConfiguration"},
                                 {"metadata", json::Object{{"name", "capstan-test"}}},
                                 {"webhooks", json::Array{hook("vconfigmap.capstan.dev", url(vpath), ca_pem)}}};
    cluster.client().apply(kMutatingConfigs, "", m, "capstan-test", true);
    cluster.client().apply(kValidatingConfigs, "", v, "capstan-test", true);
  }

  TestCluster cluster;
  metrics::Registry registry;
  TempDir certs;
  TestCa ca;
  std::unique_ptr<Server> server;
};

TEST_F(WebhookE2eTest, ApiServerDefaultsAndDeniesThroughTheWebhooks) {
  server->register_path(mutate_path({"", "v1", "ConfigMap"}), make_mutating_handler(std::make_shared<ConfigMapDefaults>()));
  server->register_path(validate_path({"", "v1", "ConfigMap"}), make_validating_handler(std::make_shared<ConfigMapRules>()));
  server->start();
  configure_configmap_webhooks(ca.pem);

  json::Value created = cluster.client().create(kConfigMaps, "default", configmap("app", {{"color", "blue"}}));
  EXPECT_EQ(json::get_string(created, {"data", "log-level"}), "info");
  EXPECT_EQ(json::get_string(created, {"data", "color"}), "blue");
  EXPECT_EQ(json::get_string(created, {"metadata", "labels", "capstan.dev/defaulted"}), "true");
  json::Value stored = cluster.client().get(kConfigMaps, "default", "app");
  EXPECT_EQ(json::get_string(stored, {"data", "log-level"}), "info");

  try {
    cluster.client().create(kConfigMaps, "default", configmap("bad", {{"log-level", "verbose"}}));
    FAIL() << "expected the validating webhook to deny";
  } catch (const client::ApiError& e) {
    EXPECT_EQ(e.code(), 403);
    EXPECT_EQ(e.message(),
              "admission webhook \"vconfigmap.capstan.dev\" denied the request: data.log-level: Unsupported value: "
              "\"verbose\": supported values: \"debug\", \"info\"");
  }
  EXPECT_THROW(cluster.client().get(kConfigMaps, "default", "bad"), client::ApiError);

  // Objects outside the objectSelector are untouched.
  json::Value plain = cluster.client().create(
      kConfigMaps, "default",
      json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", json::Object{{"name", "plain"}}},
                   {"data", json::Object{{"log-level", "verbose"}}}});
  EXPECT_EQ(json::find(plain, {"metadata", "labels"}), nullptr);

  auto mutated = integration::find_sample(registry, "controller_runtime_webhook_requests_total", {"/mutate--v1-configmap", "200"});
  auto validated = integration::find_sample(registry, "controller_runtime_webhook_requests_total", {"/validate--v1-configmap", "200"});
  ASSERT_TRUE(mutated);
  ASSERT_TRUE(validated);
  EXPECT_EQ(mutated->value, 2);
  EXPECT_EQ(validated->value, 2);
}

TEST_F(WebhookE2eTest, RotatedCertificateFromANewCaIsServed) {
  server->register_path(mutate_path({"", "v1", "ConfigMap"}), make_mutating_handler(std::make_shared<ConfigMapDefaults>()));
  server->register_path(validate_path({"", "v1", "ConfigMap"}), make_validating_handler(std::make_shared<ConfigMapRules>()));
  server->start();
  configure_configmap_webhooks(ca.pem);
  cluster.client().create(kConfigMaps, "default", configmap("before", {}));

  TestCa next("capstan-webhook-ca-2");
  next.issue_into(certs);
  configure_configmap_webhooks(next.pem);  // the caBundle now trusts only the new CA
  int n = 0;
  bool ok = eventually(
      [&] {
        try {
          auto cm = cluster.client().create(kConfigMaps, "default", configmap("after-" + std::to_string(n++), {}));
          return json::get_string(cm, {"data", "log-level"}) == "info";
        } catch (const client::ApiError&) {
          return false;  // still the old certificate: the API server cannot verify it
        }
      },
      6s, 200ms);
  EXPECT_TRUE(ok);
}

TEST_F(WebhookE2eTest, ConversionWebhookServesACrdsVersions) {
  auto hub = std::make_shared<HubAndSpoke>("test.capstan.dev", "v2");
  hub->add_spoke(
      "Widget", "v1",
      [](const json::Value& v1) {
        json::Value out = v1;
        auto& spec = json::ensure_object(out, {"spec"});
        std::string size(json::get_string(v1, {"spec", "size"}, "0"));
        spec.erase("size");
        spec["replicas"] = std::stoll(size);
        return out;
      },
      [](const json::Value& v2) {
        json::Value out = v2;
        auto& spec = json::ensure_object(out, {"spec"});
        spec.erase("replicas");
        spec["size"] = std::to_string(json::get_int(v2, {"spec", "replicas"}).value_or(0));
        return out;
      });
  server->register_path(std::string(kConvertPath), make_conversion_handler(hub));
  server->start();

  json::Value schema = json::Object{{"openAPIV3Schema", json::Object{{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}};
  json::Value crd = json::Object{
      {"apiVersion", "apiextensions.k8s.io/v1"},
      {"kind", "CustomResourceDefinition"},
      {"metadata", json::Object{{"name", "widgets.test.capstan.dev"}}},
      {"spec",
       json::Object{
           {"group", "test.capstan.dev"},
           {"scope", "Namespaced"},
           {"names", json::Object{{"plural", "widgets"}, {"singular", "widget"}, {"kind", "Widget"}, {"listKind", "WidgetList"}}},
           {"versions", json::Array{json::Object{{"name", "v1"}, {"served", true}, {"storage", false}, {"schema", schema}},
                                    json::Object{{"name", "v2"}, {"served", true}, {"storage", true}, {"schema", schema}}}},
           {"conversion",
            json::Object{{"strategy", "Webhook"},
                         {"webhook", json::Object{{"conversionReviewVersions", json::Array{"v1"}},
                                                  {"clientConfig", json::Object{{"url", url("/convert")},
                                                                                {"caBundle", meta::base64_encode(ca.pem)}}}}}}}}}};
  cluster.client().create(kCrds, "", crd);
  meta::GroupVersionResource v1{"test.capstan.dev", "v1", "widgets"};
  meta::GroupVersionResource v2{"test.capstan.dev", "v2", "widgets"};
  ASSERT_TRUE(eventually(
      [&] {
        try {
          cluster.client().list(v1, "default");
          return true;
        } catch (const client::ApiError&) {
          return false;
        }
      },
      5s, 50ms));

  json::Value w = json::Object{{"apiVersion", "test.capstan.dev/v1"},
                               {"kind", "Widget"},
                               {"metadata", json::Object{{"name", "w1"}, {"namespace", "default"}}},
                               {"spec", json::Object{{"size", "3"}}}};
  json::Value created = cluster.client().create(v1, "default", w);
  EXPECT_EQ(json::get_string(created, {"apiVersion"}), "test.capstan.dev/v1");
  EXPECT_EQ(json::get_string(created, {"spec", "size"}), "3");
  json::Value as_v2 = cluster.client().get(v2, "default", "w1");
  EXPECT_EQ(json::get_string(as_v2, {"apiVersion"}), "test.capstan.dev/v2");
  EXPECT_EQ(json::get_int(as_v2, {"spec", "replicas"}), 3);
  EXPECT_EQ(json::find(as_v2, {"spec", "size"}), nullptr);
  auto list = cluster.client().list(v1, "default");
  ASSERT_EQ(list.items.size(), 1u);
  EXPECT_EQ(json::get_string(list.items[0], {"spec", "size"}), "3");
  auto calls = integration::find_sample(registry, "controller_runtime_webhook_requests_total", {"/convert", "200"});
  ASSERT_TRUE(calls);
  EXPECT_GE(calls->value, 2);
}

}  // namespace
}  // namespace capstan::webhook
