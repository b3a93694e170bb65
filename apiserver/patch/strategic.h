// Strategic merge patch (application/strategic-merge-patch+json), applied as apimachinery's
// strategicpatch.StrategicMergeMapPatch does on the server for built-in kinds:
//   - objects merge recursively, null deletes a member;
//   - lists with patchStrategy merge: objects merge by patchMergeKey, scalars as a set; other lists
//     are replaced;
//   - directives: "$patch": replace | delete (objects) and replace | delete | merge (list elements),
//     "$retainKeys", "$setElementOrder/<list>", "$deleteFromPrimitiveList/<list>";
//   - ordering: $setElementOrder first, then the order of the patch list, then the live order; new
//     elements not placed by $setElementOrder come before the live elements (as upstream does).
// Errors are json::PatchError with apimachinery's messages and kube-apiserver's status codes
// (400 for malformed directives, 422 for lists of lists, 500 for the rest, as upstream).
#pragma once

#include "apiserver/patch/list_types.h"
#include "runtime/json/patch.h"

namespace capstan::apiserver::patch {

using json::PatchError;

// `original` and `patch` must be JSON objects (else PatchError "invalid JSON document", 400).
json::Value apply_strategic_merge_patch(const json::Value& original, const json::Value& patch, const ListTypes& types);

}  // namespace capstan::apiserver::patch
