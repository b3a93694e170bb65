// How the workload controllers read and write: through the Kubernetes client, so they work
// against any API server. Reads are consistent (GET / LIST without resourceVersion, never a
// cache); writes carry the field manager the upstream component is recorded as
// ("kube-controller-manager", "kubelet", "kube-scheduler"), use optimistic concurrency and
// re-read on conflicts.
#pragma once

#include "runtime/client/client.h"
#include "runtime/json/json.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::simulator {

using client::ApiError;

// An object as read from the API server (nullptr: it does not exist).
using Object = std::shared_ptr<const json::Value>;
Object make_object(json::Value v);

class Api {
 public:
  Api(client::Client& client, std::string field_manager);

  // GET; nullptr on 404.
  Object get(std::string_view resource, std::string_view ns, std::string_view name);
  // LIST of every page (ns "" = all namespaces), optionally by label selector.
  std::vector<Object> list(std::string_view resource, std::string_view ns, std::string_view label_selector = {});

  // Creates `obj` (metadata.name or metadata.generateName set) in `ns`; returns the stored
  // object. Throws ApiError (409 AlreadyExists, 403 namespace terminating or no service
  // account yet, ...).
  json::Value create(std::string_view resource, std::string_view ns, const json::Value& obj);

  // Writes `obj` as a whole (main resource, or only its status with `status`), conditional
  // on its metadata.resourceVersion. Throws ApiError (409 Conflict when it is stale).
  json::Value update(std::string_view resource, const json::Value& obj, bool status = false);

  // Reads the object, lets `fn` change a copy (returning false for "nothing to do") and
  // writes it; re-reads and re-applies on conflicts. Returns false when the object does not
  // exist or `fn` left it alone.
  bool mutate(std::string_view resource, std::string_view ns, std::string_view name, bool status,
              const std::function<bool(json::Value&)>& fn);

  // Deletes (with a uid precondition when given). Returns false when it was already gone
  // or the uid no longer matches (someone recreated it).
  bool remove(std::string_view resource, std::string_view ns, std::string_view name, std::string_view uid = {},
              client::Propagation propagation = client::Propagation::Unset,
              std::optional<std::int64_t> grace_period_seconds = std::nullopt);

  client::Client& client() { return client_; }
  const std::string& field_manager() const { return field_manager_; }

 private:
  client::Client& client_;
  std::string field_manager_;
};

}  // namespace capstan::simulator
