// How the built-in control loops write: through rest::Service (so managedFields, finalizer
// semantics, admission and watch events are what a real client would cause), as the system
// user, guarded by the object's uid and resourceVersion, retrying conflicts. NotFound (or an
// object replaced under the same name) means there is nothing left to do.
#pragma once

#include "apiserver/registry/resource.h"
#include "apiserver/rest/service.h"

#include <functional>
#include <string>
#include <string_view>

namespace capstan::apiserver::system {

// The field manager kube-controller-manager's loops appear as in managedFields.
inline constexpr std::string_view kControllerManager = "kube-controller-manager";

// The served resource an ownerReference (apiVersion + kind) names, or null when no such kind
// is served. The version is not checked: owners are matched by group, kind, name and uid.
registry::ResourcePtr resource_for_kind(const registry::Registry& registry, std::string_view api_version,
                                        std::string_view kind);

enum class WriteOutcome { Written, Unchanged, Gone };

// Re-reads `ns/name`, lets `mutate` change it (returning false when nothing needs changing) and
// updates it, conditional on the resourceVersion read; conflicts are retried with a fresh read.
// Gone when the object no longer exists or (with a non-empty `uid`) is another object now.
// Other API errors propagate.
WriteOutcome update_object(rest::Service& service, const registry::ResourcePtr& r, std::string_view ns,
                           std::string_view name, std::string_view uid, std::string_view field_manager,
                           const std::function<bool(json::Value&)>& mutate);

enum class DeleteOutcome { Requested, Gone, Conflict };

// DELETE with `propagation` ("Background", "Foreground", "Orphan" or "" for the default) and
// preconditions on uid and (when non-empty) resourceVersion. Conflict: a precondition failed
// (the object changed or was replaced); the caller re-evaluates.
DeleteOutcome delete_object(rest::Service& service, const registry::ResourcePtr& r, std::string_view ns,
                            std::string_view name, std::string_view uid, std::string_view resource_version,
                            std::string_view propagation);

// "ns/name" or "name", for log fields.
std::string object_ref(std::string_view ns, std::string_view name);

}  // namespace capstan::apiserver::system
