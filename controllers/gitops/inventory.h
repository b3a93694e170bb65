// A Kustomization's inventory: the objects its last successful reconcile applied, kept in
// status.inventory.entries as Flux keeps them ({id: "<namespace>_<name>_<group>_<kind>",
// v: "<version>"}). Prune deletes what the previous inventory has and the new one lacks.
#pragma once

#include "apis/gitops/v1/types.h"
#include "runtime/meta/gvk.h"

#include <optional>
#include <string>
#include <vector>

namespace capstan::gitops {

namespace v1 = apis::gitops::v1;

struct InventoryEntry {
  std::string ns;  // "" for cluster-scoped objects
  std::string name;
  std::string group;
  std::string kind;
  std::string version;

  std::string id() const;
  meta::GroupVersionKind gvk() const { return {group, version, kind}; }
  // "Deployment/shop/web", "Namespace/shop": how logs, events and messages name it.
  std::string display() const;
  // Entries parsed from an id; false when `id` is not four '_'-separated fields.
  static bool parse(std::string_view id, std::string_view version, InventoryEntry& out);
};

// The entries of a Kustomization's status.inventory (malformed entries skipped).
std::vector<InventoryEntry> read_inventory(const std::optional<v1::ResourceInventory>& inventory);
// The inventory of `entries`, sorted by id.
v1::ResourceInventory to_inventory(std::vector<InventoryEntry> entries);
// Entries of `before` whose id is not in `after`.
std::vector<InventoryEntry> removed_entries(const std::vector<InventoryEntry>& before, const std::vector<InventoryEntry>& after);

}  // namespace capstan::gitops
