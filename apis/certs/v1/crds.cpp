#include "apis/certs/v1/crds.h"

#include "apis/certs/v1/group.h"
#include "apis/certs/v1/openapi.h"

#include <initializer_list>
#include <string>

namespace capstan::apis::certs::v1 {
namespace {

struct Column {
  std::string_view name;
  std::string_view type;
  std::string_view json_path;
  int priority = 0;
  std::string_view description = {};
};

constexpr std::string_view kAgeDescription =
    "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed "
    "to be set in happens-before order across separate operations. Clients may not set this value. It is represented "
    "in RFC3339 form and is in UTC.";

Column ready_column() { return {"Ready", "string", R"(.status.conditions[?(@.type == "Ready")].status)"}; }
Column status_column() { return {"Status", "string", R"(.status.conditions[?(@.type == "Ready")].message)", 1}; }
Column age_column() { return {"Age", "date", ".metadata.creationTimestamp", 0, kAgeDescription}; }

struct Names {
  std::string_view kind;
  std::string_view plural;
  std::string_view singular;
  std::initializer_list<std::string_view> short_names;
};

json::Array strings(std::initializer_list<std::string_view> list) {
  json::Array a;
  for (auto s : list) a.emplace_back(s);
  return a;
}

json::Value crd(const Names& names, bool namespaced, json::Value schema, std::initializer_list<Column> columns,
                json::Array selectable_fields = {}) {
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
  version["name"] = kVersion;
  version["served"] = true;
  version["storage"] = true;
  json::Object schema_holder;
  schema_holder["openAPIV3Schema"] = std::move(schema);
  version["schema"] = std::move(schema_holder);
  version["subresources"] = json::Object{{"status", json::Object()}};
  version["additionalPrinterColumns"] = std::move(cols);
  if (!selectable_fields.empty()) version["selectableFields"] = std::move(selectable_fields);

  json::Object spec;
  spec["group"] = kGroup;
  spec["names"] = std::move(n);
  spec["scope"] = namespaced ? "Namespaced" : "Cluster";
  json::Array versions;
  versions.push_back(std::move(version));
  spec["versions"] = std::move(versions);

  json::Object metadata;
  metadata["name"] = std::string(names.plural) + "." + std::string(kGroup);
  metadata["labels"] = json::Object{{"app.kubernetes.io/name", "capstan"}, {"app.kubernetes.io/part-of", "capstan"}};

  json::Object o;
  o["apiVersion"] = "apiextensions.k8s.io/v1";
  o["kind"] = "CustomResourceDefinition";
  o["metadata"] = std::move(metadata);
  o["spec"] = std::move(spec);
  return o;
}

}  // namespace

json::Value certificate_crd() {
  // cert-manager lets `kubectl get certificates --field-selector spec.issuerRef.name=x` work.
  json::Array selectable;
  for (auto path : {".spec.issuerRef.group", ".spec.issuerRef.kind", ".spec.issuerRef.name"})
  {
    json::Object field;
    field["jsonPath"] = path;
    selectable.push_back(std::move(field));
  }
  return crd({kCertificateKind, "certificates", "certificate", {"cert", "certs"}}, true, certificate_schema(),
             {ready_column(),
              {"Secret", "string", ".spec.secretName"},
              {"Issuer", "string", ".spec.issuerRef.name", 1},
              status_column(),
              {"Expiration", "string", ".status.notAfter", 1},
              age_column()},
             std::move(selectable));
}

json::Value certificate_request_crd() {
  return crd({kCertificateRequestKind, "certificaterequests", "certificaterequest", {"cr", "crs"}}, true,
             certificate_request_schema(),
             {{"Approved", "string", R"(.status.conditions[?(@.type == "Approved")].status)"},
              {"Denied", "string", R"(.status.conditions[?(@.type == "Denied")].status)"},
              ready_column(),
              {"Issuer", "string", ".spec.issuerRef.name"},
              {"Requester", "string", ".spec.username"},
              status_column(),
              age_column()});
}

json::Value issuer_crd() {
  return crd({kIssuerKind, "issuers", "issuer", {"iss"}}, true, issuer_schema(false),
             {ready_column(), status_column(), age_column()});
}

json::Value cluster_issuer_crd() {
  return crd({kClusterIssuerKind, "clusterissuers", "clusterissuer", {"ciss"}}, false, issuer_schema(true),
             {ready_column(), status_column(), age_column()});
}

std::vector<json::Value> crds() { return {certificate_crd(), certificate_request_crd(), issuer_crd(), cluster_issuer_crd()}; }

}  // namespace capstan::apis::certs::v1
