#include "apiserver/table/crd_columns.h"

#include "apiserver/table/printer_util.h"

#include <cmath>

namespace capstan::apiserver::table {

PrinterColumn PrinterColumn::from_json(const json::Value& v) {
  PrinterColumn c;
  c.name = std::string(json::get_string(v, {"name"}));
  c.type = std::string(json::get_string(v, {"type"}));
  c.format = std::string(json::get_string(v, {"format"}));
  c.description = std::string(json::get_string(v, {"description"}));
  c.priority = static_cast<std::int32_t>(json::get_int(v, {"priority"}).value_or(0));
  c.json_path = std::string(json::get_string(v, {"jsonPath"}));
  if (c.json_path.empty()) c.json_path = std::string(json::get_string(v, {"JSONPath"}));
  return c;
}

PrinterColumn default_age_column() {
  PrinterColumn c;
  c.name = "Age";
  c.type = "date";
  c.description = kCreationTimestampDescription;
  c.json_path = ".metadata.creationTimestamp";
  return c;
}

namespace {

const json::Value* find_version(const json::Value& crd, std::string_view version) {
  if (const auto* versions = json::get_array(crd, {"spec", "versions"}))
    for (const auto& v : *versions)
      if (json::get_string(v, {"name"}) == version) return &v;
  return nullptr;
}

std::vector<PrinterColumn> read_columns(const json::Array* cols) {
  std::vector<PrinterColumn> out;
  if (cols)
    for (const auto& c : *cols) out.push_back(PrinterColumn::from_json(c));
  return out;
}

}  // namespace

std::vector<PrinterColumn> printer_columns_for_version(const json::Value& crd, std::string_view version) {
  std::vector<PrinterColumn> cols;
  if (const auto* v = find_version(crd, version)) cols = read_columns(json::get_array(*v, {"additionalPrinterColumns"}));
  if (cols.empty()) cols = read_columns(json::get_array(crd, {"spec", "additionalPrinterColumns"}));
  if (cols.empty()) cols.push_back(default_age_column());
  return cols;
}

std::vector<PrinterColumn> scale_columns_for_version(const json::Value& crd, std::string_view version) {
  std::vector<PrinterColumn> cols;
  if (const auto* v = find_version(crd, version)) {
    if (const auto* scale = json::get_object(*v, {"subresources", "scale"})) {
      json::Value s(*scale);
      if (!json::get_string(s, {"specReplicasPath"}).empty())
        cols.push_back({"Desired", "integer", "", "Number of desired replicas", 0, ".spec.replicas"});
      if (!json::get_string(s, {"statusReplicasPath"}).empty())
        cols.push_back({"Available", "integer", "", "Number of actual replicas", 0, ".status.replicas"});
    }
  }
  cols.push_back(default_age_column());
  return cols;
}

CrdConverter::CrdConverter(const std::vector<PrinterColumn>& columns) {
  columns_.push_back(name_column());
  for (const auto& col : columns) {
    try {
      auto path = JsonPath::parse_column(col.json_path);
      path.allow_missing_keys(true);
      paths_.push_back(std::move(path));
    } catch (const JsonPathError&) {
      error_ = "unrecognized column definition \"" + col.json_path + "\"";
      return;
    }
    std::string desc = col.description.empty()
                           ? "Custom resource definition column (in JSONPath format): " + col.json_path
                           : col.description;
    columns_.push_back({col.name, col.type, col.format, std::move(desc), col.priority});
  }
}

CrdConverter CrdConverter::for_version(const json::Value& crd, std::string_view version) {
  return CrdConverter(printer_columns_for_version(crd, version));
}

namespace {

// Go encodes an integral float64 without a fraction ("3", not "3.0"); keep that wire shape.
json::Value number_value(double d) {
  if (std::isfinite(d) && d == std::trunc(d) && std::fabs(d) < 1e15) return static_cast<std::int64_t>(d);
  return d;
}

}  // namespace

json::Value typed_cell(std::string_view type, const json::Value& value, meta::TimePoint now) {
  if (value.is_null()) return nullptr;
  if (type == "integer") {
    if (value.is_int64()) return value.get_int64();
    if (value.is_uint64()) return static_cast<std::int64_t>(value.get_uint64());
    if (value.is_double()) {
      double d = value.get_double();
      if (!std::isfinite(d) || std::fabs(d) >= 9.2e18) return static_cast<std::int64_t>(INT64_MIN);
      return static_cast<std::int64_t>(d);
    }
    return nullptr;
  }
  if (type == "number") {
    if (value.is_int64()) return number_value(static_cast<double>(value.get_int64()));
    if (value.is_uint64()) return number_value(static_cast<double>(value.get_uint64()));
    if (value.is_double()) return number_value(value.get_double());
    return nullptr;
  }
  if (type == "boolean") {
    if (value.is_bool()) return value.get_bool();
    return nullptr;
  }
  if (type == "string") {
    if (value.is_string()) return value;
    return nullptr;
  }
  if (type == "date") {
    if (!value.is_string()) return nullptr;
    std::string_view s = value.get_string();
    if (s.empty() || s == "null") return "<unknown>";
    auto t = meta::parse_rfc3339(s);
    if (!t) return "<invalid>";
    return json::Value(go_human_duration(std::chrono::duration_cast<std::chrono::nanoseconds>(now - *t)));
  }
  return nullptr;
}

Row CrdConverter::row(const json::Value& obj, meta::TimePoint now) const {
  Row r;
  r.cells.emplace_back(json::get_string(obj, {"metadata", "name"}));
  for (std::size_t i = 0; i < paths_.size(); ++i) {
    const ColumnDefinition& col = columns_[i + 1];
    JsonPathResults res;
    try {
      res = paths_[i].find_results(obj);
    } catch (const JsonPathError&) {
      r.cells.emplace_back(nullptr);
      continue;
    }
    if (res.groups.empty() || res.groups[0].empty()) {
      r.cells.emplace_back(nullptr);
      continue;
    }
    const json::Value& value = *res.groups[0][0];
    if (col.type == "string") {
      // PrintResults of reflect.ValueOf(nil) prints "<no value>".
      r.cells.emplace_back(value.is_null() ? std::string("<no value>") : print_value(value));
    } else {
      r.cells.push_back(typed_cell(col.type, value, now));
    }
  }
  return r;
}

}  // namespace capstan::apiserver::table
