#include "apis/kafka/v1beta2/conversion.h"

#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1beta2/group.h"

#include <array>
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
  if (!kept.empty()) (*annotations(out, true))[kRemovedFieldsAnnotation] = json::serialize(json::Value(std::move(kept)));
  return out;
}

json::Value kafka_from_v1(const json::Value& kafka) {
  json::Value out = kafka;
  out.as_object()["apiVersion"] = kApiVersion;
  auto* a = annotations(out, false);
  const auto* text = a ? a->if_contains(kRemovedFieldsAnnotation) : nullptr;
  if (!text || !text->is_string()) return out;
  json::Value kept;
  try {
    kept = json::parse(text->get_string(), kRemovedFieldsAnnotation);
  } catch (const std::exception&) {
    return out;  // not ours: left as it is
  }
  if (!kept.is_object()) return out;
  for (const auto& r : kRemoved) {
    const auto* v = kept.as_object().if_contains(r.key);
    if (!v) continue;
    auto& parent = r.parent2.empty() ? json::ensure_object(out, {r.parent}) : json::ensure_object(out, {r.parent, r.parent2});
    parent[r.member] = *v;
  }
  if (const auto* types = kept.as_object().if_contains(kListenerTypes); types && types->is_object())
    if (auto* listeners = status_listeners(out))
      for (auto& l : *listeners)
        if (l.is_object())
          if (const auto* name = l.as_object().if_contains("name"); name && name->is_string())
            if (const auto* type = types->as_object().if_contains(name->get_string())) l.as_object()["type"] = *type;
  a = annotations(out, false);
  a->erase(kRemovedFieldsAnnotation);
  if (a->empty()) out.as_object()["metadata"].as_object().erase("annotations");
  return out;
}

}  // namespace capstan::apis::kafka::v1beta2
