// Namespace lifecycle, as kube-controller-manager's namespace controller: a namespace with a
// deletionTimestamp (phase Terminating) has every namespaced object of every served resource
// deleted (propagation Background); objects with finalizers stay until those are removed,
// which status.conditions report (NamespaceContentRemaining, NamespaceFinalizersRemaining and
// the three deletion-failure conditions, worded as upstream). Once it is empty the "kubernetes"
// finalizer leaves spec.finalizers and, with metadata.finalizers empty too, the namespace is
// deleted from storage.
//
// The namespace itself is written directly in the store, as kube-apiserver's /status and
// /finalize subresources would write it: rest::Service offers neither for namespaces (an
// update of a terminating namespace without metadata.finalizers would delete it at once).
#pragma once

#include "apiserver/rest/service.h"
#include "apiserver/system/loop.h"
#include "runtime/log/log.h"

#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace capstan::apiserver::system {

class NamespaceController {
 public:
  explicit NamespaceController(rest::Service& service);
  ~NamespaceController();
  NamespaceController(const NamespaceController&) = delete;
  NamespaceController& operator=(const NamespaceController&) = delete;

  void start();
  void stop();

 private:
  // What deleting the content of one namespace left behind.
  struct Remaining {
    std::map<std::string, std::int64_t> resources;   // "configmaps." / "deployments.apps" -> objects
    std::map<std::string, std::int64_t> finalizers;  // finalizer -> objects carrying it
    std::vector<std::string> errors;                 // failed deletions
    bool empty() const { return resources.empty(); }
  };

  std::vector<Key> observe(const storage::Event& e);
  std::chrono::milliseconds reconcile(const Key& k);
  Remaining delete_content(const std::string& ns);
  void update_conditions(const std::string& ns, const Remaining& left);
  void finalize(const std::string& ns);

  rest::Service& service_;
  log::Logger log_;
  std::mutex mu_;
  std::set<std::string, std::less<>> terminating_;  // namespaces with a deletionTimestamp, as last seen
  Loop loop_;                          // declared last: stopped before the rest goes away
};

}  // namespace capstan::apiserver::system
