// Field selectors (?fieldSelector=): which fields each resource lets clients select on, their
// values for an object, and kube-apiserver's errors for the others. Kinds that register
// field label conversions (pods, nodes, services, ...) refuse an unknown field with "field
// label not supported: X"; every other built-in kind allows only metadata.name and
// metadata.namespace with apimachinery's default message; custom resources as the
// apiextensions converter does.
#pragma once

#include "apiserver/registry/resource.h"
#include "runtime/json/json.h"
#include "runtime/meta/selector.h"

#include <optional>
#include <string>
#include <string_view>

namespace capstan::apiserver::rest {

// The value of selectable field `field` of `obj`, or nullopt when `r` does not support it.
std::optional<std::string> field_value(const registry::ResourceInfo& r, const json::Value& obj, std::string_view field);

// Throws ApiError 400 for the first term `r` does not support.
void check_field_labels(const registry::ResourceInfo& r, const meta::FieldSelector& selector);

}  // namespace capstan::apiserver::rest
