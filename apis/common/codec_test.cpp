#include "apis/common/codec.h"

#include <gtest/gtest.h>

namespace capstan::apis::codec {
namespace {

using openapi::Schema;
using namespace std::chrono_literals;

struct Ref {
  std::string name, kind;

  static Ref from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static Schema schema();
  bool operator==(const Ref&) const = default;
};

const auto& ref_fields() {
  static const auto table = codec::table<Ref>("A reference.",
                                              field("name", &Ref::name, Schema::string("Its name.")).required(),
                                              field("kind", &Ref::kind, Schema::string("Its kind.")));
  return table;
}
Ref Ref::from_json(const json::Value& v, std::string_view path) { return ref_fields().decode(v, path); }
json::Value Ref::to_json() const { return ref_fields().encode(*this); }
Schema Ref::schema() { return ref_fields().schema(); }

struct Spec {
  std::string url;
  bool suspend = false;
  std::int32_t replicas = 1;
  std::int64_t size = 0;
  std::chrono::milliseconds interval{};
  std::optional<std::chrono::nanoseconds> timeout;
  std::optional<meta::TimePoint> since;
  std::optional<bool> encode;
  std::vector<std::string> names;
  std::map<std::string, std::string> labels;
  std::string ca_bundle;
  std::optional<Ref> ref;
  std::vector<Ref> refs;
  std::vector<meta::Condition> conditions;
  std::optional<json::Value> selector;
  json::Object config;
};

const auto& spec_fields() {
  static const auto table = codec::table<Spec>(
      "A spec.", field("url", &Spec::url, Schema::string("URL.")).required(), field("suspend", &Spec::suspend, Schema::boolean()),
      field("replicas", &Spec::replicas, Schema::integer("", "int32").range(0, 5)), field("size", &Spec::size, Schema::integer()),
      field("interval", &Spec::interval, Schema::string()), field("timeout", &Spec::timeout, Schema::string()),
      field("since", &Spec::since, Schema::date_time()), field("encode", &Spec::encode, Schema::boolean()),
      field("names", &Spec::names, Schema::strings()), field("labels", &Spec::labels, Schema::string_map()),
      field("caBundle", &Spec::ca_bundle, Schema::bytes()), field("ref", &Spec::ref, Ref::schema()),
      field("refs", &Spec::refs, Schema::array(Ref::schema())),
      field("conditions", &Spec::conditions, openapi::conditions("Conditions.", "Ready", true)),
      field("selector", &Spec::selector, Schema::open_object()), field("config", &Spec::config, Schema::open_object()));
  return table;
}

TEST(Codec, DecodesEveryMemberKindAndEncodesItBack) {
  const auto in = json::parse(R"({
    "url": "https://example.com", "suspend": true, "replicas": 3, "size": 4096, "interval": "1m30s",
    "timeout": "90s", "since": "2026-01-02T03:04:05Z", "encode": false, "names": ["a", "b"],
    "labels": {"app": "web"}, "caBundle": "aGVsbG8=", "ref": {"name": "r", "kind": "Issuer"},
    "refs": [{"name": "x"}], "conditions": [{"type": "Ready", "status": "True", "reason": "Done",
    "lastTransitionTime": "2026-01-02T03:04:05Z", "observedGeneration": 2}],
    "selector": {"matchLabels": {"a": "b"}}, "config": {"retention.ms": 1000, "unknown": "kept"},
    "notAField": 1})");
  const Spec s = spec_fields().decode(in, "spec");
  EXPECT_EQ(s.url, "https://example.com");
  EXPECT_TRUE(s.suspend);
  EXPECT_EQ(s.replicas, 3);
  EXPECT_EQ(s.size, 4096);
  EXPECT_EQ(s.interval, 90s);
  EXPECT_EQ(s.timeout, std::chrono::nanoseconds(90s));
  EXPECT_EQ(meta::format_rfc3339(*s.since), "2026-01-02T03:04:05Z");
  EXPECT_EQ(s.encode, std::optional<bool>(false));
  EXPECT_EQ(s.names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.labels.at("app"), "web");
  EXPECT_EQ(s.ca_bundle, "hello");
  EXPECT_EQ(s.ref, (Ref{"r", "Issuer"}));
  EXPECT_EQ(s.refs, (std::vector<Ref>{{"x", ""}}));
  ASSERT_EQ(s.conditions.size(), 1u);
  EXPECT_EQ(s.conditions[0].observed_generation, 2);
  EXPECT_EQ(s.config.at("retention.ms").as_int64(), 1000);

  json::Value expected = in;
  expected.get_object().erase("notAField");
  // Go's duration form is what encoding writes back.
  expected.get_object()["interval"] = "1m30s";
  expected.get_object()["timeout"] = "1m30s";
  EXPECT_EQ(spec_fields().encode(s), expected);
}

TEST(Codec, MissingAndNullMembersKeepTheInitialValue) {
  const Spec s = spec_fields().decode(json::parse(R"({"url": "u", "replicas": null})"), "spec");
  EXPECT_EQ(s.replicas, 1);
  EXPECT_FALSE(s.timeout);
  EXPECT_FALSE(s.ref);
  EXPECT_EQ(spec_fields().decode(json::Value(), "spec").url, "");
}

TEST(Codec, EncodingLeavesOutEmptyMembersUnlessRequired) {
  Spec s;
  s.replicas = 0;
  EXPECT_EQ(spec_fields().encode(s), json::parse(R"({"url": ""})"));
  s.encode = false;  // optional: present even when false
  s.ref = Ref{};
  EXPECT_EQ(spec_fields().encode(s), json::parse(R"({"url": "", "encode": false, "ref": {"name": ""}})"));
}

TEST(Codec, WrongTypesThrowNamingTheFieldPath) {
  auto error_of = [](std::string_view text) {
    try {
      spec_fields().decode(json::parse(text), "spec");
    } catch (const DecodeError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(R"({"url": 1})"), "spec.url: expected a string, got number");
  EXPECT_EQ(error_of(R"({"replicas": 4294967296})"), "spec.replicas: 4294967296 does not fit in a 32-bit integer");
  EXPECT_EQ(error_of(R"({"size": "big"})"), "spec.size: expected an integer, got string");
  EXPECT_EQ(error_of(R"({"interval": "90d"})"), R"(spec.interval: time: unknown unit "d" in duration "90d")");
  EXPECT_EQ(error_of(R"({"since": "yesterday"})"), R"(spec.since: invalid RFC 3339 time "yesterday")");
  EXPECT_EQ(error_of(R"({"names": ["a", 2]})"), "spec.names[1]: expected a string, got number");
  EXPECT_EQ(error_of(R"({"labels": {"app": true}})"), "spec.labels[app]: expected a string, got boolean");
  EXPECT_EQ(error_of(R"({"caBundle": "%%%"})"), "spec.caBundle: illegal base64 data");
  EXPECT_EQ(error_of(R"({"refs": [{"name": []}]})"), "spec.refs[0].name: expected a string, got array");
  EXPECT_EQ(error_of(R"({"config": []})"), "spec.config: expected an object, got array");
  EXPECT_EQ(error_of(R"([])"), "spec: expected an object, got array");
}

TEST(Codec, SchemaListsTheFieldsInOrderWithTheRequiredOnes) {
  const json::Value schema = spec_fields().schema().json();
  const auto& properties = schema.at("properties").get_object();
  ASSERT_EQ(properties.size(), 16u);
  EXPECT_EQ(properties.begin()->key(), "url");
  EXPECT_EQ(schema.at("required"), json::parse(R"(["url"])"));
  EXPECT_EQ(properties.at("caBundle").at("format"), "byte");
  EXPECT_EQ(properties.at("ref").at("required"), json::parse(R"(["name"])"));
  EXPECT_EQ(properties.at("replicas").at("maximum"), 5);
}

TEST(Codec, AFieldWhoseSchemaTypeDiffersFromItsMemberIsRefused) {
  EXPECT_THROW(field("replicas", &Spec::replicas, Schema::string()), std::logic_error);
  EXPECT_THROW(field("names", &Spec::names, Schema::string_map()), std::logic_error);
  EXPECT_THROW(field("timeout", &Spec::timeout, Schema::integer()), std::logic_error);
  EXPECT_THROW(field("suspend", &Spec::suspend, Schema::bytes()), std::logic_error);
  EXPECT_NO_THROW(field("selector", &Spec::selector, Schema::int_or_string()));
}

struct Status {
  std::string phase;
  CAPSTAN_CODEC(Status);
};
const auto& status_fields() {
  static const auto table = codec::table<Status>("A status.", field("phase", &Status::phase, Schema::string()));
  return table;
}
CAPSTAN_CODEC_FROM(Status, status_fields)

TEST(Codec, AResourceKeepsItsMetadataAndTypesItsSpecAndStatus) {
  using Thing = Resource<Ref, Status>;
  const auto in = json::parse(R"({"apiVersion": "example.com/v1", "kind": "Thing",
    "metadata": {"name": "a", "namespace": "ns", "labels": {"x": "y"}}, "spec": {"name": "r"}, "status": {"phase": "Up"}})");
  const Thing t = Thing::from_json(in);
  EXPECT_EQ(t.name(), "a");
  EXPECT_EQ(t.namespace_(), "ns");
  EXPECT_EQ(t.spec.name, "r");
  EXPECT_EQ(t.status.phase, "Up");
  EXPECT_EQ(t.kind, "Thing");
  EXPECT_EQ(t.to_json("example.com/v1", "Other"), in) << "the kind written is the one read";
  Thing fresh = Thing::from_json(json::parse(R"({"metadata": {"name": "b"}, "spec": {"name": "r"}})"));
  EXPECT_FALSE(fresh.to_json("example.com/v1", "Thing").as_object().contains("status")) << "an empty status is left out";
  EXPECT_EQ(fresh.to_json("example.com/v1", "Thing").at("kind"), "Thing");
  try {
    Thing::from_json(json::parse(R"({"spec": {"name": 1}})"));
    ADD_FAILURE() << "decoded";
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "spec.name: expected a string, got number");
  }
}

}  // namespace
}  // namespace capstan::apis::codec
