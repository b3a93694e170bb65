// AdmissionReview (admission.k8s.io/v1 and v1beta1): the request kube-apiserver sends to an
// admission webhook and the checks it applies to the answer (request/admissionreview.go's
// CreateAdmissionObjects and VerifyAdmissionResponse).
#pragma once

#include "apiserver/rest/hooks.h"
#include "runtime/json/json.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::admission {

struct GroupVersionKind {
  std::string group, version, kind;
};
struct GroupVersionResource {
  std::string group, version, resource;
};

// What goes into AdmissionReview.request. `kind`/`resource`/`sub_resource` are what the webhook
// is called with (they differ from the request* fields only under matchPolicy Equivalent).
struct ReviewRequest {
  std::string uid;
  GroupVersionKind kind;
  GroupVersionResource resource;
  std::string sub_resource;
  GroupVersionKind request_kind;
  GroupVersionResource request_resource;
  std::string request_sub_resource;
  std::string name;
  std::string ns;
  std::string operation;
  const rest::User* user = nullptr;
  const json::Value* object = nullptr;      // null on DELETE
  const json::Value* old_object = nullptr;  // null on CREATE
  bool dry_run = false;
  const json::Value* options = nullptr;
};

// The first of a webhook's admissionReviewVersions this server speaks ("v1", "v1beta1").
std::optional<std::string> pick_review_version(const std::vector<std::string>& versions);

json::Value build_admission_review(std::string_view review_version, const ReviewRequest& r);

struct ReviewResponse {
  bool allowed = false;
  std::string patch;       // decoded JSON Patch text ("" = none)
  std::string patch_type;  // "JSONPatch" when a patch is present
  json::Value status;      // response.status (metav1.Status) or null
  std::vector<std::string> warnings;
};

// The answer could not be decoded (upstream: an error from the REST client's Into(), reported
// as "failed to call webhook: ...").
class ReviewDecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The answer decoded but is not a valid response ("received invalid webhook response: ...").
class ReviewInvalidError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

ReviewResponse parse_admission_response(std::string_view body, std::string_view review_version, std::string_view uid,
                                        bool mutating);

// Go's schema.GroupVersionKind.String() for an apiVersion and kind: "group/version, Kind=Kind"
// ("/v1, Kind=Pod" for the core group).
std::string gvk_string(std::string_view api_version, std::string_view kind);

// Decodes standard base64 as Go's encoding/json does for []byte; on failure the message is Go's
// "illegal base64 data at input byte N".
std::optional<std::string> decode_base64_bytes(std::string_view text, std::string* error);

}  // namespace capstan::apiserver::admission
