// WebhookConverter wired into rest::Service: a CRD served as v1 and v2 (stored as v2) whose
// versions differ in one field (v1 spec.replicas = v2 spec.count), converted by a fake webhook.
#include "apiserver/admission/test_support.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::admission {
namespace {

using testing::Cluster;
using testing::FakeWebhook;

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

// Converts between v1 and v2 and, like a careless webhook, also rewrites metadata it must not
// touch (resourceVersion, generation, uid kept) and adds a label it may.
json::Value convert_object(json::Value o, std::string_view desired) {
  auto& obj = o.as_object();
  auto& spec = json::ensure_object(o, {"spec"});
  if (desired == "example.com/v2" && spec.contains("replicas")) {
    spec["count"] = spec["replicas"];
    spec.erase("replicas");
  } else if (desired == "example.com/v1" && spec.contains("count")) {
    spec["replicas"] = spec["count"];
    spec.erase("count");
  }
  obj["apiVersion"] = desired;
  auto& md = json::ensure_object(o, {"metadata"});
  md["resourceVersion"] = "999";
  md["generation"] = 42;
  json::ensure_object(o, {"metadata", "labels"})["converted-by"] = "hook";
  return o;
}

http::Response conversion_answer(const json::Value& review, json::Array converted, json::Object result = {{"status", "Success"}}) {
  return testing::json_answer(
      200, json::Object{{"apiVersion", "apiextensions.k8s.io/v1"},
                        {"kind", "ConversionReview"},
                        {"response", json::Object{{"uid", json::get_string(review, {"request", "uid"})},
                                                  {"result", std::move(result)},
                                                  {"convertedObjects", std::move(converted)}}}});
}

http::Response good_converter(const json::Value& review) {
  std::string desired(json::get_string(review, {"request", "desiredAPIVersion"}));
  json::Array out;
  if (const auto* objs = json::get_array(review, {"request", "objects"}))
    for (const auto& o : *objs) out.push_back(convert_object(o, desired));
  return conversion_answer(review, std::move(out));
}

struct ConversionFixture {
  Cluster c;
  FakeWebhook hook{good_converter};
  registry::ResourcePtr widgets;

  explicit ConversionFixture(std::string url = "") {
    widgets = c.add_crd("example.com", "widgets", "Widget", {"v2", "v1"}, "v2", false,
                        json::Object{{"conversionReviewVersions", json::Array{"v1", "v1beta1"}},
                                     {"clientConfig", json::Object{{"url", url.empty() ? hook.url("/convert") : url},
                                                                   {"caBundle", testing::ca_bundle()}}}});
  }
  json::Value widget(std::string name, std::string version, int n) {
    json::Object spec{{version == "v1" ? "replicas" : "count", n}};
    return json::Object{{"apiVersion", "example.com/" + version},
                        {"kind", "Widget"},
                        {"metadata", json::Object{{"name", name}, {"labels", json::Object{{"team", "a"}}}}},
                        {"spec", std::move(spec)}};
  }
  json::Value create(std::string name, std::string version, int n) {
    return c.create("widgets.example.com", "default", widget(name, version, n), nullptr, version);
  }
  json::Value get(std::string name, std::string version) {
    return c.service.get(c.target("widgets.example.com", version, "default", name));
  }
};

TEST(WebhookConversionTest, RoundTripRestoresMetadataButKeepsLabels) {
  ConversionFixture f;
  auto created = f.create("w1", "v1", 3);
  // Stored as v2 through the webhook, answered as v1 through it again.
  EXPECT_EQ(f.hook.calls(), 2u);
  EXPECT_EQ(str(created, {"apiVersion"}), "example.com/v1");
  EXPECT_EQ(created.at("spec").at("replicas"), json::Value(3));

  auto stored = f.c.store.get("widgets.example.com", "default", "w1");
  ASSERT_TRUE(stored);
  const json::Value& s = *stored.value;
  EXPECT_EQ(str(s, {"apiVersion"}), "example.com/v2");
  EXPECT_EQ(s.at("spec").at("count"), json::Value(3));
  EXPECT_EQ(json::find(s, {"spec", "replicas"}), nullptr);
  // Labels and annotations come from the webhook; everything else from the original.
  EXPECT_EQ(str(s, {"metadata", "labels", "converted-by"}), "hook");
  EXPECT_EQ(str(s, {"metadata", "labels", "team"}), "a");
  EXPECT_EQ(json::get_int(s, {"metadata", "generation"}), std::optional<std::int64_t>(1));
  EXPECT_EQ(str(s, {"metadata", "resourceVersion"}), std::to_string(stored.rv));
  EXPECT_EQ(str(s, {"metadata", "uid"}), str(created, {"metadata", "uid"}));

  const json::Value review = f.hook.reviews()[0];
  EXPECT_EQ(str(review, {"apiVersion"}), "apiextensions.k8s.io/v1");
  EXPECT_EQ(str(review, {"kind"}), "ConversionReview");
  EXPECT_EQ(str(review, {"request", "desiredAPIVersion"}), "example.com/v2");
  EXPECT_FALSE(str(review, {"request", "uid"}).empty());
  ASSERT_EQ(review.at("request").at("objects").as_array().size(), 1u);
  EXPECT_EQ(f.hook.targets()[0], "/convert?timeout=30s");

  auto v1 = f.get("w1", "v1");
  EXPECT_EQ(v1.at("spec").at("replicas"), json::Value(3));
  EXPECT_EQ(str(v1, {"metadata", "resourceVersion"}), std::to_string(stored.rv));
  // Reading in the storage version needs no call.
  std::size_t calls = f.hook.calls();
  EXPECT_EQ(f.get("w1", "v2").at("spec").at("count"), json::Value(3));
  EXPECT_EQ(f.hook.calls(), calls);
}

TEST(WebhookConversionTest, ListIsConvertedInOneReview) {
  ConversionFixture f;
  f.create("a", "v2", 1);
  f.create("b", "v2", 2);
  f.create("c", "v2", 3);
  EXPECT_EQ(f.hook.calls(), 0u);
  auto list = f.c.service.list(f.c.target("widgets.example.com", "v1", "default"), rest::ListOptions{});
  ASSERT_EQ(f.hook.calls(), 1u);
  EXPECT_EQ(f.hook.reviews()[0].at("request").at("objects").as_array().size(), 3u);
  ASSERT_EQ(list.items.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(str(list.items[i], {"apiVersion"}), "example.com/v1");
    EXPECT_EQ(list.items[i].at("spec").at("replicas"), json::Value(static_cast<std::int64_t>(i + 1)));
  }
}

TEST(WebhookConversionTest, FailedConversionIsAnError) {
  ConversionFixture f;
  f.create("w1", "v2", 1);
  f.create("w2", "v2", 2);
  f.hook.set_responder([](const json::Value& r) {
    return conversion_answer(r, {}, json::Object{{"status", "Failed"}, {"message", "spec.color cannot be converted"}});
  });
  auto e = api_error([&] { f.get("w1", "v1"); });
  EXPECT_EQ(e.code, 500);
  EXPECT_EQ(e.reason, "");
  EXPECT_STREQ(e.what(), "conversion webhook for example.com/v2, Kind=Widget failed: spec.color cannot be converted");
  e = api_error([&] { f.c.service.list(f.c.target("widgets.example.com", "v1", "default"), rest::ListOptions{}); });
  EXPECT_STREQ(e.what(), "conversion webhook for example.com/v2, Kind=WidgetList failed: spec.color cannot be converted");

  f.hook.set_responder([](const json::Value& r) { return conversion_answer(r, {}, json::Object{{"status", "Failed"}}); });
  EXPECT_STREQ(api_error([&] { f.get("w1", "v1"); }).what(),
               "conversion webhook for example.com/v2, Kind=Widget failed: response.result.status was 'Failed', not 'Success'");
}

TEST(WebhookConversionTest, InvalidAnswersAreRejected) {
  ConversionFixture f;
  f.create("w1", "v2", 1);
  auto with = [&](std::function<void(json::Value&)> tamper) {
    f.hook.set_responder([tamper](const json::Value& r) {
      std::string desired(json::get_string(r, {"request", "desiredAPIVersion"}));
      json::Array out;
      for (const auto& o : r.at("request").at("objects").as_array()) {
        json::Value c = convert_object(o, desired);
        tamper(c);
        out.push_back(std::move(c));
      }
      return conversion_answer(r, std::move(out));
    });
    return std::string(api_error([&] { f.get("w1", "v1"); }).what());
  };
  const std::string p = "conversion webhook for example.com/v2, Kind=Widget ";
  EXPECT_EQ(with([](json::Value& o) { o.as_object()["metadata"].as_object()["name"] = "other"; }),
            p + "returned invalid object: must have the same name: w1 != other");
  EXPECT_EQ(with([](json::Value& o) { o.as_object()["apiVersion"] = "example.com/v2"; }),
            p + "returned invalid object at index 0: invalid groupVersion (expected example.com/v1, received example.com/v2)");
  EXPECT_EQ(with([](json::Value& o) { o.as_object()["kind"] = "Gizmo"; }),
            p + "returned invalid object at index 0: invalid kind (expected Widget, received Gizmo)");
  EXPECT_EQ(with([](json::Value& o) { o.as_object()["metadata"].as_object()["labels"].as_object()["bad key"] = "x"; })
                .rfind(p + "returned invalid metadata: metadata.labels: Invalid value: \"bad key\": name part must consist of", 0),
            0u);
  EXPECT_EQ(with([](json::Value& o) { o.as_object().erase("metadata"); }),
            p + "returned invalid object: must have the same name: w1 != ");

  f.hook.set_responder([](const json::Value& r) { return conversion_answer(r, {}); });
  EXPECT_STREQ(api_error([&] { f.get("w1", "v1"); }).what(), (p + "returned 0 objects, expected 1").c_str());
  f.hook.set_responder([](const json::Value& r) {
    return testing::json_answer(200, json::Object{{"apiVersion", "apiextensions.k8s.io/v1"},
                                                  {"kind", "ConversionReview"},
                                                  {"response", json::Object{{"uid", "nope"}, {"result", json::Object{{"status", "Success"}}}}}});
  });
  std::string msg = api_error([&] { f.get("w1", "v1"); }).what();
  EXPECT_EQ(msg.rfind(p + "failed: expected response.uid=\"", 0), 0u) << msg;
  EXPECT_NE(msg.find("\", got \"nope\""), std::string::npos) << msg;

  // The stored object is untouched by all of this.
  f.hook.set_responder(good_converter);
  EXPECT_EQ(f.get("w1", "v1").at("spec").at("replicas"), json::Value(1));
}

TEST(WebhookConversionTest, UnreachableConverterIsAnError) {
  std::string port = std::to_string(testing::closed_port());
  ConversionFixture f("https://127.0.0.1:" + port + "/convert");
  auto e = api_error([&] { f.create("w1", "v1", 1); });
  EXPECT_EQ(e.code, 500);
  EXPECT_EQ(std::string(e.what()), "conversion webhook for example.com/v1, Kind=Widget failed: Post \"https://127.0.0.1:" +
                                       port + "/convert?timeout=30s\": dial tcp 127.0.0.1:" + port +
                                       ": connect: connection refused");
  EXPECT_FALSE(f.c.store.get("widgets.example.com", "default", "w1"));
}

TEST(WebhookConversionTest, NoneStrategyAndEmptyObjectsOnlyRewriteApiVersion) {
  storage::Store store{storage::StoreOptions{}};
  WebhookConverter conv(store);
  registry::ResourceInfo r;
  r.group = "example.com";
  r.resource = "widgets";
  r.kind = "Widget";
  json::Value a = json::Object{{"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"spec", json::Object{{"replicas", 1}}}};
  std::vector<json::Value*> objs{&a};
  conv.convert(r, objs, "v2");
  EXPECT_EQ(str(a, {"apiVersion"}), "example.com/v2");
  EXPECT_EQ(a.at("spec").at("replicas"), json::Value(1));

  // Webhook strategy: an object with only apiVersion and kind is not sent (the URL is unusable).
  r.conversion_strategy = "Webhook";
  r.conversion_webhook = json::Object{{"conversionReviewVersions", json::Array{"v1"}},
                                      {"clientConfig", json::Object{{"url", "https://127.0.0.1:1/convert"}}}};
  json::Value empty = json::Object{{"apiVersion", "example.com/v1"}, {"kind", "Widget"}};
  std::vector<json::Value*> e{&empty};
  conv.convert(r, e, "v2");
  EXPECT_EQ(str(empty, {"apiVersion"}), "example.com/v2");

  r.conversion_webhook.as_object()["conversionReviewVersions"] = json::Array{"v2"};
  json::Value b = a;
  b.as_object()["apiVersion"] = "example.com/v1";
  std::vector<json::Value*> bs{&b};
  EXPECT_STREQ(api_error([&] { conv.convert(r, bs, "v2"); }).what(), "no supported conversion review versions");
}

TEST(WebhookConversionTest, RestoreObjectMeta) {
  json::Value original = json::Object{
      {"metadata", json::Object{{"name", "w"}, {"uid", "u"}, {"labels", json::Object{{"a", "1"}}},
                                {"annotations", json::Object{{"keep", "me"}}}}}};
  json::Value converted = json::Object{{"metadata", json::Object{{"name", "w"}, {"uid", "changed"}, {"labels", json::Object{{"b", "2"}}}}}};
  EXPECT_EQ(restore_object_meta(original, converted), "");
  EXPECT_EQ(str(converted, {"metadata", "uid"}), "u");
  EXPECT_EQ(converted.at("metadata").at("labels"), (json::Value(json::Object{{"b", "2"}})));
  EXPECT_EQ(json::find(converted, {"metadata", "annotations"}), nullptr);  // dropped by the webhook

  json::Value bad = json::Object{{"metadata", json::Object{{"labels", json::Object{{"n", 1}}}}}};
  EXPECT_EQ(restore_object_meta(original, bad), "metadata.labels[n] must be a string, but is int64 in converted object");
  json::Value none = json::Object{{"spec", json::Object{}}};
  EXPECT_EQ(restore_object_meta(original, none), "missing metadata in converted object");
  json::Value wrong = json::Object{{"metadata", "x"}};
  EXPECT_EQ(restore_object_meta(original, wrong), "invalid metadata of type string in converted object");
  json::Value bad_annotation = json::Object{{"metadata", json::Object{{"annotations", json::Object{{"Bad Key", "x"}}}}}};
  std::string err = restore_object_meta(original, bad_annotation);
  EXPECT_EQ(err.rfind("metadata.annotation: Invalid value: \"Bad Key\": name part must consist of", 0), 0u) << err;
}

}  // namespace
}  // namespace capstan::apiserver::admission
