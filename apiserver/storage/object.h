// An immutable stored object: the parsed value and its serialised JSON, shared by the store,
// the event history and every reader, never copied.
#pragma once

#include "runtime/json/json.h"

#include <cstdint>
#include <memory>
#include <string>

namespace capstan::apiserver::storage {

struct Object {
  std::shared_ptr<const json::Value> value;
  std::shared_ptr<const std::string> json;
  std::int64_t rv = 0;

  explicit operator bool() const { return value != nullptr; }
  const json::Value& operator*() const { return *value; }
  const json::Value* operator->() const { return value.get(); }
};

// Stamps metadata.resourceVersion with `rv` and serialises.
Object make_object(json::Value v, std::int64_t rv);
// Wraps an already stamped value read back from persistence.
Object adopt_object(json::Value v, std::string serialized, std::int64_t rv);

enum class EventType { Added, Modified, Deleted };

struct Event {
  EventType type = EventType::Added;
  std::int64_t rv = 0;
  std::string resource;  // group-resource: "configmaps", "deployments.apps"
  Object object;         // the new state (the last state for Deleted)
  Object previous;       // the state before (empty for Added)
};

// "ns/name" or "name": the key within one resource.
std::string object_key(std::string_view ns, std::string_view name);

}  // namespace capstan::apiserver::storage
