// Generic JSON patch formats over Boost.JSON values, shared by the API server, our client and webhooks:
//   - RFC 6902 JSON Patch (application/json-patch+json): apply_json_patch()
//   - RFC 7386 JSON Merge Patch (application/merge-patch+json): apply_merge_patch()
//   - diffs producing either format: create_merge_patch(), create_json_patch()
// Kubernetes-specific patch types (strategic merge patch, server-side apply) live in apiserver/patch/.
#pragma once

#include "runtime/json/json.h"

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace capstan::json {

// A patch that cannot be decoded or applied. what() carries the detail (operation index, path and the
// upstream library's wording); code()/reason()/status_message() say how kube-apiserver answers it.
class PatchError : public std::runtime_error {
 public:
  enum class Kind {
    BadRequest,  // 400 "BadRequest": the patch document itself is malformed
    Invalid,     // 422 "Invalid": well-formed but cannot be applied to this object
    Internal,    // 500, reason "" (Unknown): what kube-apiserver returns for untyped patch errors
  };

  // `status_message` is what kube-apiserver puts in Status.message; empty means "same as detail".
  PatchError(Kind kind, std::string detail, std::string status_message = {});

  Kind kind() const noexcept { return kind_; }
  int code() const noexcept;
  // Status.reason: "BadRequest", "Invalid" or "" (metav1.StatusReasonUnknown).
  std::string_view reason() const noexcept;
  const std::string& status_message() const noexcept { return status_message_; }

  // Where it failed: the index of the failing JSON Patch operation, and its JSON pointer (JSON Patch)
  // or the field path (".spec.containers[]" for strategic merge patch).
  std::optional<std::size_t> op_index;
  std::string path;

 private:
  Kind kind_;
  std::string status_message_;
};

// Structural equality where numbers compare by value (1 == 1.0, as Go's encoding/json sees them) and
// object member order does not matter.
bool deep_equal(const Value& a, const Value& b);
// Whether `have` holds every member of `want` with the same value, as deep_equal judges values:
// objects may have more members, arrays match element by element, and a member `have` lacks
// matches when `want` holds it empty (null, {}, [], ""), which the API server does not store:
// an applied object, defaulted and stored by the API server, still contains what was applied.
bool contains(const Value& have, const Value& want);

// ---- RFC 6902 -------------------------------------------------------------------------------------

// Applies `patch` (a JSON array of operations) to `doc` and returns the result; `doc` is not modified.
// Follows gopkg.in/evanphx/json-patch.v4 as kube-apiserver uses it: negative array indices count from
// the end, a `test` against a missing member passes when the value is null, and the error texts are
// that library's ("testing value /data/x failed: test failed"). Decoding problems throw BadRequest; an
// operation that does not apply throws Invalid with status_message() "the server rejected our request
// due to an error in our request" (kube-apiserver drops the detail in that case).
Value apply_json_patch(const Value& doc, const Value& patch);
// Parses `patch_text` first (BadRequest when it is not JSON).
Value apply_json_patch(const Value& doc, std::string_view patch_text);

// Number of operations in a JSON patch (kube-apiserver refuses more than 10000 with 413).
std::size_t json_patch_operation_count(const Value& patch);

// ---- RFC 7386 -------------------------------------------------------------------------------------

// Applies a JSON merge patch: objects merge recursively, null deletes, everything else (arrays
// included) replaces. Values inserted where the target had nothing are stored without their null
// members, as evanphx/json-patch does. A non-object patch replaces the target.
Value apply_merge_patch(const Value& target, const Value& patch);

// ---- diffs ----------------------------------------------------------------------------------------

// A merge patch that turns `original` into `modified` (null for removed members, arrays replaced
// whole). When `modified` itself contains null members inside objects they cannot be expressed and are
// dropped by the round trip.
Value create_merge_patch(const Value& original, const Value& modified);

// A JSON patch (array of operations) that turns `original` into `modified`: members are added,
// removed or replaced individually; arrays are patched element-wise around their common prefix and
// suffix, or replaced whole when that is shorter. Applying it to `original` yields `modified`.
Value create_json_patch(const Value& original, const Value& modified);

}  // namespace capstan::json
