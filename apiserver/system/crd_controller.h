// Serves CustomResourceDefinitions: registers each CRD's resource (versions, schemas,
// printer columns, subresources) so it is served at once, reports NamesAccepted and
// Established, and on deletion removes every custom resource before the CRD goes away.
#pragma once

#include "apiserver/registry/resource.h"
#include "apiserver/rest/service.h"
#include "apiserver/system/loop.h"

namespace capstan::apiserver::system {

// Builds the served resource of a CRD object (throws std::invalid_argument naming what is
// wrong when a schema cannot be parsed).
registry::ResourceInfo resource_from_crd(const json::Value& crd);

class CrdController {
 public:
  explicit CrdController(rest::Service& service);
  void start();
  void stop() { loop_.stop(); }

 private:
  std::chrono::milliseconds reconcile(const Key& k);
  rest::Service& service_;
  Loop loop_;
};

}  // namespace capstan::apiserver::system
