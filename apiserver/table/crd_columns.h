// Tables for custom resources, as apiextensions-apiserver's tableconvertor builds them from a CRD
// version's additionalPrinterColumns.
//
// Columns: "Name" first, then one per printer column (description defaulting to
// "Custom resource definition column (in JSONPath format): <jsonPath>"); a version without
// columns gets the single default column Age (.metadata.creationTimestamp, type date).
// Cells, from the first value the column's JSONPath matches (later matches are ignored, as
// upstream does):
//   string  - the value printed as client-go's jsonpath prints it (numbers as text, objects and
//             arrays as JSON, null as "<no value>");
//   integer - integers as is, floats truncated; anything else null;
//   number  - integers and floats as numbers; anything else null;
//   boolean - booleans; anything else null;
//   date    - a string timestamp as its age ("5m"), "<unknown>" when empty, "<invalid>" when
//             unparseable; anything else null.
// A path that matches nothing, or whose evaluation fails (index out of range, ...), gives null.
#pragma once

#include "apiserver/table/converter.h"
#include "apiserver/table/jsonpath.h"
#include "runtime/json/json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::table {

// apiextensions.k8s.io/v1 CustomResourceColumnDefinition.
struct PrinterColumn {
  std::string name;
  std::string type;  // integer | number | string | boolean | date
  std::string format;
  std::string description;
  std::int32_t priority = 0;
  std::string json_path;

  // Reads a column object; accepts "jsonPath" (v1) and "JSONPath" (v1beta1).
  static PrinterColumn from_json(const json::Value& v);
};

// The columns a CRD serves for `version`: spec.versions[name=version].additionalPrinterColumns,
// else the v1beta1-style spec.additionalPrinterColumns, else the default Age column.
std::vector<PrinterColumn> printer_columns_for_version(const json::Value& crd, std::string_view version);
// The Age column kube-apiserver adds when a version declares none.
PrinterColumn default_age_column();
// Columns of the /scale subresource's table: Desired/Available when the version has a scale
// subresource with spec/status replicas paths, then Age.
std::vector<PrinterColumn> scale_columns_for_version(const json::Value& crd, std::string_view version);

class CrdConverter final : public Converter {
 public:
  // An empty list is used as is (only Name); printer_columns_for_version() supplies the Age default.
  explicit CrdConverter(const std::vector<PrinterColumn>& columns);
  // Shorthand: CrdConverter(printer_columns_for_version(crd, version)).
  static CrdConverter for_version(const json::Value& crd, std::string_view version);

  const std::vector<ColumnDefinition>& columns() const override { return columns_; }
  Row row(const json::Value& obj, meta::TimePoint now) const override;

  // Set when a column's JSONPath does not parse. Like kube-apiserver, the converter then keeps
  // the columns before the bad one and drops it and every later column.
  const std::optional<std::string>& error() const { return error_; }

 private:
  std::vector<ColumnDefinition> columns_;
  std::vector<JsonPath> paths_;  // one per column after Name
  std::optional<std::string> error_;
};

// cellForJSONValue for the non-string types (integer, number, boolean, date).
json::Value typed_cell(std::string_view type, const json::Value& value, meta::TimePoint now);

}  // namespace capstan::apiserver::table
