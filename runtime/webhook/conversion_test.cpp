#include "runtime/json/patch.h"
#include "runtime/webhook/conversion.h"

#include <gtest/gtest.h>

namespace capstan::webhook {
namespace {

// widgets.test.capstan.dev: v1 stores spec.size as a string ("3"), v2 (the hub) as
// spec.replicas (a number), v3 as spec.scale.replicas.
std::shared_ptr<HubAndSpoke> widget_converter() {
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
  hub->add_spoke(
      "Widget", "v3",
      [](const json::Value& v3) {
        json::Value out = v3;
        auto& spec = json::ensure_object(out, {"spec"});
        spec.erase("scale");
        spec["replicas"] = json::get_int(v3, {"spec", "scale", "replicas"}).value_or(0);
        return out;
      },
      [](const json::Value& v2) {
        json::Value out = v2;
        auto& spec = json::ensure_object(out, {"spec"});
        spec.erase("replicas");
        spec["scale"] = json::Object{{"replicas", json::get_int(v2, {"spec", "replicas"}).value_or(0)}};
        return out;
      });
  return hub;
}

json::Value widget(std::string version, std::string name, json::Object spec) {
  return json::Object{{"apiVersion", "test.capstan.dev/" + version},
                      {"kind", "Widget"},
                      {"metadata", json::Object{{"name", name}, {"namespace", "default"}, {"uid", "uid-" + name}}},
                      {"spec", std::move(spec)}};
}

http::Request post(const json::Value& body) {
  http::Request r;
  r.method = "POST";
  r.target = "/convert?timeout=30s";
  r.headers.set("Content-Type", "application/json");
  r.body = json::serialize(body);
  return r;
}

json::Value review(std::string_view version, std::string desired, json::Array objects) {
  return json::Object{{"apiVersion", std::string("apiextensions.k8s.io/") + std::string(version)},
                      {"kind", "ConversionReview"},
                      {"request", json::Object{{"uid", "conv-1"}, {"desiredAPIVersion", desired}, {"objects", std::move(objects)}}}};
}

TEST(WebhookHubAndSpokeTest, ConvertsThroughTheHub) {
  auto c = widget_converter();
  json::Value v1 = widget("v1", "a", {{"size", "3"}, {"color", "red"}});
  json::Value v3 = c->convert(v1, "test.capstan.dev/v3");
  EXPECT_EQ(json::get_string(v3, {"apiVersion"}), "test.capstan.dev/v3");
  EXPECT_EQ(json::get_int(v3, {"spec", "scale", "replicas"}), 3);
  EXPECT_EQ(json::get_string(v3, {"spec", "color"}), "red");
  EXPECT_EQ(json::find(v3, {"spec", "size"}), nullptr);
  json::Value hub = c->convert(v3, "test.capstan.dev/v2");
  EXPECT_EQ(json::get_string(hub, {"apiVersion"}), "test.capstan.dev/v2");
  EXPECT_EQ(json::get_int(hub, {"spec", "replicas"}), 3);
  json::Value back = c->convert(hub, "test.capstan.dev/v1");
  EXPECT_TRUE(json::deep_equal(back, v1)) << json::serialize(back);
  // Same version: unchanged.
  EXPECT_EQ(json::serialize(c->convert(hub, "test.capstan.dev/v2")), json::serialize(hub));
  EXPECT_THROW(c->convert(hub, "test.capstan.dev/v9"), std::invalid_argument);
  EXPECT_THROW(c->convert(hub, "other.capstan.dev/v1"), std::invalid_argument);
  EXPECT_THROW(c->add_spoke("Widget", "v2", nullptr, nullptr), std::invalid_argument);
}

TEST(WebhookConversionTest, V1ReviewConvertsEveryObjectInOrder) {
  auto h = make_conversion_handler(widget_converter());
  json::Value rv = review("v1", "test.capstan.dev/v2",
                          json::Array{widget("v1", "a", {{"size", "1"}}), widget("v3", "b", {{"scale", json::Object{{"replicas", 2}}}})});
  http::Response resp = h(post(rv));
  ASSERT_EQ(resp.status, 200);
  json::Value out = json::parse(resp.body);
  EXPECT_EQ(json::get_string(out, {"apiVersion"}), "apiextensions.k8s.io/v1");
  EXPECT_EQ(json::get_string(out, {"kind"}), "ConversionReview");
  EXPECT_EQ(json::find(out, {"request"}), nullptr);
  EXPECT_EQ(json::get_string(out, {"response", "uid"}), "conv-1");
  EXPECT_EQ(json::get_string(out, {"response", "result", "status"}), "Success");
  const auto* objs = json::get_array(out, {"response", "convertedObjects"});
  ASSERT_TRUE(objs);
  ASSERT_EQ(objs->size(), 2u);
  EXPECT_EQ(json::get_string((*objs)[0], {"metadata", "name"}), "a");
  EXPECT_EQ(json::get_int((*objs)[0], {"spec", "replicas"}), 1);
  EXPECT_EQ(json::get_string((*objs)[1], {"metadata", "name"}), "b");
  EXPECT_EQ(json::get_int((*objs)[1], {"spec", "replicas"}), 2);
  for (const auto& o : *objs) EXPECT_EQ(json::get_string(o, {"apiVersion"}), "test.capstan.dev/v2");
}

TEST(WebhookConversionTest, V1beta1IsAnsweredInV1beta1) {
  auto h = make_conversion_handler(widget_converter());
  http::Response resp = h(post(review("v1beta1", "test.capstan.dev/v1", json::Array{widget("v2", "a", {{"replicas", 4}})})));
  ASSERT_EQ(resp.status, 200);
  json::Value out = json::parse(resp.body);
  EXPECT_EQ(json::get_string(out, {"apiVersion"}), "apiextensions.k8s.io/v1beta1");
  EXPECT_EQ(json::get_string(out, {"response", "uid"}), "conv-1");
  EXPECT_EQ(json::get_string((*json::get_array(out, {"response", "convertedObjects"}))[0], {"spec", "size"}), "4");
}

TEST(WebhookConversionTest, AFailureFailsTheWholeReview) {
  auto h = make_conversion_handler(widget_converter());
  http::Response resp =
      h(post(review("v1", "test.capstan.dev/v9", json::Array{widget("v1", "a", {{"size", "1"}})})));
  ASSERT_EQ(resp.status, 200);
  json::Value out = json::parse(resp.body);
  EXPECT_EQ(json::get_string(out, {"response", "uid"}), "conv-1");
  EXPECT_EQ(json::get_string(out, {"response", "result", "status"}), "Failed");
  EXPECT_NE(json::get_string(out, {"response", "result", "message"}).find("version v9 of Widget is not convertible"),
            std::string::npos)
      << resp.body;
  EXPECT_EQ(json::find(out, {"response", "convertedObjects"}), nullptr);

  // A converter that forgets the apiVersion is caught.
  auto sloppy = make_conversion_handler(
      std::make_shared<FuncConverter>([](const json::Value& o, std::string_view) { return o; }));
  json::Value s = json::parse(sloppy(post(review("v1", "test.capstan.dev/v2", json::Array{widget("v1", "a", {})}))).body);
  EXPECT_EQ(json::get_string(s, {"response", "result", "status"}), "Failed");
  EXPECT_NE(json::get_string(s, {"response", "result", "message"}).find("returned apiVersion \"test.capstan.dev/v1\""),
            std::string::npos);
}

TEST(WebhookConversionTest, MalformedBodiesAreHttp400) {
  auto h = make_conversion_handler(widget_converter());
  http::Request garbage = post(nullptr);
  garbage.body = "{nope";
  EXPECT_EQ(h(garbage).status, 400);
  EXPECT_EQ(h(post(json::Object{{"apiVersion", "apiextensions.k8s.io/v1"}, {"kind", "ConversionReview"}})).status, 400);
  EXPECT_EQ(h(post(json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"}})).status, 400);
  http::Request empty = post(nullptr);
  empty.body.clear();
  EXPECT_EQ(h(empty).status, 400);
}

}  // namespace
}  // namespace capstan::webhook
