#include "apiserver/table/converter.h"

#include "apiserver/table/printer_util.h"

namespace capstan::apiserver::table {

// metav1.ObjectMeta{}.SwaggerDoc() as compiled into Kubernetes 1.32.
const char* const kNameDescription =
    "Name must be unique within a namespace. Is required when creating resources, although some resources may "
    "allow a client to request the generation of an appropriate name automatically. Name is primarily intended "
    "for creation idempotence and configuration definition. Cannot be updated. More info: "
    "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
const char* const kCreationTimestampDescription =
    "CreationTimestamp is a timestamp representing the server time when this object was created. It is not "
    "guaranteed to be set in happens-before order across separate operations. Clients may not set this value. "
    "It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. "
    "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

json::Value ColumnDefinition::to_json() const {
  json::Object o;
  o["name"] = name;
  o["type"] = type;
  o["format"] = format;
  o["description"] = description;
  o["priority"] = priority;
  return o;
}

ColumnDefinition name_column() { return {"Name", "string", "name", kNameDescription, 0}; }

DefaultConverter::DefaultConverter()
    : columns_{name_column(), {"Created At", "date", "", kCreationTimestampDescription, 0}} {}

Row DefaultConverter::row(const json::Value& obj, meta::TimePoint) const {
  Row r;
  r.cells.emplace_back(json::get_string(obj, {"metadata", "name"}));
  r.cells.emplace_back(created_at(obj));
  return r;
}

const Converter& default_converter() {
  static const DefaultConverter c;
  return c;
}

}  // namespace capstan::apiserver::table
