// Consistency of the schema tables themselves: every message reachable from a kind has unique field
// numbers and unique, well-formed JSON names (counting inlined messages as part of their parent).
#include "apiserver/protobuf/schema.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

namespace capstan::apiserver::protobuf::schema {
namespace {

bool lower_camel(std::string_view s) {
  if (s.empty() || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

// JSON names a message contributes to its object, inlined messages expanded.
void json_names(const Message& m, std::multiset<std::string>& out) {
  for (const auto& f : m.fields) {
    if (f.inlined()) json_names(*f.message, out);
    else out.insert(std::string(f.json));
  }
}

void check(const Message& m, std::set<const Message*>& seen) {
  if (!seen.insert(&m).second) return;
  SCOPED_TRACE(std::string(m.name));
  EXPECT_FALSE(m.fields.empty());
  EXPECT_NE(m.name.find("k8s.io."), std::string_view::npos);
  std::set<std::uint32_t> numbers;
  for (const auto& f : m.fields) {
    SCOPED_TRACE(std::string(f.json) + " = " + std::to_string(f.number));
    EXPECT_TRUE(numbers.insert(f.number).second) << "duplicate field number";
    EXPECT_GE(f.number, 1u);
    EXPECT_EQ(f.type == Type::Message, f.message != nullptr);
    if (f.inlined()) {
      EXPECT_EQ(f.type, Type::Message);
      EXPECT_EQ(f.card, Card::Single);
      EXPECT_TRUE(f.json.empty());
      EXPECT_EQ(f.message->special, Special::None);
    } else if (m.special == Special::None) {
      EXPECT_TRUE(lower_camel(f.json)) << "JSON name '" << f.json << "'";
    }
    if (f.keep_zero() && f.card == Card::Single) {
      EXPECT_NE(f.type, Type::Message) << "kKeepZero applies to scalars, lists and maps";
    }
    if (f.by_value()) {
      EXPECT_EQ(f.type, Type::Message) << "kValue applies to structs";
      EXPECT_EQ(f.card, Card::Single);
    }
    if (f.message) check(*f.message, seen);
  }
  if (m.special == Special::None) {
    std::multiset<std::string> names;
    json_names(m, names);
    for (const auto& n : names) EXPECT_EQ(names.count(n), 1u) << "JSON name '" << n << "' appears twice";
  }
}

TEST(ProtobufSchema, EveryReachableMessageIsConsistent) {
  std::set<const Message*> seen;
  std::set<std::pair<std::string_view, std::string_view>> kinds_seen;
  for (const auto& k : kinds()) {
    SCOPED_TRACE(std::string(k.api_version) + " " + std::string(k.kind));
    EXPECT_TRUE(kinds_seen.insert({k.api_version, k.kind}).second) << "kind listed twice";
    ASSERT_NE(k.message, nullptr);
    EXPECT_EQ(find_kind(k.api_version, k.kind), k.message);
    // The message name ends with the kind (core "Endpoints" included).
    EXPECT_TRUE(k.message->name.ends_with("." + std::string(k.kind)));
    // Top-level objects carry ObjectMeta in field 1 (except DeleteOptions).
    if (k.kind != "DeleteOptions") {
      const Field* meta = k.message->find(1);
      ASSERT_NE(meta, nullptr);
      EXPECT_EQ(meta->json, "metadata");
      EXPECT_EQ(meta->message, &kObjectMeta);
    }
    check(*k.message, seen);
  }
  EXPECT_GT(seen.size(), 150u);
}

TEST(ProtobufSchema, WellKnownFieldNumbers) {
  // Spot checks against k8s.io/api generated.proto: a swapped number here would go unnoticed by the
  // consistency walk.
  const std::map<std::pair<const Message*, std::uint32_t>, std::string_view> expected = {
      {{&kObjectMeta, 8}, "creationTimestamp"}, {{&kObjectMeta, 11}, "labels"},
      {{&kObjectMeta, 17}, "managedFields"},    {{&kPodSpec, 20}, "initContainers"},
      {{&kPodSpec, 21}, "automountServiceAccountToken"}, {{&kPodSpec, 33}, "topologySpreadConstraints"},
      {{&kConfigMap, 3}, "binaryData"},        {{&kConfigMap, 4}, "immutable"},
      {{&kSecret, 4}, "stringData"},           {{&kSecret, 5}, "immutable"},
      {{&kDeleteOptions, 4}, "propagationPolicy"}, {{&kOwnerReference, 5}, "apiVersion"},
  };
  for (const auto& [key, name] : expected) {
    const Field* f = key.first->find(key.second);
    ASSERT_NE(f, nullptr) << key.first->name << " field " << key.second;
    EXPECT_EQ(f->json, name) << key.first->name << " field " << key.second;
  }
}

}  // namespace
}  // namespace capstan::apiserver::protobuf::schema
