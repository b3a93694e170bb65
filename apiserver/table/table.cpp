#include "apiserver/table/table.h"

namespace capstan::apiserver::table {

std::optional<IncludeObject> parse_include_object(std::string_view value) {
  if (value.empty() || value == "Metadata") return IncludeObject::Metadata;
  if (value == "None") return IncludeObject::None;
  if (value == "Object") return IncludeObject::Object;
  return std::nullopt;
}

ListMeta ListMeta::of_list(const json::Value& list) {
  ListMeta m;
  m.resource_version = std::string(json::get_string(list, {"metadata", "resourceVersion"}));
  m.continue_token = std::string(json::get_string(list, {"metadata", "continue"}));
  m.remaining_item_count = json::get_int(list, {"metadata", "remainingItemCount"});
  return m;
}

ListMeta ListMeta::of_object(const json::Value& obj) {
  ListMeta m;
  m.resource_version = std::string(json::get_string(obj, {"metadata", "resourceVersion"}));
  return m;
}

json::Value ListMeta::to_json() const {
  json::Object o;
  if (!resource_version.empty()) o["resourceVersion"] = resource_version;
  if (!continue_token.empty()) o["continue"] = continue_token;
  if (remaining_item_count) o["remainingItemCount"] = *remaining_item_count;
  return o;
}

json::Value partial_object_metadata(const json::Value& obj, std::string_view api_version) {
  json::Object o;
  o["kind"] = "PartialObjectMetadata";
  o["apiVersion"] = api_version;
  const auto* md = json::get_object(obj, {"metadata"});
  o["metadata"] = md ? json::Value(*md) : json::Value(json::Object{});
  return o;
}

json::Value row_object(const json::Value& obj, IncludeObject include, std::string_view api_version) {
  switch (include) {
    case IncludeObject::None: return nullptr;
    case IncludeObject::Metadata: return partial_object_metadata(obj, api_version);
    case IncludeObject::Object: return obj;
  }
  return nullptr;
}

namespace {

json::Value row_json(const Row& row, const json::Value* obj, const TableOptions& options) {
  json::Object r;
  r["cells"] = row.cells;
  if (!row.conditions.empty()) {
    json::Array conds;
    for (const auto& c : row.conditions) {
      json::Object co;
      co["type"] = c.type;
      co["status"] = c.status;
      if (!c.reason.empty()) co["reason"] = c.reason;
      if (!c.message.empty()) co["message"] = c.message;
      conds.push_back(std::move(co));
    }
    r["conditions"] = std::move(conds);
  }
  r["object"] = obj ? row_object(*obj, options.include, options.api_version) : json::Value(nullptr);
  return r;
}

}  // namespace

json::Value build_table(const std::vector<ColumnDefinition>& columns, const std::vector<Row>& rows,
                        const std::vector<const json::Value*>& objects, const TableOptions& options,
                        const ListMeta& list_meta) {
  json::Object t;
  t["kind"] = "Table";
  t["apiVersion"] = options.api_version;
  t["metadata"] = list_meta.to_json();
  if (options.no_headers) {
    t["columnDefinitions"] = nullptr;
  } else {
    json::Array defs;
    for (const auto& c : columns) defs.push_back(c.to_json());
    t["columnDefinitions"] = std::move(defs);
  }
  json::Array out_rows;
  out_rows.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    out_rows.push_back(row_json(rows[i], i < objects.size() ? objects[i] : nullptr, options));
  t["rows"] = std::move(out_rows);
  return t;
}

json::Value build_table(const Converter& converter, const std::vector<const json::Value*>& objects,
                        const TableOptions& options, const ListMeta& list_meta) {
  std::vector<Row> rows;
  rows.reserve(objects.size());
  for (const auto* o : objects) rows.push_back(converter.row(*o, options.now));
  return build_table(converter.columns(), rows, objects, options, list_meta);
}

json::Value build_table(const Converter& converter, const json::Array& items, const TableOptions& options,
                        const ListMeta& list_meta) {
  std::vector<const json::Value*> objects;
  objects.reserve(items.size());
  for (const auto& i : items) objects.push_back(&i);
  return build_table(converter, objects, options, list_meta);
}

json::Value table_for(const Converter& converter, const json::Value& list_or_object, const TableOptions& options) {
  if (const auto* items = json::get_array(list_or_object, {"items"}))
    return build_table(converter, *items, options, ListMeta::of_list(list_or_object));
  return build_table(converter, std::vector<const json::Value*>{&list_or_object}, options,
                     ListMeta::of_object(list_or_object));
}

json::Value watch_event_table(const Converter& converter, const json::Value& obj, const TableOptions& options) {
  return build_table(converter, std::vector<const json::Value*>{&obj}, options, ListMeta::of_object(obj));
}

json::Value WatchTableEncoder::next(const json::Value& obj, std::optional<meta::TimePoint> now) {
  if (now) options_.now = *now;
  json::Value t = watch_event_table(converter_, obj, options_);
  options_.no_headers = true;
  return t;
}

}  // namespace capstan::apiserver::table
