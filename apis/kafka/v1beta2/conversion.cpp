#include "apis/kafka/v1beta2/conversion.h"

#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1beta2/group.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

namespace capstan::apis::kafka::v1beta2 {
namespace {

struct Removed {
  std::string_view key;  // in the annotation
  std::string_view parent, parent2, member;  // member of object at parent(.parent2)
};
// The members v1 removed, by the path the annotation keys them with.
constexpr std::array<Removed, 6> kRemoved{{{"spec.kafka.replicas", "spec", "kafka", "replicas"},
                                           {"spec.kafka.storage", "spec", "kafka", "storage"},
                                           {"spec.kafka.resources", "spec", "kafka", "resources"},
                                           {"spec.zookeeper", "spec", "", "zookeeper"},
                                           {"status.registeredNodeIds", "status", "", "registeredNodeIds"},
                                           {"status.kafkaMetadataState", "status", "", "kafkaMetadataState"}}};
// status.listeners[].type, by listener name.
constexpr std::string_view kListenerTypes = "status.listeners[].type";

json::Object* object_at(json::Value& obj, std::string_view a, std::string_view b) {
  if (!obj.is_object()) return nullptr;
  auto* x = obj.as_object().if_contains(a);
  if (!x || !x->is_object()) return nullptr;
  if (b.empty()) return &x->as_object();
  auto* y = x->as_object().if_contains(b);
  return y && y->is_object() ? &y->as_object() : nullptr;
}

json::Array* status_listeners(json::Value& obj) {
  auto* status = object_at(obj, "status", "");
  auto* listeners = status ? status->if_contains("listeners") : nullptr;
  return listeners && listeners->is_array() ? &listeners->as_array() : nullptr;
}

json::Object* annotations(json::Value& obj, bool create) {
  auto* meta = object_at(obj, "metadata", "");
  if (!meta) return nullptr;
  auto* a = meta->if_contains("annotations");
  if (a && a->is_object()) return &a->as_object();
  if (!create) return nullptr;
  return &(*meta)["annotations"].emplace_object();
}

// Keeps `kept` (when not empty) in the annotation of `out`.
void keep(json::Value& out, json::Object kept) {
  if (!kept.empty()) (*annotations(out, true))[kRemovedFieldsAnnotation] = json::serialize(json::Value(std::move(kept)));
}

// What keep() kept, taken out of the annotation (dropped with it, and the annotations when
// nothing else is there); nullopt when the annotation is absent or not ours (then left as it is).
std::optional<json::Object> take_kept(json::Value& out) {
  auto* a = annotations(out, false);
  const auto* text = a ? a->if_contains(kRemovedFieldsAnnotation) : nullptr;
  if (!text || !text->is_string()) return std::nullopt;
  json::Value kept;
  try {
    kept = json::parse(text->get_string(), kRemovedFieldsAnnotation);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (!kept.is_object()) return std::nullopt;
  a->erase(kRemovedFieldsAnnotation);
  if (a->empty()) out.as_object()["metadata"].as_object().erase("annotations");
  return std::move(kept.as_object());
}

json::Array* user_acls(json::Value& user) {
  auto* authorization = object_at(user, "spec", "authorization");
  auto* acls = authorization ? authorization->if_contains("acls") : nullptr;
  return acls && acls->is_array() ? &acls->as_array() : nullptr;
}

// spec.authorization.acls[].operation, by the rule's index: {operation, added, absent}: whether
// the conversion added it to operations[], whether operations[] was absent.
constexpr std::string_view kAclOperations = "spec.authorization.acls[].operation";

}  // namespace

json::Value kafka_to_v1(const json::Value& kafka) {
  json::Value out = kafka;
  out.as_object()["apiVersion"] = v1::kApiVersion;
  json::Object kept;
  for (const auto& r : kRemoved) {
    auto* parent = object_at(out, r.parent, r.parent2);
    if (!parent) continue;
    if (auto* v = parent->if_contains(r.member)) {
      kept[r.key] = *v;
      parent->erase(r.member);
    }
  }
  if (auto* listeners = status_listeners(out)) {
    json::Object types;
    for (auto& l : *listeners) {
      if (!l.is_object()) continue;
      auto& o = l.as_object();
      const auto* name = o.if_contains("name");
      const auto* type = o.if_contains("type");
      if (type && name && name->is_string()) {
        types[name->get_string()] = *type;
        o.erase("type");
      }
    }
    if (!types.empty()) kept[kListenerTypes] = std::move(types);
  }
  keep(out, std::move(kept));
  return out;
}

json::Value kafka_from_v1(const json::Value& kafka) {
  json::Value out = kafka;
  out.as_object()["apiVersion"] = kApiVersion;
  const auto kept = take_kept(out);
  if (!kept) return out;
  for (const auto& r : kRemoved) {
    const auto* v = kept->if_contains(r.key);
    if (!v) continue;
    auto& parent = r.parent2.empty() ? json::ensure_object(out, {r.parent}) : json::ensure_object(out, {r.parent, r.parent2});
    parent[r.member] = *v;
  }
  if (const auto* types = kept->if_contains(kListenerTypes); types && types->is_object())
    if (auto* listeners = status_listeners(out))
      for (auto& l : *listeners)
        if (l.is_object())
          if (const auto* name = l.as_object().if_contains("name"); name && name->is_string())
            if (const auto* type = types->as_object().if_contains(name->get_string())) l.as_object()["type"] = *type;
  return out;
}

json::Value user_to_v1(const json::Value& user) {
  json::Value out = user;
  out.as_object()["apiVersion"] = v1::kApiVersion;
  json::Object rules;
  if (auto* acls = user_acls(out))
    for (std::size_t i = 0; i < acls->size(); ++i) {
      if (!(*acls)[i].is_object()) continue;
      auto& rule = (*acls)[i].as_object();
      const auto* op = rule.if_contains("operation");
      if (!op) continue;
      json::Value operation = *op;
      rule.erase("operation");
      auto* ops = rule.if_contains("operations");
      const bool absent = !ops || !ops->is_array();
      if (absent) ops = &(rule["operations"] = json::Array{});
      auto& list = ops->as_array();
      const bool added = std::find(list.begin(), list.end(), operation) == list.end();
      if (added) list.push_back(operation);
      rules[std::to_string(i)] = json::Object{{"operation", std::move(operation)}, {"added", added}, {"absent", absent}};
    }
  json::Object kept;
  if (!rules.empty()) kept[kAclOperations] = std::move(rules);
  keep(out, std::move(kept));
  return out;
}

json::Value user_from_v1(const json::Value& user) {
  json::Value out = user;
  out.as_object()["apiVersion"] = kApiVersion;
  const auto kept = take_kept(out);
  const auto* rules = kept ? kept->if_contains(kAclOperations) : nullptr;
  auto* acls = user_acls(out);
  if (!rules || !rules->is_object() || !acls) return out;
  for (const auto& entry : rules->as_object()) {
    const json::Value& was = entry.value();
    std::size_t i = 0;
    try {
      i = std::stoul(std::string(entry.key()));
    } catch (const std::exception&) {
      continue;
    }
    if (i >= acls->size() || !(*acls)[i].is_object() || !was.is_object() || !was.as_object().contains("operation")) continue;
    auto& rule = (*acls)[i].as_object();
    const json::Value& operation = was.as_object().at("operation");
    rule["operation"] = operation;
    auto* ops = rule.if_contains("operations");
    if (!ops || !ops->is_array()) continue;
    if (json::get_bool(was, {"absent"})) {
      rule.erase("operations");
    } else if (json::get_bool(was, {"added"})) {
      auto& list = ops->as_array();
      if (auto it = std::find(list.rbegin(), list.rend(), operation); it != list.rend()) list.erase(std::next(it).base());
    }
  }
  return out;
}

}  // namespace capstan::apis::kafka::v1beta2
