// metadata.managedFields entries: decoding, encoding and the manager identities kube-apiserver uses.
//   {"manager":"kubectl","operation":"Apply","apiVersion":"v1","time":"2026-12-02T14:55:53Z",
//    "fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:k":{}}}}            (+ "subresource":"status")
#pragma once

#include "apiserver/patch/fieldset.h"
#include "runtime/meta/time.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::patch {

inline constexpr std::string_view kOperationApply = "Apply";
inline constexpr std::string_view kOperationUpdate = "Update";

struct ManagedFieldsEntry {
  std::string manager;
  std::string operation;    // "Apply" or "Update"
  std::string api_version;  // the version the fields were recorded in
  std::optional<meta::TimePoint> time;
  std::string subresource;  // "" or e.g. "status"
  FieldSet fields;

  // Managers are told apart by (manager, operation, subresource) and, for Update, apiVersion:
  // the JSON of those members in metav1.ManagedFieldsEntry order (BuildManagerIdentifier).
  std::string identifier() const;
  // printManager: "\"kubectl\"", "\"m\" using v1", "\"m\" with subresource \"status\" using v1".
  std::string describe() const;

  json::Value to_json() const;
};

std::string manager_identifier(std::string_view manager, std::string_view operation, std::string_view api_version,
                               std::string_view subresource);

// Decodes a managedFields array (null or missing: no entries). Throws json::PatchError (BadRequest)
// with kube-apiserver's messages for entries that are not objects, an operation other than Apply or
// Update, an empty apiVersion, a fieldsType other than FieldsV1, bad times or malformed fieldsV1.
std::vector<ManagedFieldsEntry> decode_managed_fields(const json::Value* managed_fields);

// Encodes entries in kube-apiserver's order: Apply before Update, then by time (seconds), manager,
// apiVersion and subresource. Entries with empty field sets are dropped.
json::Array encode_managed_fields(std::vector<ManagedFieldsEntry> entries);

// Sets metadata.managedFields on `obj`, removing the member when `managed_fields` is empty.
void set_managed_fields(json::Value& obj, json::Array managed_fields);

// The fields kube-apiserver never records for the manager of a write: apiVersion, kind, metadata
// itself and metadata.{name, namespace, creationTimestamp, selfLink, uid, clusterName, generation,
// managedFields, resourceVersion}.
const FieldSet& stripped_fields();

// With more than `max_updaters` Update entries, the oldest are folded into one "ancient-changes"
// entry per apiVersion (capManagersManager; kube-apiserver keeps 10).
void cap_update_managers(std::vector<ManagedFieldsEntry>& entries, std::size_t max_updaters);

}  // namespace capstan::apiserver::patch
