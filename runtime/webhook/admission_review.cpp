// AdmissionReview v1 / v1beta1 decoding and encoding, and the response helpers.
#include "runtime/json/patch.h"
#include "runtime/meta/base64.h"
#include "runtime/webhook/admission.h"

namespace capstan::webhook {
namespace {

std::string str(const json::Object& o, json::Path p) { return std::string(json::get_string(o, p)); }

GroupVersionKindRef gvk_of(const json::Object& o) { return {str(o, {"group"}), str(o, {"version"}), str(o, {"kind"})}; }
GroupVersionResourceRef gvr_of(const json::Object& o) { return {str(o, {"group"}), str(o, {"version"}), str(o, {"resource"})}; }

// Moves the member out of the parsed review into `slot` (O(1): the review is ours), or leaves
// null. The slot is constructed anew: assigning would copy the value into the slot's memory
// resource, and the review's values stay in the arena they were parsed into.
void take(json::Object& o, std::string_view key, json::Value& slot) {
  auto* v = o.if_contains(key);
  if (!v) return;
  slot.~value();
  new (&slot) json::Value(std::move(*v));
}

}  // namespace

json::Object Status::to_json(json::storage_ptr sp) const {
  // metav1.Status as Go marshals it: metadata always, the rest omitted when empty.
  json::Object o(sp);
  o.emplace("metadata", json::Object(sp));
  if (!message.empty()) o.emplace("message", message);
  if (!reason.empty()) o.emplace("reason", reason);
  if (!causes.empty()) {
    json::Array cs(sp);
    for (const auto& c : causes) {
      json::Object co(sp);
      if (!c.reason.empty()) co.emplace("reason", c.reason);
      if (!c.message.empty()) co.emplace("message", c.message);
      if (!c.field.empty()) co.emplace("field", c.field);
      cs.emplace_back(std::move(co));
    }
    json::Object details(sp);
    details.emplace("causes", std::move(cs));
    o.emplace("details", std::move(details));
  }
  if (code != 0) o.emplace("code", code);
  return o;
}

AdmissionResponse allowed(std::string message) {
  AdmissionResponse r;
  r.allowed = true;
  r.status.code = 200;
  r.status.message = std::move(message);
  return r;
}

AdmissionResponse denied(std::string message, std::string reason, int code) {
  AdmissionResponse r;
  r.allowed = false;
  r.status.code = code;
  r.status.reason = std::move(reason);
  r.status.message = std::move(message);
  return r;
}

AdmissionResponse errored(int code, std::string message) {
  AdmissionResponse r;
  r.allowed = false;
  r.status.code = code;
  r.status.message = std::move(message);
  return r;
}

AdmissionResponse patch_response(const json::Value& original, const json::Value& modified) {
  AdmissionResponse r = allowed();
  json::Value ops = json::create_json_patch(original, modified);
  if (ops.is_array() && !ops.as_array().empty()) r.patch = std::move(ops);
  return r;
}

std::string_view api_version(ReviewVersion v) {
  return v == ReviewVersion::V1 ? "admission.k8s.io/v1" : "admission.k8s.io/v1beta1";
}

std::pair<ReviewVersion, AdmissionRequest> decode_admission_review(std::string_view body, json::storage_ptr storage) {
  std::string error;
  auto doc = json::try_parse(body, std::move(storage), &error);
  if (!doc) throw std::invalid_argument("couldn't decode the AdmissionReview: " + error);
  if (!doc->is_object()) throw std::invalid_argument("couldn't decode the AdmissionReview: not a JSON object");
  std::string av = str(doc->get_object(), {"apiVersion"});
  std::string kind = str(doc->get_object(), {"kind"});
  ReviewVersion version = ReviewVersion::V1;
  if (av.empty() && kind.empty()) {
    version = ReviewVersion::V1;  // no type meta: decoded as v1
  } else if (kind != "AdmissionReview") {
    throw std::invalid_argument("no kind \"" + kind + "\" is registered for version \"" + av + "\"; expected AdmissionReview");
  } else if (av == "admission.k8s.io/v1") {
    version = ReviewVersion::V1;
  } else if (av == "admission.k8s.io/v1beta1") {
    version = ReviewVersion::V1beta1;
  } else {
    throw std::invalid_argument("no kind \"AdmissionReview\" is registered for version \"" + av + "\"");
  }
  auto* request = doc->as_object().if_contains("request");
  if (!request || !request->is_object()) throw std::invalid_argument("the AdmissionReview has no request");
  json::Object& req = request->as_object();
  AdmissionRequest r;
  r.uid = str(req, {"uid"});
  if (const auto* v = json::get_object(req, {"kind"})) r.kind = gvk_of(*v);
  if (const auto* v = json::get_object(req, {"resource"})) r.resource = gvr_of(*v);
  r.sub_resource = str(req, {"subResource"});
  if (const auto* v = json::get_object(req, {"requestKind"})) r.request_kind = gvk_of(*v);
  if (const auto* v = json::get_object(req, {"requestResource"})) r.request_resource = gvr_of(*v);
  r.request_sub_resource = str(req, {"requestSubResource"});
  r.name = str(req, {"name"});
  r.ns = str(req, {"namespace"});
  r.operation = str(req, {"operation"});
  r.dry_run = json::get_bool(req, {"dryRun"});
  take(req, "userInfo", r.user_info);
  take(req, "object", r.object);
  take(req, "oldObject", r.old_object);
  take(req, "options", r.options);
  return {version, std::move(r)};
}

json::Value encode_admission_review(ReviewVersion version, const std::string& uid, const AdmissionResponse& response,
                                    json::storage_ptr sp) {
  json::Object resp(sp);
  resp.emplace("uid", uid);
  resp.emplace("allowed", response.allowed);
  if (response.patch) {
    resp.emplace("patchType", "JSONPatch");
    resp.emplace("patch", meta::base64_encode(json::serialize(*response.patch)));
  }
  Status status = response.status;
  if (status.code == 0) status.code = 200;  // controller-runtime's Response.Complete
  resp.emplace("status", status.to_json(sp));
  if (!response.warnings.empty()) {
    json::Array w(sp);
    for (const auto& s : response.warnings) w.emplace_back(s);
    resp.emplace("warnings", std::move(w));
  }
  if (!response.audit_annotations.empty()) {
    json::Object a(sp);
    for (const auto& [k, v] : response.audit_annotations) a.emplace(k, v);
    resp.emplace("auditAnnotations", std::move(a));
  }
  json::Object review(sp);
  review.emplace("apiVersion", api_version(version));
  review.emplace("kind", "AdmissionReview");
  review.emplace("response", std::move(resp));
  return review;
}

}  // namespace capstan::webhook
