// /openapi/v2: one Swagger 2.0 document with the definitions of every served kind, made from the
// OpenAPI v3 component schemas of the per-group-version documents, and its protobuf form
// (gnostic's openapi_v2.Document, what kubectl asks for).
#pragma once

#include "runtime/json/json.h"

#include <string>

namespace capstan::apiserver::swagger {

// kube-openapi answers Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf with this
// Content-Type ('@' is no media-type token character: clients' mime parsers refuse it).
inline constexpr std::string_view kProtobufContentType = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

// One v3 schema as Swagger 2.0 has it: references "#/definitions/NAME" (a one-element allOf around
// a $ref becomes the $ref), no nullable/oneOf/anyOf/not; an IntOrString or Quantity oneOf becomes
// kube-openapi's v2 form (type string, format int-or-string).
json::Value to_v2_schema(const json::Value& v3);

// {"swagger":"2.0","info":{...},"paths":{},"definitions":{...}} from components.schemas objects.
json::Value document(const json::Object& v3_schemas);

// The protobuf encoding of a Swagger 2.0 document (openapi.v2.Document). Extension, default,
// enum and example values are carried as Any.yaml holding their JSON text (valid YAML).
std::string to_protobuf(const json::Value& doc);

}  // namespace capstan::apiserver::swagger
