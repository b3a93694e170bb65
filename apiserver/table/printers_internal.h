// Shared plumbing of the built-in printers (builtin_*.cpp); not part of the public API.
#pragma once

#include "apiserver/table/converter.h"
#include "apiserver/table/printer_util.h"

#include <string>
#include <utility>
#include <vector>

namespace capstan::apiserver::table::printers {

using RowFn = Row (*)(const json::Value& obj, meta::TimePoint now);

class FnConverter final : public Converter {
 public:
  FnConverter(std::vector<ColumnDefinition> columns, RowFn fn) : columns_(std::move(columns)), fn_(fn) {}
  const std::vector<ColumnDefinition>& columns() const override { return columns_; }
  Row row(const json::Value& obj, meta::TimePoint now) const override { return fn_(obj, now); }

 private:
  std::vector<ColumnDefinition> columns_;
  RowFn fn_;
};

struct Entry {
  std::string group;
  std::string resource;
  FnConverter converter;
};

void add_core(std::vector<Entry>& out);
void add_workloads(std::vector<Entry>& out);  // apps, batch
void add_others(std::vector<Entry>& out);     // policy, coordination, discovery, networking, rbac, admission
void add_nodes(std::vector<Entry>& out);      // nodes, controllerrevisions

// A column of type `type` (no format).
inline ColumnDefinition column(std::string name, std::string type, std::string description, std::int32_t priority = 0) {
  return {std::move(name), std::move(type), "", std::move(description), priority};
}
inline ColumnDefinition age_column() { return column("Age", "string", kCreationTimestampDescription); }

inline const char* const kContainersDescription = "Names of each container in the template.";
inline const char* const kImagesDescription = "Images referenced by each container in the template.";

// Row with the name cell already in place.
inline Row named_row(const json::Value& obj) {
  Row r;
  r.cells.emplace_back(json::get_string(obj, {"metadata", "name"}));
  return r;
}

inline std::string or_default(std::string s, std::string_view fallback) {
  return s.empty() ? std::string(fallback) : s;
}

// An optional string field (a Go *string): its value, "<unset>" when absent.
inline std::string str_or_unset(const json::Value& obj, json::Path path) {
  const auto* v = json::find(obj, path);
  return v && v->is_string() ? std::string(v->get_string()) : "<unset>";
}

// Cluster-scoped configuration: persistentvolumes, storageclasses (builtin_storage.cpp).
void add_storage(std::vector<Entry>& out);
// horizontalpodautoscalers (builtin_autoscaling.cpp).
void add_autoscaling(std::vector<Entry>& out);

}  // namespace capstan::apiserver::table::printers
