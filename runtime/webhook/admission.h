// Admission webhooks (controller-runtime pkg/webhook/admission): AdmissionReview v1 and
// v1beta1 decoding and answering, and the typed Validator / Defaulter handlers.
//
//   struct CertificateValidator : webhook::Validator {
//     webhook::Warnings validate_create(const json::Value& obj) override {
//       if (json::get_string(obj, {"spec", "secretName"}).empty())
//         throw webhook::Denied("spec.secretName: Required value");
//       return {};
//     }
//   };
//   server.register_path(webhook::validate_path({"certs.capstan.dev", "v1", "Certificate"}),
//                        webhook::make_validating_handler(std::make_shared<CertificateValidator>()));
#pragma once

#include "runtime/json/json.h"
#include "runtime/webhook/handler.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace capstan::webhook {

using Warnings = std::vector<std::string>;

// metav1.StatusCause
struct Cause {
  std::string reason;  // "FieldValueInvalid", ...
  std::string message;
  std::string field;   // "spec.duration"
};

// metav1.Status as an admission response carries it.
struct Status {
  int code = 200;
  std::string reason;   // "Forbidden", "Invalid", ...
  std::string message;
  std::vector<Cause> causes;
  json::Object to_json(json::storage_ptr storage = {}) const;
};

// Thrown by validators and defaulters to deny a request. The API server tells the user
// `admission webhook "<name>" denied the request: <message>`.
class Denied : public std::runtime_error {
 public:
  explicit Denied(std::string message, std::string reason = "Forbidden", int code = 403, std::vector<Cause> causes = {})
      : std::runtime_error(message), reason(std::move(reason)), code(code), causes(std::move(causes)) {}
  std::string reason;
  int code;
  std::vector<Cause> causes;
  Warnings warnings;  // still returned to the client with the denial
};

struct GroupVersionKindRef {
  std::string group, version, kind;
};
struct GroupVersionResourceRef {
  std::string group, version, resource;
};

// admission.k8s.io/v1 AdmissionRequest.
struct AdmissionRequest {
  std::string uid;
  GroupVersionKindRef kind;
  GroupVersionResourceRef resource;
  std::string sub_resource;
  std::optional<GroupVersionKindRef> request_kind;
  std::optional<GroupVersionResourceRef> request_resource;
  std::string request_sub_resource;
  std::string name;
  std::string ns;
  std::string operation;    // CREATE | UPDATE | DELETE | CONNECT
  json::Value user_info;    // {username, uid, groups, extra}
  json::Value object;       // null on DELETE
  json::Value old_object;   // null on CREATE / CONNECT
  json::Value options;
  bool dry_run = false;
};

// admission.k8s.io/v1 AdmissionResponse (the uid is filled in from the request).
struct AdmissionResponse {
  bool allowed = true;
  Status status;                       // code 200 when allowed
  std::optional<json::Value> patch;    // a JSON Patch (array); sent base64 with patchType JSONPatch
  Warnings warnings;
  std::map<std::string, std::string> audit_annotations;
};

AdmissionResponse allowed(std::string message = {});
AdmissionResponse denied(std::string message, std::string reason = "Forbidden", int code = 403);
// An error answer: allowed=false with the code and message and no reason (controller-runtime's Errored).
AdmissionResponse errored(int code, std::string message);
// Allowed, with the JSON patch turning `original` into `modified` (no patch when equal).
AdmissionResponse patch_response(const json::Value& original, const json::Value& modified);

// The review's version: answers use the same apiVersion.
enum class ReviewVersion { V1, V1beta1 };
std::string_view api_version(ReviewVersion v);  // "admission.k8s.io/v1" | ".../v1beta1"

// Decodes an AdmissionReview body; throws std::invalid_argument naming the problem (not JSON,
// not an AdmissionReview, unknown version, missing request). A review without apiVersion/kind
// is read as v1, as controller-runtime's decoder does. The review's values live in `storage`.
std::pair<ReviewVersion, AdmissionRequest> decode_admission_review(std::string_view body, json::storage_ptr storage = {});
// The AdmissionReview answering `uid`, built in `storage`.
json::Value encode_admission_review(ReviewVersion version, const std::string& uid, const AdmissionResponse& response,
                                    json::storage_ptr storage = {});

using AdmissionFunc = std::function<AdmissionResponse(const AdmissionRequest& request)>;

// The HTTP side, as controller-runtime's admission.Webhook.ServeHTTP: an empty body, a body
// over kMaxRequestBytes (413), a Content-Type other than application/json (400) or an
// undecodable review (400) are answered with HTTP 200 and a v1 AdmissionReview whose response
// is allowed=false with that status code and the error message (and no uid). Otherwise `fn`
// runs and its response is sent in the request's review version with request.uid copied;
// Denied -> allowed=false with its code/reason/message/causes; any other exception ->
// allowed=false, code 500 and the exception's message.
Handler make_admission_handler(AdmissionFunc fn);

// ---- typed handlers ----------------------------------------------------------------------------

class Validator {
 public:
  virtual ~Validator() = default;
  // Return warnings to allow; throw Denied to deny. The defaults allow.
  virtual Warnings validate_create(const json::Value& obj) { return {}; }
  virtual Warnings validate_update(const json::Value& old_obj, const json::Value& new_obj) { return {}; }
  // `obj` is the object being deleted (the request's oldObject).
  virtual Warnings validate_delete(const json::Value& obj) { return {}; }
};

class Defaulter {
 public:
  virtual ~Defaulter() = default;
  // Sets defaults in place (throw Denied to deny).
  virtual void default_(json::Value& obj) = 0;
};

// Validator / Defaulter from plain functions.
struct FuncValidator : Validator {
  std::function<Warnings(const json::Value&)> on_create;
  std::function<Warnings(const json::Value&, const json::Value&)> on_update;
  std::function<Warnings(const json::Value&)> on_delete;
  Warnings validate_create(const json::Value& o) override { return on_create ? on_create(o) : Warnings{}; }
  Warnings validate_update(const json::Value& a, const json::Value& b) override { return on_update ? on_update(a, b) : Warnings{}; }
  Warnings validate_delete(const json::Value& o) override { return on_delete ? on_delete(o) : Warnings{}; }
};
struct FuncDefaulter : Defaulter {
  explicit FuncDefaulter(std::function<void(json::Value&)> fn) : fn(std::move(fn)) {}
  std::function<void(json::Value&)> fn;
  void default_(json::Value& obj) override { fn(obj); }
};

// CREATE -> validate_create(object); UPDATE -> validate_update(oldObject, object);
// DELETE -> validate_delete(oldObject); CONNECT -> allowed; another operation -> 400.
AdmissionFunc validating(std::shared_ptr<Validator> validator);
// DELETE -> allowed without a patch; otherwise default_ runs on a copy of the object and the
// answer carries the JSON patch from the original to the defaulted object (none if unchanged).
AdmissionFunc mutating(std::shared_ptr<Defaulter> defaulter);

Handler make_validating_handler(std::shared_ptr<Validator> validator);
Handler make_mutating_handler(std::shared_ptr<Defaulter> defaulter);

}  // namespace capstan::webhook
