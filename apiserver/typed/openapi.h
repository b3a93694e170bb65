// The OpenAPI v3 component schemas of built-in kinds, generated from the schema tables with
// kube-openapi's names ("io.k8s.api.apps.v1.Deployment") and shapes: references through a
// one-element allOf, formats int32/int64/double/byte/date-time, IntOrString and Quantity as oneOf
// (so `kubectl explain` prints <IntOrString>), x-kubernetes-group-version-kind on each kind, and the
// list and strategic-merge extensions (x-kubernetes-list-type, x-kubernetes-patch-merge-key, ...)
// from the list-type table that client-side apply reads. Descriptions are left out: the tables
// carry none.
#pragma once

#include "apiserver/protobuf/schema.h"
#include "runtime/json/json.h"

#include <string>
#include <string_view>

namespace capstan::apiserver::typed {

// kube-openapi's definition name of a message: k8s.io.api.core.v1.Pod -> io.k8s.api.core.v1.Pod.
std::string definition_name(const protobuf::schema::Message& m);

// Adds the schemas of `kind` (served as group/version) and of its list kind, and every schema they
// reach, to `schemas` (a components.schemas object). Returns false when no table describes the kind.
bool add_kind_schemas(json::Object& schemas, std::string_view group, std::string_view version, std::string_view kind);

// Adds ObjectMeta (with every schema it reaches) and ListMeta, which the components of a custom
// resource reference.
void add_meta_schemas(json::Object& schemas);

}  // namespace capstan::apiserver::typed
