#include "apis/certs/v1/certificate.h"

#include "apis/certs/v1/codec.h"
#include "apis/certs/v1/group.h"

namespace capstan::apis::certs::v1 {

using codec::child;

X509Subject X509Subject::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  X509Subject s;
  s.organizations = codec::read_strings(o, "organizations", path);
  s.countries = codec::read_strings(o, "countries", path);
  s.organizational_units = codec::read_strings(o, "organizationalUnits", path);
  s.localities = codec::read_strings(o, "localities", path);
  s.provinces = codec::read_strings(o, "provinces", path);
  s.street_addresses = codec::read_strings(o, "streetAddresses", path);
  s.postal_codes = codec::read_strings(o, "postalCodes", path);
  s.serial_number = codec::read_string(o, "serialNumber", path);
  return s;
}

json::Value X509Subject::to_json() const {
  json::Object o;
  codec::put_strings(o, "organizations", organizations);
  codec::put_strings(o, "countries", countries);
  codec::put_strings(o, "organizationalUnits", organizational_units);
  codec::put_strings(o, "localities", localities);
  codec::put_strings(o, "provinces", provinces);
  codec::put_strings(o, "streetAddresses", street_addresses);
  codec::put_strings(o, "postalCodes", postal_codes);
  codec::put_string(o, "serialNumber", serial_number);
  return o;
}

SecretTemplate SecretTemplate::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  SecretTemplate t;
  t.annotations = codec::read_string_map(o, "annotations", path);
  t.labels = codec::read_string_map(o, "labels", path);
  return t;
}

json::Value SecretTemplate::to_json() const {
  json::Object o;
  codec::put_string_map(o, "annotations", annotations);
  codec::put_string_map(o, "labels", labels);
  return o;
}

CertificatePrivateKey CertificatePrivateKey::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  CertificatePrivateKey k;
  k.rotation_policy = codec::read_string(o, "rotationPolicy", path);
  k.encoding = codec::read_string(o, "encoding", path);
  k.algorithm = codec::read_string(o, "algorithm", path);
  k.size = codec::read_int(o, "size", path).value_or(0);
  return k;
}

json::Value CertificatePrivateKey::to_json() const {
  json::Object o;
  codec::put_string(o, "rotationPolicy", rotation_policy);
  codec::put_string(o, "encoding", encoding);
  codec::put_string(o, "algorithm", algorithm);
  if (size != 0) o["size"] = size;
  return o;
}

CertificateSpec CertificateSpec::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  CertificateSpec s;
  if (const auto* sub = codec::read_object(o, "subject", path)) s.subject = X509Subject::from_json(*sub, child(path, "subject"));
  s.common_name = codec::read_string(o, "commonName", path);
  s.duration = codec::read_duration(o, "duration", path);
  s.renew_before = codec::read_duration(o, "renewBefore", path);
  s.renew_before_percentage = codec::read_int32(o, "renewBeforePercentage", path);
  s.dns_names = codec::read_strings(o, "dnsNames", path);
  s.ip_addresses = codec::read_strings(o, "ipAddresses", path);
  s.uris = codec::read_strings(o, "uris", path);
  s.email_addresses = codec::read_strings(o, "emailAddresses", path);
  s.secret_name = codec::read_string(o, "secretName", path);
  if (const auto* t = codec::read_object(o, "secretTemplate", path))
    s.secret_template = SecretTemplate::from_json(*t, child(path, "secretTemplate"));
  if (const auto* r = codec::read_object(o, "issuerRef", path)) s.issuer_ref = IssuerReference::from_json(*r, child(path, "issuerRef"));
  s.is_ca = codec::read_bool(o, "isCA", path);
  s.usages = codec::read_strings(o, "usages", path);
  if (const auto* k = codec::read_object(o, "privateKey", path))
    s.private_key = CertificatePrivateKey::from_json(*k, child(path, "privateKey"));
  s.encode_usages_in_request = codec::read_optional_bool(o, "encodeUsagesInRequest", path);
  s.revision_history_limit = codec::read_int32(o, "revisionHistoryLimit", path);
  return s;
}

json::Value CertificateSpec::to_json() const {
  json::Object o;
  if (subject) o["subject"] = subject->to_json();
  codec::put_string(o, "commonName", common_name);
  codec::put_duration(o, "duration", duration);
  codec::put_duration(o, "renewBefore", renew_before);
  if (renew_before_percentage) o["renewBeforePercentage"] = *renew_before_percentage;
  codec::put_strings(o, "dnsNames", dns_names);
  codec::put_strings(o, "ipAddresses", ip_addresses);
  codec::put_strings(o, "uris", uris);
  codec::put_strings(o, "emailAddresses", email_addresses);
  o["secretName"] = secret_name;
  if (secret_template) o["secretTemplate"] = secret_template->to_json();
  o["issuerRef"] = issuer_ref.to_json();
  codec::put_true(o, "isCA", is_ca);
  codec::put_strings(o, "usages", usages);
  if (private_key) o["privateKey"] = private_key->to_json();
  if (encode_usages_in_request) o["encodeUsagesInRequest"] = *encode_usages_in_request;
  if (revision_history_limit) o["revisionHistoryLimit"] = *revision_history_limit;
  return o;
}

CertificateStatus CertificateStatus::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  CertificateStatus s;
  s.conditions = conditions_from_json(codec::member(o, "conditions"), child(path, "conditions"));
  s.last_failure_time = codec::read_time(o, "lastFailureTime", path);
  s.not_before = codec::read_time(o, "notBefore", path);
  s.not_after = codec::read_time(o, "notAfter", path);
  s.renewal_time = codec::read_time(o, "renewalTime", path);
  s.revision = codec::read_int(o, "revision", path);
  s.next_private_key_secret_name = codec::read_optional_string(o, "nextPrivateKeySecretName", path);
  s.failed_issuance_attempts = codec::read_int(o, "failedIssuanceAttempts", path);
  return s;
}

json::Value CertificateStatus::to_json() const {
  json::Object o;
  if (!conditions.empty()) o["conditions"] = conditions_to_json(conditions);
  codec::put_time(o, "lastFailureTime", last_failure_time);
  codec::put_time(o, "notBefore", not_before);
  codec::put_time(o, "notAfter", not_after);
  codec::put_time(o, "renewalTime", renewal_time);
  if (revision) o["revision"] = *revision;
  if (next_private_key_secret_name) o["nextPrivateKeySecretName"] = *next_private_key_secret_name;
  if (failed_issuance_attempts) o["failedIssuanceAttempts"] = *failed_issuance_attempts;
  return o;
}

Certificate Certificate::from_json(const json::Value& obj) {
  const auto& o = codec::as_object(obj, "Certificate");
  Certificate c;
  if (const auto* m = codec::read_object(o, "metadata", "")) c.metadata = *m;
  c.spec = CertificateSpec::from_json(codec::member(o, "spec") ? o.at("spec") : json::Value(), "spec");
  c.status = CertificateStatus::from_json(codec::member(o, "status") ? o.at("status") : json::Value(), "status");
  return c;
}

json::Value Certificate::to_json() const {
  json::Object o;
  o["apiVersion"] = kApiVersion;
  o["kind"] = kCertificateKind;
  o["metadata"] = metadata;
  o["spec"] = spec.to_json();
  json::Value st = status.to_json();
  if (!st.get_object().empty()) o["status"] = std::move(st);
  return o;
}

std::string_view Certificate::name() const { return json::get_string(metadata, {"name"}); }
std::string_view Certificate::namespace_() const { return json::get_string(metadata, {"namespace"}); }

}  // namespace capstan::apis::certs::v1
