// Server-side apply (application/apply-patch+yaml) and the managedFields bookkeeping of every other
// write, following kube-apiserver's field manager (k8s.io/apimachinery/pkg/util/managedfields and
// sigs.k8s.io/structured-merge-diff):
//   - apply: the applier owns exactly the fields of its configuration; fields it applied before and
//     no longer applies are removed unless another manager owns them; changing a field another
//     manager owns is a conflict unless forced, which moves the field to the applier;
//   - update (create, update, merge/JSON/strategic patches): the manager gains every field it added
//     or changed, which other managers lose; removed fields leave every set.
#pragma once

#include "apiserver/patch/list_types.h"
#include "apiserver/patch/managed_fields.h"
#include "runtime/json/patch.h"
#include "runtime/meta/time.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::patch {

using json::PatchError;

// One field of the configuration owned by another manager with a different value.
struct ManagerConflict {
  ManagedFieldsEntry manager;  // the owner (fields empty)
  std::string field;           // ".data.k", ".spec.containers[name=\"a\"].image"
  Path path;                   // the same field, structured
};

// 409 Conflict. what() is kube-apiserver's Status.message:
//   Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.k
//   Apply failed with 2 conflicts: conflicts with "m" using v1:
//   - .a
//   - .b
class ConflictError : public std::runtime_error {
 public:
  explicit ConflictError(std::vector<ManagerConflict> conflicts);
  const std::vector<ManagerConflict>& conflicts() const noexcept { return conflicts_; }
  // The whole Status body: kind, apiVersion, metadata, status "Failure", message, reason "Conflict",
  // details.causes [{reason "FieldManagerConflict", message "conflict with ...", field}], code 409.
  json::Value status() const;

 private:
  std::vector<ManagerConflict> conflicts_;
};

struct ApplyOptions {
  std::string subresource;              // "" or "status"
  const FieldSet* ignored = nullptr;    // reset fields of this endpoint: never owned, never conflicting
  std::size_t max_update_managers = 10;
};

struct ApplyResult {
  json::Value object;  // the object to store, metadata.managedFields updated
  bool changed = false;  // whether it differs from the live object (managedFields included)
};

// Applies `config` (the decoded apply patch) for `manager`. `live` is null when the object does not
// exist yet (apply creates it). `api_version` is the version being served; `now` stamps the entry.
// Throws ConflictError, or PatchError (BadRequest) for "metadata.managedFields must be nil", an
// apiVersion mismatch or a configuration list item without its key fields.
ApplyResult apply(const json::Value* live, const json::Value& config, std::string_view manager, bool force,
                  std::string_view api_version, const ListTypes& types, meta::TimePoint now, const ApplyOptions& options = {});

struct UpdateOptions {
  const FieldSet* ignored = nullptr;
  std::size_t max_update_managers = 10;
};

// The managedFields for a non-apply write of `updated` over `old` (null on create) by `manager`
// ("" counts as "unknown"). Valid managedFields sent in `updated` replace the live ones (not on a
// subresource); [] or [{}] resets them, which strips them from an existing object; an existing object
// without managedFields stays untracked until an apply. Never throws: undecodable managedFields count
// as none, as kube-apiserver's field manager does. Store the result with set_managed_fields().
json::Array update(const json::Value* old, const json::Value& updated, std::string_view manager, std::string_view operation,
                   std::string_view subresource, std::string_view api_version, meta::TimePoint now, const ListTypes& types,
                   const UpdateOptions& options = {});

inline constexpr std::string_view kLastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration";

}  // namespace capstan::apiserver::patch
