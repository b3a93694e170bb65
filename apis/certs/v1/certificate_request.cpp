#include "apis/certs/v1/certificate_request.h"

#include "apis/certs/v1/codec.h"
#include "apis/certs/v1/group.h"
#include "runtime/meta/base64.h"

namespace capstan::apis::certs::v1 {

using codec::child;

CertificateRequestSpec CertificateRequestSpec::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  CertificateRequestSpec s;
  s.duration = codec::read_duration(o, "duration", path);
  if (const auto* r = codec::read_object(o, "issuerRef", path)) s.issuer_ref = IssuerReference::from_json(*r, child(path, "issuerRef"));
  s.request = codec::read_bytes(o, "request", path);
  s.is_ca = codec::read_bool(o, "isCA", path);
  s.usages = codec::read_strings(o, "usages", path);
  s.username = codec::read_string(o, "username", path);
  s.uid = codec::read_string(o, "uid", path);
  s.groups = codec::read_strings(o, "groups", path);
  if (const auto* extra = codec::read_object(o, "extra", path)) {
    std::string ep = child(path, "extra");
    for (const auto& kv : *extra) s.extra[std::string(kv.key())] = codec::read_strings(*extra, kv.key(), ep);
  }
  return s;
}

json::Value CertificateRequestSpec::to_json() const {
  json::Object o;
  codec::put_duration(o, "duration", duration);
  o["issuerRef"] = issuer_ref.to_json();
  o["request"] = meta::base64_encode(request);
  codec::put_true(o, "isCA", is_ca);
  codec::put_strings(o, "usages", usages);
  codec::put_string(o, "username", username);
  codec::put_string(o, "uid", uid);
  codec::put_strings(o, "groups", groups);
  if (!extra.empty()) {
    json::Object e;
    for (const auto& [k, values] : extra) {
      json::Array a;
      for (const auto& v : values) a.emplace_back(v);
      e[k] = std::move(a);
    }
    o["extra"] = std::move(e);
  }
  return o;
}

CertificateRequestStatus CertificateRequestStatus::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  CertificateRequestStatus s;
  s.conditions = conditions_from_json(codec::member(o, "conditions"), child(path, "conditions"));
  s.certificate = codec::read_bytes(o, "certificate", path);
  s.ca = codec::read_bytes(o, "ca", path);
  s.failure_time = codec::read_time(o, "failureTime", path);
  return s;
}

json::Value CertificateRequestStatus::to_json() const {
  json::Object o;
  if (!conditions.empty()) o["conditions"] = conditions_to_json(conditions);
  codec::put_bytes(o, "certificate", certificate);
  codec::put_bytes(o, "ca", ca);
  codec::put_time(o, "failureTime", failure_time);
  return o;
}

bool CertificateRequestStatus::approved() const {
  const auto* c = condition(condition::kApproved);
  return c && c->status == "True";
}

bool CertificateRequestStatus::denied() const {
  const auto* c = condition(condition::kDenied);
  return c && c->status == "True";
}

CertificateRequest CertificateRequest::from_json(const json::Value& obj) {
  const auto& o = codec::as_object(obj, "CertificateRequest");
  CertificateRequest r;
  if (const auto* m = codec::read_object(o, "metadata", "")) r.metadata = *m;
  r.spec = CertificateRequestSpec::from_json(codec::member(o, "spec") ? o.at("spec") : json::Value(), "spec");
  r.status = CertificateRequestStatus::from_json(codec::member(o, "status") ? o.at("status") : json::Value(), "status");
  return r;
}

json::Value CertificateRequest::to_json() const {
  json::Object o;
  o["apiVersion"] = kApiVersion;
  o["kind"] = kCertificateRequestKind;
  o["metadata"] = metadata;
  o["spec"] = spec.to_json();
  json::Value st = status.to_json();
  if (!st.get_object().empty()) o["status"] = std::move(st);
  return o;
}

std::string_view CertificateRequest::name() const { return json::get_string(metadata, {"name"}); }
std::string_view CertificateRequest::namespace_() const { return json::get_string(metadata, {"namespace"}); }

}  // namespace capstan::apis::certs::v1
