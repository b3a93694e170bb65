// The garbage collector, as kube-controller-manager runs it: an index of ownerReferences
// (owner uid -> dependents, across every resource) kept from a watch of the whole store, and
// one loop that, per object,
//  - deletes a dependent whose owners are all gone (absent, or another uid under that name),
//    with propagation Background so chains cascade; strips the dangling references of a
//    dependent that still has a live owner;
//  - for an owner deleting in the Foreground (deletionTimestamp + "foregroundDeletion"):
//    deletes its dependents (in the Foreground themselves when they have dependents) and
//    removes the finalizer once no dependent with blockOwnerDeletion remains;
//  - for an owner deleting with "orphan": removes the references to it from its dependents,
//    then the finalizer.
// Owners are looked up by kind (the registry), name and uid: a namespaced dependent's owner in
// its own namespace or at cluster scope. A reference to a kind that is not served leaves the
// dependent alone (rechecked later); a cluster-scoped dependent naming a namespaced owner too.
// Events are ignored, as upstream's default ignoredResources.
#pragma once

#include "apiserver/rest/service.h"
#include "apiserver/system/loop.h"
#include "runtime/log/log.h"

#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace capstan::apiserver::system {

class GcController {
 public:
  explicit GcController(rest::Service& service);
  ~GcController();
  GcController(const GcController&) = delete;
  GcController& operator=(const GcController&) = delete;

  void start();
  void stop();

 private:
  // An object as the index last saw it.
  struct Node {
    Key key;
    std::vector<std::string> owners;   // owner uids, from metadata.ownerReferences
    bool deleting_dependents = false;  // deletionTimestamp and the foregroundDeletion finalizer
  };
  struct Dependent {
    Key key;
    std::string uid;
  };
  // Solid: the owner exists; Dangling: it does not (or another uid has its name); Waiting: it
  // exists and waits in the Foreground for its dependents; Unresolvable: its kind is not served;
  // Invalid: a cluster-scoped dependent naming a namespaced owner.
  enum class RefState { Solid, Dangling, Waiting, Unresolvable, Invalid };

  // Index maintenance; runs under the store lock (only touches the index, returns keys).
  std::vector<Key> observe(const storage::Event& e);
  std::chrono::milliseconds reconcile(const Key& k);
  std::chrono::milliseconds attempt_to_delete(const registry::ResourcePtr& r, const storage::Object& obj);
  std::chrono::milliseconds process_deleting_dependents(const registry::ResourcePtr& r, const storage::Object& obj);
  void orphan_dependents(const registry::ResourcePtr& r, const storage::Object& obj);
  RefState classify(const registry::ResourceInfo& dependent_res, std::string_view dependent_ns,
                    const json::Value& ref) const;
  std::vector<Dependent> dependents_of(const std::string& uid) const;
  bool remove_finalizer(const registry::ResourcePtr& r, const storage::Object& obj, std::string_view finalizer);

  rest::Service& service_;
  log::Logger log_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Node> nodes_;                       // uid -> object
  std::unordered_map<std::string, std::set<std::string>> dependents_;  // owner uid -> dependent uids
  Loop loop_;  // declared last: stopped (and its watch removed) before the index goes away
};

}  // namespace capstan::apiserver::system
