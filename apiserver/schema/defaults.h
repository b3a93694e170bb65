// Defaulting as apiextensions-apiserver does it (pkg/apiserver/schema/defaulting). kube-apiserver
// runs it after pruning whenever a custom resource is decoded: on create/update/patch requests and
// on every read from storage, so objects stored before a default was added gain it when read.
#pragma once

#include "apiserver/schema/model.h"
#include "runtime/json/json.h"

namespace capstan::apiserver::schema {

// defaulting.Default: for every object, each property with a default that is absent, or present
// as null while the property is not nullable, gets a deep copy of the default; then it recurses
// into all members (including the defaulted values, so nested defaults inside a default apply).
// Array items and additionalProperties values that are null (and not nullable) get the items /
// additionalProperties default. Present values are never overridden; explicit nulls of nullable
// fields are kept.
void apply_defaults(json::Value& obj, const Schema& schema);

// defaulting.PruneNonNullableNullsWithoutDefaults: removes object members that are null although
// their schema is not nullable and has no default (array elements are left alone). Runs between
// pruning and defaulting, so `spec.x: null` on a required non-nullable field reads as missing.
void prune_non_nullable_nulls_without_defaults(json::Value& obj, const Schema& schema);

}  // namespace capstan::apiserver::schema
