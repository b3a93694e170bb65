#include "controllers/gitops/inventory.h"

#include <algorithm>
#include <set>

namespace capstan::gitops {

std::string InventoryEntry::id() const { return ns + "_" + name + "_" + group + "_" + kind; }

std::string InventoryEntry::display() const { return kind + "/" + (ns.empty() ? "" : ns + "/") + name; }

bool InventoryEntry::parse(std::string_view id, std::string_view version, InventoryEntry& out) {
  // Namespaces, names and groups are DNS names and kinds identifiers: none holds a '_'.
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    std::size_t end = id.find('_', start);
    parts.emplace_back(id.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  if (parts.size() != 4 || parts[1].empty() || parts[3].empty() || version.empty()) return false;
  out = {parts[0], parts[1], parts[2], parts[3], std::string(version)};
  return true;
}

std::vector<InventoryEntry> read_inventory(const std::optional<v1::ResourceInventory>& inventory) {
  std::vector<InventoryEntry> out;
  if (!inventory) return out;
  for (const auto& e : inventory->entries) {
    InventoryEntry entry;
    if (InventoryEntry::parse(e.id, e.v, entry)) out.push_back(std::move(entry));
  }
  return out;
}

v1::ResourceInventory to_inventory(std::vector<InventoryEntry> entries) {
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.id() < b.id(); });
  v1::ResourceInventory inventory;
  for (const auto& e : entries) inventory.entries.push_back({e.id(), e.version});
  return inventory;
}

std::vector<InventoryEntry> removed_entries(const std::vector<InventoryEntry>& before, const std::vector<InventoryEntry>& after) {
  std::set<std::string> kept;
  for (const auto& e : after) kept.insert(e.id());
  std::vector<InventoryEntry> out;
  for (const auto& e : before)
    if (!kept.contains(e.id())) out.push_back(e);
  return out;
}

}  // namespace capstan::gitops
