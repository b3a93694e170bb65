// ObjectMeta accessors and the small apimachinery conventions controllers rely on:
// owner references, finalizers, conditions (metav1.Condition with lastTransitionTime).
#pragma once

#include "runtime/json/json.h"
#include "runtime/meta/time.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::meta {

std::string_view name_of(const json::Value& obj);
std::string_view namespace_of(const json::Value& obj);
std::string_view uid_of(const json::Value& obj);
std::string_view resource_version_of(const json::Value& obj);
std::int64_t generation_of(const json::Value& obj);
bool is_deleting(const json::Value& obj);  // metadata.deletionTimestamp set
std::string_view annotation(const json::Value& obj, std::string_view key);
std::string_view label(const json::Value& obj, std::string_view key);
// "ns/name" or "name" for cluster-scoped objects: the cache and work-queue key.
std::string key_of(const json::Value& obj);
std::string make_key(std::string_view ns, std::string_view name);
// Splits a key back into namespace and name.
std::pair<std::string, std::string> split_key(std::string_view key);

struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  bool controller = false;
  bool block_owner_deletion = false;

  json::Value to_json() const;
  static OwnerReference from_json(const json::Value& v);
};

std::vector<OwnerReference> owner_references(const json::Value& obj);
std::optional<OwnerReference> controller_of(const json::Value& obj);
// An owner reference to `owner` with controller=true and blockOwnerDeletion=true.
OwnerReference controller_reference(const json::Value& owner);

bool has_finalizer(const json::Value& obj, std::string_view f);
// Return whether the list changed.
bool add_finalizer(json::Value& obj, std::string_view f);
bool remove_finalizer(json::Value& obj, std::string_view f);

struct Condition {
  std::string type;
  std::string status;  // "True" | "False" | "Unknown"
  std::string reason;
  std::string message;
  std::int64_t observed_generation = 0;
  std::string last_transition_time;  // RFC 3339
};

std::optional<Condition> find_condition(const json::Value& obj, std::string_view type);  // reads status.conditions
// Whether status.conditions holds `type` with status "True" (a Pod's "Ready", ...).
bool condition_true(const json::Value& obj, std::string_view type);
// Sets a condition in status.conditions, keeping lastTransitionTime when status is unchanged.
// Returns whether anything changed.
bool set_condition(json::Value& obj, Condition c, TimePoint now = Clock::now());

}  // namespace capstan::meta
