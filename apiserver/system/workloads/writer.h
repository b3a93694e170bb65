// How the workload controllers write: through rest::Service (so defaulting, validation,
// admission, managed fields and watch events are exactly those of any client), as the user
// and field manager the upstream component would be recorded as, with optimistic
// concurrency and re-reads on conflicts.
#pragma once

#include "apiserver/rest/service.h"

#include <functional>
#include <string>
#include <string_view>

namespace capstan::apiserver::system::workloads {

class Writer {
 public:
  // `field_manager`: "kube-controller-manager", "kubelet", "kube-scheduler"; `user` the
  // identity admission sees (e.g. system:serviceaccount:kube-system:replicaset-controller).
  Writer(rest::Service& service, std::string field_manager, rest::User user);

  // Creates `obj` (metadata.name or metadata.generateName set) in `ns`; returns the stored
  // object. Throws ApiError (409 AlreadyExists, 403 namespace terminating, ...).
  json::Value create(std::string_view resource, std::string_view ns, json::Value obj);

  // Writes `obj` as a whole (main resource, or only its status with `status`), conditional
  // on its metadata.resourceVersion. Throws ApiError (409 Conflict when it is stale).
  json::Value update(std::string_view resource, const json::Value& obj, bool status = false);

  // Reads the object from the store, lets `fn` change a copy (returning false for "nothing
  // to do") and writes it; re-reads and re-applies on conflicts. Returns false when the
  // object does not exist or `fn` left it alone.
  bool mutate(std::string_view resource, std::string_view ns, std::string_view name, bool status,
              const std::function<bool(json::Value&)>& fn);

  // Deletes (with a uid precondition when given). Returns false when it was already gone
  // or the uid no longer matches (someone recreated it).
  bool remove(std::string_view resource, std::string_view ns, std::string_view name, std::string_view uid = {},
              std::string_view propagation = {});

  rest::Service& service() { return service_; }
  storage::Store& store() { return service_.store(); }

 private:
  rest::Target target(std::string_view resource, std::string_view ns, std::string_view name,
                      std::string_view subresource = {}) const;

  rest::Service& service_;
  std::string field_manager_;
  rest::User user_;
};

// Users as kube-controller-manager (with per-controller service accounts), the kubelet and
// the scheduler authenticate.
rest::User controller_user(std::string_view controller);  // "replicaset-controller"
rest::User node_user(std::string_view node);
rest::User scheduler_user();

}  // namespace capstan::apiserver::system::workloads
