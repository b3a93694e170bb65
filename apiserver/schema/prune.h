// Pruning of unknown fields (apiextensions pkg/apiserver/schema/pruning + objectmeta coercion) and
// the texts kube-apiserver uses to report them for fieldValidation=Strict|Warn.
#pragma once

#include "apiserver/schema/model.h"
#include "runtime/json/json.h"

#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::schema {

// Removes members the schema does not specify, except under x-kubernetes-preserve-unknown-fields
// (where declared properties are still pruned recursively). Returns the removed paths in the form
// and order kube-apiserver reports them ("spec.foo", "spec.items[2].bar").
//
// With is_root = true the object is a whole custom resource, handled like the API server's decoder:
//  1. root `metadata` keeps only ObjectMeta fields (unknown ones reported as "metadata.foo");
//  2. the structural prune skips the root's apiVersion, kind and metadata (sorted paths);
//  3. every x-kubernetes-embedded-resource object keeps apiVersion/kind/metadata, and its metadata
//     keeps only ObjectMeta fields ("spec.template.metadata.foo", sorted).
// With is_root = false only the structural prune runs (embedded resources still keep their
// apiVersion/kind/metadata untouched).
std::vector<std::string> prune(json::Value& obj, const Schema& schema, bool is_root);

// Keeps only ObjectMeta fields of a metadata object and drops known fields of the wrong type;
// returns the unknown field paths relative to the metadata ("foo", "ownerReferences[0].bar").
std::vector<std::string> prune_object_meta(json::Value& metadata);

// What the decoder does to a custom resource before validation: prune (root), drop non-nullable
// nulls without defaults, apply defaults. Returns the unknown field paths (for Strict/Warn).
std::vector<std::string> prune_and_default(json::Value& obj, const Schema& schema);

// `unknown field "spec.foo"` (one warning per path for fieldValidation=Warn; kube-apiserver sends
// each as a `Warning: 299 - "<text>"` header).
std::string unknown_field_message(std::string_view path);
std::vector<std::string> unknown_field_warnings(const std::vector<std::string>& paths);

// runtime.NewStrictDecodingError(...).Error():
//   strict decoding error: unknown field "spec.foo", unknown field "spec.bar"
// (the 400 message for PATCH with fieldValidation=Strict).
std::string strict_decoding_error(const std::vector<std::string>& paths);
// The same from whole error texts (`unknown field "a"`, `duplicate field "b"`).
std::string strict_decoding_error_of(const std::vector<std::string>& errors);

// The 400 message for POST/PUT with fieldValidation=Strict (handlers' transformDecodeError):
//   Certificate in version "v1" cannot be handled as a Certificate: strict decoding error: unknown field "spec.foo"
std::string strict_decoding_error_for_object(std::string_view kind, std::string_view version,
                                             const std::vector<std::string>& paths);

}  // namespace capstan::apiserver::schema
