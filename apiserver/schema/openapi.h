// Publishing a CRD version's schema as OpenAPI v3 (what /openapi/v3/apis/<group>/<version> serves
// and `kubectl explain` reads). Kept simple: the structural schema itself, with the root object
// carrying x-kubernetes-group-version-kind and the standard apiVersion/kind/metadata properties.
#pragma once

#include "apiserver/schema/model.h"
#include "runtime/json/json.h"

#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::schema {

// The schema as OpenAPI v3 JSON (keywords in a fixed order, properties sorted by name).
json::Value to_openapi(const Schema& schema);

// kube-openapi ToRESTFriendlyName("<group>/<version>/<kind>"): the group is reversed, e.g.
// certs.capstan.dev/v1/Certificate -> dev.capstan.certs.v1.Certificate.
std::string openapi_component_name(std::string_view group, std::string_view version, std::string_view kind);

// The root schema of a kind as the apiextensions server publishes it: to_openapi(schema) with
// its apiVersion, kind and metadata (a reference to ObjectMeta) properties set whatever the CRD
// declares, those three added to every embedded resource below (x-kubernetes-embedded-resource),
// and "x-kubernetes-group-version-kind":[{group, kind, version}].
json::Value openapi_component(const Schema& schema, std::string_view group, std::string_view version,
                              std::string_view kind);

struct OpenAPIKind {
  std::string kind;
  SchemaPtr schema;
  std::string plural;  // the resource name, which the list's items description names
};

// A whole per-group-version document: {"openapi":"3.0.0","info":{...},"paths":{},
// "components":{"schemas":{<name>: component, <name>List: list component}}}. Paths are left to the
// server, which knows the resource names and verbs.
json::Value openapi_document(std::string_view group, std::string_view version, const std::vector<OpenAPIKind>& kinds);

}  // namespace capstan::apiserver::schema
