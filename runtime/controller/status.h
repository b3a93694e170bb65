// Writing a custom resource's status the way Capstan's reconcilers do: edit a copy of the cached
// object's status (conditions as metav1.Condition, observedGeneration from metadata.generation)
// and write it, as a JSON merge patch of the status subresource, only when it changed.
#pragma once

#include "runtime/json/json.h"
#include "runtime/meta/gvk.h"
#include "runtime/meta/object.h"
#include "runtime/meta/time.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace capstan::client {
class Client;
}

namespace capstan::controller {

// obj.status, created (empty) when missing.
json::Object& status_of(json::Value& obj);

// Sets condition `type` in obj.status.conditions (lastTransitionTime kept while the status stays
// the same), with observedGeneration = metadata.generation.
void set_condition(json::Value& obj, std::string_view type, std::string_view status, std::string_view reason,
                   std::string_view message);
void remove_condition(json::Value& obj, std::string_view type);
// The same on a typed status's conditions: lastTransitionTime is `now` when the status changes.
// Return whether anything changed.
bool set_condition(std::vector<meta::Condition>& conditions, std::string_view type, std::string_view status, std::string_view reason,
                   std::string_view message, std::int64_t observed_generation, meta::TimePoint now = meta::Clock::now());
bool remove_condition(std::vector<meta::Condition>& conditions, std::string_view type);
// Whether `conditions` holds `type` with `status`.
bool condition_is(const std::vector<meta::Condition>& conditions, std::string_view type, std::string_view status);
// Whether `obj` has condition `type` with `status`, set for its current generation.
bool condition_current(const json::Value& obj, std::string_view type, std::string_view status);

// Writes obj.status when it differs from before.status, or when `before` (a cached object) has
// not yet caught up with this process's last status write of it. Returns whether it wrote (not
// when the object is gone: a 404 is no error here).
// Writes nothing in a reconcile that has run past its memory budget (memory_budget.h): the
// controller writes the fault's condition instead.
bool write_status(client::Client& client, const meta::GroupVersionResource& gvr, const json::Value& before, json::Value& obj);

// The same for a typed status (a struct with to_json()): written as `before`'s status.
template <class Status>
  requires requires(const Status& s) { s.to_json(); }
bool write_status(client::Client& client, const meta::GroupVersionResource& gvr, const json::Value& before, const Status& status) {
  json::Value obj = before;
  obj.as_object()["status"] = status.to_json();
  return write_status(client, gvr, before, obj);
}

}  // namespace capstan::controller
