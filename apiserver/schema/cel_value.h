// A custom resource's JSON as its CEL rules see it (apiextensions' UnstructuredToVal over the
// schema's DeclType): integer fields are int, number fields double (even when written as 1),
// date-time strings timestamps and duration strings durations, objects with properties expose
// only their declared properties under escaped names (a-b -> a__dash__b, namespace ->
// __namespace__), maps (additionalProperties) keep their keys, and a resource root or embedded
// resource exposes apiVersion, kind and metadata.name/generateName only.
#pragma once

#include "apiserver/schema/model.h"
#include "runtime/cel/value.h"

#include <optional>
#include <string>

namespace capstan::apiserver::schema {

cel::Value to_cel_value(const json::Value& v, const Schema* s, bool is_resource_root);

// The CEL field name of a property (cel.Escape), or nullopt when it cannot be expressed.
std::optional<std::string> escape_property_name(std::string_view name);

}  // namespace capstan::apiserver::schema
