// Assembles a CustomResourceDefinition (apiextensions.k8s.io/v1) of one served, stored version
// from a kind's names, its OpenAPI schema (openapi.h) and its printer columns, the way
// controller-gen writes them: status subresource, category "capstan", Capstan's labels.
//
//   json::Value crd = apis::make_crd({"certs.capstan.dev", "v1"},
//                                    {"Issuer", "issuers", "issuer", {"iss"}}, /*namespaced=*/true,
//                                    Issuer::schema(false).json(), {apis::ready_column(), apis::age_column()});
#pragma once

#include "runtime/json/json.h"

#include <initializer_list>
#include <string_view>

namespace capstan::apis {

struct CrdGroupVersion {
  std::string_view group;
  std::string_view version;
};

struct CrdNames {
  std::string_view kind;
  std::string_view plural;
  std::string_view singular;
  std::initializer_list<std::string_view> short_names;
};

struct PrinterColumn {
  std::string_view name;
  std::string_view type;
  std::string_view json_path;
  int priority = 0;
  std::string_view description = {};
};

// The Ready condition's status, its message (priority 1 = `-o wide`), and Age.
PrinterColumn ready_column();
PrinterColumn ready_message_column(int priority = 1);
PrinterColumn age_column();

// `selectable_fields`: JSON paths `kubectl get --field-selector` may use.
json::Value make_crd(const CrdGroupVersion& gv, const CrdNames& names, bool namespaced, json::Value schema,
                     std::initializer_list<PrinterColumn> columns,
                     std::initializer_list<std::string_view> selectable_fields = {});

// Adds `version` to `crd` (made by make_crd), served and not stored, with its own `schema` and
// the stored version's printer columns and subresources; a non-empty `deprecation_warning`
// marks it deprecated (kubectl prints the warning on every request at that version).
void add_served_version(json::Value& crd, std::string_view version, json::Value schema, std::string_view deprecation_warning = {});

// Adds the scale subresource (kubectl scale, HorizontalPodAutoscaler) to `crd`'s version.
void add_scale_subresource(json::Value& crd, std::string_view spec_replicas_path, std::string_view status_replicas_path,
                           std::string_view label_selector_path);

}  // namespace capstan::apis
