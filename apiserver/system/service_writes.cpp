#include "apiserver/system/service_writes.h"

#include "runtime/meta/object.h"

namespace capstan::apiserver::system {
namespace {

constexpr int kMaxConflictRetries = 10;

rest::Target target_of(const registry::ResourcePtr& r, std::string_view ns, std::string_view name) {
  return rest::Target{r, r->storage_version().name, r->namespaced ? std::string(ns) : std::string(), std::string(name), ""};
}

}  // namespace

registry::ResourcePtr resource_for_kind(const registry::Registry& registry, std::string_view api_version,
                                        std::string_view kind) {
  auto slash = api_version.find('/');
  std::string_view group = slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
  return registry.find_kind(group, kind);
}

WriteOutcome update_object(rest::Service& service, const registry::ResourcePtr& r, std::string_view ns,
                           std::string_view name, std::string_view uid, std::string_view field_manager,
                           const std::function<bool(json::Value&)>& mutate) {
  auto& store = service.store();
  for (int attempt = 0;; ++attempt) {
    auto current = store.get(r->group_resource(), r->namespaced ? ns : std::string_view(), name);
    if (!current) return WriteOutcome::Gone;
    if (!uid.empty() && meta::uid_of(*current.value) != uid) return WriteOutcome::Gone;
    json::Value next = *current.value;  // carries metadata.resourceVersion: the update is conditional
    if (!mutate(next)) return WriteOutcome::Unchanged;
    rest::WriteOptions o;
    o.field_manager = std::string(field_manager);
    o.user = rest::User::system();
    try {
      service.update(target_of(r, ns, name), std::move(next), o);
      return WriteOutcome::Written;
    } catch (const ApiError& e) {
      if (e.code == 404) return WriteOutcome::Gone;
      if (e.code != 409 || attempt + 1 >= kMaxConflictRetries) {
        throw ApiError(e.code, e.reason,
                       "updating " + r->group_resource() + " " + object_ref(ns, name) + ": " + e.what());
      }
    }
  }
}

DeleteOutcome delete_object(rest::Service& service, const registry::ResourcePtr& r, std::string_view ns,
                            std::string_view name, std::string_view uid, std::string_view resource_version,
                            std::string_view propagation) {
  rest::DeleteOptions o;
  o.propagation = std::string(propagation);
  o.precondition_uid = std::string(uid);
  o.precondition_rv = std::string(resource_version);
  o.user = rest::User::system();
  try {
    service.remove(target_of(r, ns, name), o);
    return DeleteOutcome::Requested;
  } catch (const ApiError& e) {
    if (e.code == 404) return DeleteOutcome::Gone;
    if (e.code == 409) return DeleteOutcome::Conflict;
    throw ApiError(e.code, e.reason, "deleting " + r->group_resource() + " " + object_ref(ns, name) + ": " + e.what());
  }
}

std::string object_ref(std::string_view ns, std::string_view name) {
  return ns.empty() ? std::string(name) : std::string(ns) + "/" + std::string(name);
}

}  // namespace capstan::apiserver::system
