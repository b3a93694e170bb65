// Shared informers: one informer per (resource, namespace, selectors) for the whole process,
// whichever controllers ask for it. Restricting the manager to a namespace (--namespace)
// narrows every namespaced informer the factory creates.
#pragma once

#include "runtime/cache/informer.h"

#include <map>
#include <memory>
#include <mutex>

namespace capstan::cache {

struct FactoryOptions {
  std::string namespace_restriction;   // "" = all namespaces
  std::chrono::milliseconds resync{0};
  bool streaming_list = true;  // see InformerOptions::streaming_list
};

class InformerFactory {
 public:
  InformerFactory(client::Client& client, FactoryOptions options = {});
  ~InformerFactory();

  // The shared informer for `o` (created on first use; started at once if the factory runs).
  // `namespaced` says whether the resource is namespaced (the restriction applies only then).
  Informer& informer(InformerOptions o, bool namespaced = true);
  void start();
  void stop();
  // Waits until every informer created so far has synced.
  bool wait_for_sync(std::chrono::milliseconds timeout);
  bool all_synced() const;
  std::vector<Informer*> informers() const;

 private:
  client::Client& client_;
  FactoryOptions opts_;
  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<Informer>> informers_;
  bool started_ = false;
};

}  // namespace capstan::cache
