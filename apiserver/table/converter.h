// The pieces every table converter shares: column definitions (metav1.TableColumnDefinition),
// rows (cells + conditions), the Converter interface and upstream's default converter.
#pragma once

#include "runtime/json/json.h"
#include "runtime/meta/time.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::table {

// metav1.TableColumnDefinition. `type` is an OpenAPI type (string, integer, number, boolean) or
// "date"; `format` e.g. "name"; priority > 0 marks columns kubectl shows only with -o wide.
struct ColumnDefinition {
  std::string name;
  std::string type;
  std::string format;
  std::string description;
  std::int32_t priority = 0;

  // All five members, always present (none is omitempty upstream).
  json::Value to_json() const;
};

// metav1.TableRowCondition (pods mark themselves Completed).
struct RowCondition {
  std::string type;
  std::string status;
  std::string reason;
  std::string message;
};

struct Row {
  json::Array cells;  // one per column definition
  std::vector<RowCondition> conditions;
};

// Turns objects of one resource into table rows. Converters are stateless and thread-safe.
class Converter {
 public:
  virtual ~Converter() = default;
  virtual const std::vector<ColumnDefinition>& columns() const = 0;
  // `obj` is a single object (a list's item), as stored; `now` anchors the ages.
  virtual Row row(const json::Value& obj, meta::TimePoint now) const = 0;
};

// ObjectMeta's swagger descriptions, used by nearly every table.
extern const char* const kNameDescription;               // metadata.name
extern const char* const kCreationTimestampDescription;  // metadata.creationTimestamp

// {"name":"Name","type":"string","format":"name","description":kNameDescription,"priority":0}
ColumnDefinition name_column();

// Upstream's default table convertor (k8s.io/apiserver rest.NewDefaultTableConvertor), used for
// types without a printer (Roles, ClusterRoles, CustomResourceDefinitions, ...): columns Name and
// "Created At" (date) whose cell is the RFC 3339 creation timestamp in UTC.
class DefaultConverter final : public Converter {
 public:
  DefaultConverter();
  const std::vector<ColumnDefinition>& columns() const override { return columns_; }
  Row row(const json::Value& obj, meta::TimePoint now) const override;

 private:
  std::vector<ColumnDefinition> columns_;
};

const Converter& default_converter();

}  // namespace capstan::apiserver::table
