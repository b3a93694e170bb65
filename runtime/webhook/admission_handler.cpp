// The HTTP side of admission webhooks, and the typed Validator / Defaulter handlers.
#include "runtime/log/log.h"
#include "runtime/webhook/admission.h"
#include "runtime/webhook/content_type.h"

#include <boost/json/monotonic_resource.hpp>

namespace capstan::webhook {
namespace {

http::Response review_reply(ReviewVersion version, const std::string& uid, const AdmissionResponse& r) {
  // The answer is built and serialised here: in a stack arena, without an allocation per member.
  unsigned char buffer[4096];
  boost::json::monotonic_resource arena(buffer, sizeof buffer);
  return http::Response(200, json::serialize(encode_admission_review(version, uid, r, &arena)));
}

// Errors found before the review is decoded: answered as a v1 review without uid.
http::Response early_error(const http::Request& req, int code, const std::string& message) {
  log::warn("admission request rejected", {{"path", std::string(req.path())}, {"code", code}, {"error", message}});
  return review_reply(ReviewVersion::V1, "", errored(code, message));
}

AdmissionResponse from_denied(const Denied& d) {
  AdmissionResponse r;
  r.allowed = false;
  r.status.code = d.code == 0 ? 403 : d.code;
  r.status.reason = d.reason;
  r.status.message = d.what();
  r.status.causes = d.causes;
  r.warnings = d.warnings;
  return r;
}

}  // namespace

Handler make_admission_handler(AdmissionFunc fn) {
  return [fn = std::move(fn)](const http::Request& req) -> http::Response {
    if (req.body.empty()) return early_error(req, 400, "request body is empty");
    if (req.body.size() > kMaxRequestBytes)
      return early_error(req, 413, "request entity is too large; limit is " + std::to_string(kMaxRequestBytes) + " bytes");
    std::string_view ct = req.headers.get_or("Content-Type", "");
    if (!is_json_content_type(ct))
      return early_error(req, 400, "contentType=" + std::string(ct) + ", expected application/json");
    // The review is read and dropped within this request: its values share one arena (about
    // twice the body's size) instead of an allocation per member. Emplaced, not assigned: an
    // assignment would copy the values out of the arena.
    std::optional<std::pair<ReviewVersion, AdmissionRequest>> decoded;
    try {
      decoded.emplace(decode_admission_review(
          req.body, boost::json::make_shared_resource<boost::json::monotonic_resource>(2 * req.body.size() + 1024)));
    } catch (const std::exception& e) {
      return early_error(req, 400, e.what());
    }
    const auto& [version, ar] = *decoded;
    AdmissionResponse resp;
    try {
      resp = fn(ar);
    } catch (const Denied& d) {
      resp = from_denied(d);
    } catch (const std::exception& e) {
      log::error("admission handler failed", {{"path", std::string(req.path())}, {"uid", ar.uid}, {"error", e.what()}});
      resp = errored(500, e.what());
    }
    return review_reply(version, ar.uid, resp);
  };
}

AdmissionFunc validating(std::shared_ptr<Validator> validator) {
  return [v = std::move(validator)](const AdmissionRequest& req) -> AdmissionResponse {
    Warnings warnings;
    if (req.operation == "CREATE") {
      warnings = v->validate_create(req.object);
    } else if (req.operation == "UPDATE") {
      warnings = v->validate_update(req.old_object, req.object);
    } else if (req.operation == "DELETE") {
      // Since Kubernetes 1.15 the object being deleted is in oldObject.
      warnings = v->validate_delete(req.old_object);
    } else if (req.operation == "CONNECT") {
      // No validation for CONNECT requests.
    } else {
      return errored(400, "unknown operation \"" + req.operation + "\"");
    }
    AdmissionResponse r = allowed();
    r.warnings = std::move(warnings);
    return r;
  };
}

AdmissionFunc mutating(std::shared_ptr<Defaulter> defaulter) {
  return [d = std::move(defaulter)](const AdmissionRequest& req) -> AdmissionResponse {
    if (req.operation == "DELETE") return allowed();
    if (!req.object.is_object()) return errored(400, "the admission request has no object to default");
    json::Value obj = req.object;
    d->default_(obj);
    return patch_response(req.object, obj);
  };
}

Handler make_validating_handler(std::shared_ptr<Validator> validator) {
  return make_admission_handler(validating(std::move(validator)));
}

Handler make_mutating_handler(std::shared_ptr<Defaulter> defaulter) {
  return make_admission_handler(mutating(std::move(defaulter)));
}

}  // namespace capstan::webhook
