// Writing a gitops object's status: the reconciler edits a copy of the cached object's status
// and writes it (a JSON merge patch of the status subresource) only when it changed.
#pragma once

#include "runtime/controller/builder.h"
#include "runtime/json/json.h"

#include <string_view>

namespace capstan::client {
class Client;
}

namespace capstan::gitops {

// obj.status, created (empty) when missing.
json::Object& status_of(json::Value& obj);

// Sets condition `type` in obj.status.conditions (lastTransitionTime kept while the status stays
// the same), with observedGeneration = metadata.generation.
void set_condition(json::Value& obj, std::string_view type, std::string_view status, std::string_view reason,
                   std::string_view message);
void remove_condition(json::Value& obj, std::string_view type);
// Whether `obj` has condition `type` with `status`, set for its current generation.
bool condition_current(const json::Value& obj, std::string_view type, std::string_view status);

// Writes obj.status when it differs from `before.status`; status.observedGeneration is set from
// metadata.generation and lastHandledReconcileAt from the requestedAt annotation. Returns
// whether it wrote.
bool write_status(client::Client& client, const controller::ResourceType& type, const json::Value& before, json::Value& obj);

}  // namespace capstan::gitops
