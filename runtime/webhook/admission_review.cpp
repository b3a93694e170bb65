// AdmissionReview v1 / v1beta1 decoding and encoding, and the response helpers.
#include "runtime/json/patch.h"
#include "runtime/meta/base64.h"
#include "runtime/webhook/admission.h"

namespace capstan::webhook {
namespace {

std::string str(const json::Value& v, json::Path p) { return std::string(json::get_string(v, p)); }

GroupVersionKindRef gvk_of(const json::Value& v) {
  return {str(v, {"group"}), str(v, {"version"}), str(v, {"kind"})};
}
GroupVersionResourceRef gvr_of(const json::Value& v) {
  return {str(v, {"group"}), str(v, {"version"}), str(v, {"resource"})};
}

json::Value member_or_null(const json::Object& o, std::string_view key) {
  auto it = o.find(key);
  return it == o.end() ? json::Value() : it->value();
}

}  // namespace

json::Object Status::to_json() const {
  // metav1.Status as Go marshals it: metadata always, the rest omitted when empty.
  json::Object o{{"metadata", json::Object{}}};
  if (!message.empty()) o["message"] = message;
  if (!reason.empty()) o["reason"] = reason;
  if (!causes.empty()) {
    json::Array cs;
    for (const auto& c : causes) {
      json::Object co;
      if (!c.reason.empty()) co["reason"] = c.reason;
      if (!c.message.empty()) co["message"] = c.message;
      if (!c.field.empty()) co["field"] = c.field;
      cs.emplace_back(std::move(co));
    }
    o["details"] = json::Object{{"causes", std::move(cs)}};
  }
  if (code != 0) o["code"] = code;
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

std::pair<ReviewVersion, AdmissionRequest> decode_admission_review(std::string_view body) {
  std::string error;
  auto doc = json::try_parse(body, &error);
  if (!doc) throw std::invalid_argument("couldn't decode the AdmissionReview: " + error);
  if (!doc->is_object()) throw std::invalid_argument("couldn't decode the AdmissionReview: not a JSON object");
  std::string av = str(*doc, {"apiVersion"});
  std::string kind = str(*doc, {"kind"});
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
  const json::Object* req = json::get_object(*doc, {"request"});
  if (!req) throw std::invalid_argument("the AdmissionReview has no request");
  AdmissionRequest r;
  const json::Value rv = *req;
  r.uid = str(rv, {"uid"});
  if (const auto* v = json::find(rv, {"kind"})) r.kind = gvk_of(*v);
  if (const auto* v = json::find(rv, {"resource"})) r.resource = gvr_of(*v);
  r.sub_resource = str(rv, {"subResource"});
  if (const auto* v = json::get_object(rv, {"requestKind"})) r.request_kind = gvk_of(json::Value(*v));
  if (const auto* v = json::get_object(rv, {"requestResource"})) r.request_resource = gvr_of(json::Value(*v));
  r.request_sub_resource = str(rv, {"requestSubResource"});
  r.name = str(rv, {"name"});
  r.ns = str(rv, {"namespace"});
  r.operation = str(rv, {"operation"});
  r.user_info = member_or_null(*req, "userInfo");
  r.object = member_or_null(*req, "object");
  r.old_object = member_or_null(*req, "oldObject");
  r.options = member_or_null(*req, "options");
  r.dry_run = json::get_bool(rv, {"dryRun"});
  return {version, std::move(r)};
}

json::Value encode_admission_review(ReviewVersion version, const std::string& uid, const AdmissionResponse& response) {
  json::Object resp{{"uid", uid}, {"allowed", response.allowed}};
  if (response.patch) {
    resp["patchType"] = "JSONPatch";
    resp["patch"] = meta::base64_encode(json::serialize(*response.patch));
  }
  Status status = response.status;
  if (status.code == 0) status.code = 200;  // controller-runtime's Response.Complete
  resp["status"] = status.to_json();
  if (!response.warnings.empty()) {
    json::Array w;
    for (const auto& s : response.warnings) w.emplace_back(s);
    resp["warnings"] = std::move(w);
  }
  if (!response.audit_annotations.empty()) {
    json::Object a;
    for (const auto& [k, v] : response.audit_annotations) a[k] = v;
    resp["auditAnnotations"] = std::move(a);
  }
  return json::Object{{"apiVersion", api_version(version)}, {"kind", "AdmissionReview"}, {"response", std::move(resp)}};
}

}  // namespace capstan::webhook
