#include "apis/common/crd.h"

#include <string>

namespace capstan::apis {
namespace {

constexpr std::string_view kAgeDescription =
    "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed "
    "to be set in happens-before order across separate operations. Clients may not set this value. It is represented "
    "in RFC3339 form and is in UTC.";

json::Array strings(std::initializer_list<std::string_view> list) {
  json::Array a;
  for (auto s : list) a.emplace_back(s);
  return a;
}

}  // namespace

PrinterColumn ready_column() { return {"Ready", "string", R"(.status.conditions[?(@.type == "Ready")].status)"}; }
PrinterColumn ready_message_column(int priority) {
  return {"Status", "string", R"(.status.conditions[?(@.type == "Ready")].message)", priority};
}
PrinterColumn age_column() { return {"Age", "date", ".metadata.creationTimestamp", 0, kAgeDescription}; }

json::Value make_crd(const CrdGroupVersion& gv, const CrdNames& names, bool namespaced, json::Value schema,
                     std::initializer_list<PrinterColumn> columns, std::initializer_list<std::string_view> selectable_fields) {
  json::Object n;
  n["kind"] = names.kind;
  n["listKind"] = std::string(names.kind) + "List";
  n["plural"] = names.plural;
  n["singular"] = names.singular;
  n["shortNames"] = strings(names.short_names);
  n["categories"] = strings({"capstan"});

  json::Array cols;
  for (const auto& c : columns) {
    json::Object col;
    col["name"] = c.name;
    col["type"] = c.type;
    col["jsonPath"] = c.json_path;
    if (c.priority) col["priority"] = c.priority;
    if (!c.description.empty()) col["description"] = c.description;
    cols.push_back(std::move(col));
  }

  json::Object version;
  version["name"] = gv.version;
  version["served"] = true;
  version["storage"] = true;
  json::Object schema_holder;
  schema_holder["openAPIV3Schema"] = std::move(schema);
  version["schema"] = std::move(schema_holder);
  version["subresources"] = json::Object{{"status", json::Object()}};
  version["additionalPrinterColumns"] = std::move(cols);
  if (selectable_fields.size() > 0) {
    json::Array selectable;
    for (auto path : selectable_fields) selectable.push_back(json::Object{{"jsonPath", path}});
    version["selectableFields"] = std::move(selectable);
  }

  json::Object spec;
  spec["group"] = gv.group;
  spec["names"] = std::move(n);
  spec["scope"] = namespaced ? "Namespaced" : "Cluster";
  json::Array versions;
  versions.push_back(std::move(version));
  spec["versions"] = std::move(versions);

  json::Object metadata;
  metadata["name"] = std::string(names.plural) + "." + std::string(gv.group);
  metadata["labels"] = json::Object{{"app.kubernetes.io/name", "capstan"}, {"app.kubernetes.io/part-of", "capstan"}};

  json::Object o;
  o["apiVersion"] = "apiextensions.k8s.io/v1";
  o["kind"] = "CustomResourceDefinition";
  o["metadata"] = std::move(metadata);
  o["spec"] = std::move(spec);
  return o;
}

void add_scale_subresource(json::Value& crd, std::string_view spec_replicas_path, std::string_view status_replicas_path,
                           std::string_view label_selector_path) {
  auto& version = crd.at("spec").at("versions").at(0).as_object();
  version["subresources"].as_object()["scale"] = json::Object{{"specReplicasPath", spec_replicas_path},
                                                             {"statusReplicasPath", status_replicas_path},
                                                             {"labelSelectorPath", label_selector_path}};
}

void add_served_version(json::Value& crd, std::string_view version, json::Value schema, std::string_view deprecation_warning) {
  auto& versions = crd.at("spec").at("versions").as_array();
  json::Value v = versions.at(0);
  auto& o = v.as_object();
  o["name"] = version;
  o["storage"] = false;
  o["schema"] = json::Object{{"openAPIV3Schema", std::move(schema)}};
  if (!deprecation_warning.empty()) {
    o["deprecated"] = true;
    o["deprecationWarning"] = deprecation_warning;
  }
  versions.push_back(std::move(v));
}

}  // namespace capstan::apis
