// The storage migration a plug-in's multi-version CRDs get (Plugin::wire): while the manager
// leads, each CRD's stored objects are moved to its storage version (runtime/crd), retried with
// backoff until done; then the work ends.
#pragma once

#include <string>
#include <vector>

namespace capstan::controller {
class Manager;
}

namespace capstan::plugin {

void add_storage_migration(controller::Manager& mgr, std::string name, std::vector<std::string> crds);

}  // namespace capstan::plugin
