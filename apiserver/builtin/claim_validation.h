// PersistentVolumeClaim update validation, kube-apiserver's ValidatePersistentVolumeClaimUpdate
// (pkg/apis/core/validation) in the parts a controller meets:
//   - the spec is immutable, except spec.volumeName set once, a storageClassName set where there
//     was none, and, for a Bound claim, resources.requests.storage and volumeAttributesClassName:
//     `spec: Forbidden: spec is immutable after creation except resources.requests and
//     volumeAttributesClassName for bound claims` (kube appends a diff of the specs, not here);
//   - the storage request may go down only above status.capacity (RecoverVolumeExpansionFailure,
//     GA): `spec.resources.requests.storage: Forbidden: field can not be less than status.capacity`.
// Whether the StorageClass allows the growth is admission's (apiserver/admission/claim_resize.h).
#pragma once

#include "runtime/json/json.h"
#include "runtime/validation/field.h"

#include <vector>

namespace capstan::apiserver::builtin {

std::vector<validation::Cause> validate_claim_update(const json::Value& claim, const json::Value& old);

}  // namespace capstan::apiserver::builtin
