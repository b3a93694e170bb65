// Strategic-merge patches as kustomize applies them (kyaml's merge2 with the Kubernetes schema):
//   - maps merge key by key; a null in the patch removes the field;
//   - lists of the built-in kinds merge by their patch merge key where Kubernetes declares one
//     (containers and volumes by name, ports by containerPort or port, env by name, volume mounts
//     by mountPath, ...; the patch's items first, then the others, as kyaml orders them),
//     finalizers merge as a set, every other list is replaced;
//   - lists of other kinds (custom resources, without a schema here or in kustomize) are
//     replaced, maps merged;
//   - directives as kyaml honours them: `$patch: replace` on a map, `{$patch: replace}` in a list
//     merged by key, `$patch: delete` on an item of such a list or on the whole object. Others
//     (`$retainKeys`, `$setElementOrder`, `$deleteFromPrimitiveList`, directives in replaced lists)
//     are refused: kustomize leaves them in the object as fields.
// Throws BuildError (with `where`) for a malformed directive or a list item without its merge key.
#pragma once

#include "runtime/json/json.h"

#include <optional>
#include <string>

namespace capstan::gitops {

// The patched object, or nullopt when the patch deletes it (`$patch: delete` at the top).
std::optional<json::Value> strategic_merge(const json::Value& target, const json::Value& patch, const std::string& where);

}  // namespace capstan::gitops
