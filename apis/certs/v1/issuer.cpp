#include "apis/certs/v1/issuer.h"

#include "apis/certs/v1/codec.h"
#include "apis/certs/v1/group.h"

namespace capstan::apis::certs::v1 {

using codec::child;

SelfSignedIssuer SelfSignedIssuer::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  SelfSignedIssuer s;
  s.crl_distribution_points = codec::read_strings(o, "crlDistributionPoints", path);
  return s;
}

json::Value SelfSignedIssuer::to_json() const {
  json::Object o;
  codec::put_strings(o, "crlDistributionPoints", crl_distribution_points);
  return o;
}

CAIssuer CAIssuer::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  CAIssuer c;
  c.secret_name = codec::read_string(o, "secretName", path);
  c.crl_distribution_points = codec::read_strings(o, "crlDistributionPoints", path);
  c.ocsp_servers = codec::read_strings(o, "ocspServers", path);
  c.issuing_certificate_urls = codec::read_strings(o, "issuingCertificateURLs", path);
  return c;
}

json::Value CAIssuer::to_json() const {
  json::Object o;
  o["secretName"] = secret_name;
  codec::put_strings(o, "crlDistributionPoints", crl_distribution_points);
  codec::put_strings(o, "ocspServers", ocsp_servers);
  codec::put_strings(o, "issuingCertificateURLs", issuing_certificate_urls);
  return o;
}

CertificateDnsNameSelector CertificateDnsNameSelector::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  CertificateDnsNameSelector s;
  s.match_labels = codec::read_string_map(o, "matchLabels", path);
  s.dns_names = codec::read_strings(o, "dnsNames", path);
  s.dns_zones = codec::read_strings(o, "dnsZones", path);
  return s;
}

json::Value CertificateDnsNameSelector::to_json() const {
  json::Object o;
  codec::put_string_map(o, "matchLabels", match_labels);
  codec::put_strings(o, "dnsNames", dns_names);
  codec::put_strings(o, "dnsZones", dns_zones);
  return o;
}

Http01IngressSolver Http01IngressSolver::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  Http01IngressSolver s;
  s.class_ = codec::read_optional_string(o, "class", path);
  s.ingress_class_name = codec::read_optional_string(o, "ingressClassName", path);
  s.name = codec::read_string(o, "name", path);
  s.service_type = codec::read_string(o, "serviceType", path);
  s.pod_template = codec::read_raw(o, "podTemplate");
  s.ingress_template = codec::read_raw(o, "ingressTemplate");
  return s;
}

json::Value Http01IngressSolver::to_json() const {
  json::Object o;
  if (class_) o["class"] = *class_;
  if (ingress_class_name) o["ingressClassName"] = *ingress_class_name;
  codec::put_string(o, "name", name);
  codec::put_string(o, "serviceType", service_type);
  if (pod_template) o["podTemplate"] = *pod_template;
  if (ingress_template) o["ingressTemplate"] = *ingress_template;
  return o;
}

Http01Solver Http01Solver::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  Http01Solver s;
  if (const auto* i = codec::read_object(o, "ingress", path)) s.ingress = Http01IngressSolver::from_json(*i, child(path, "ingress"));
  return s;
}

json::Value Http01Solver::to_json() const {
  json::Object o;
  if (ingress) o["ingress"] = ingress->to_json();
  return o;
}

AcmeChallengeSolver AcmeChallengeSolver::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  AcmeChallengeSolver s;
  if (const auto* sel = codec::read_object(o, "selector", path))
    s.selector = CertificateDnsNameSelector::from_json(*sel, child(path, "selector"));
  if (const auto* h = codec::read_object(o, "http01", path)) s.http01 = Http01Solver::from_json(*h, child(path, "http01"));
  s.dns01 = codec::read_raw(o, "dns01");
  return s;
}

json::Value AcmeChallengeSolver::to_json() const {
  json::Object o;
  if (selector) o["selector"] = selector->to_json();
  if (http01) o["http01"] = http01->to_json();
  if (dns01) o["dns01"] = *dns01;
  return o;
}

AcmeIssuer AcmeIssuer::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  AcmeIssuer a;
  a.server = codec::read_string(o, "server", path);
  a.email = codec::read_string(o, "email", path);
  if (const auto* k = codec::read_object(o, "privateKeySecretRef", path))
    a.private_key_secret_ref = SecretKeySelector::from_json(*k, child(path, "privateKeySecretRef"));
  a.skip_tls_verify = codec::read_bool(o, "skipTLSVerify", path);
  a.ca_bundle = codec::read_bytes(o, "caBundle", path);
  a.preferred_chain = codec::read_string(o, "preferredChain", path);
  a.disable_account_key_generation = codec::read_bool(o, "disableAccountKeyGeneration", path);
  if (const auto* solvers = codec::member(o, "solvers")) {
    std::string sp = child(path, "solvers");
    if (!solvers->is_array()) throw DecodeError(sp + ": expected an array of solvers");
    const auto& arr = solvers->get_array();
    for (std::size_t i = 0; i < arr.size(); ++i) a.solvers.push_back(AcmeChallengeSolver::from_json(arr[i], codec::index(sp, i)));
  }
  return a;
}

json::Value AcmeIssuer::to_json() const {
  json::Object o;
  o["server"] = server;
  codec::put_string(o, "email", email);
  o["privateKeySecretRef"] = private_key_secret_ref.to_json();
  codec::put_true(o, "skipTLSVerify", skip_tls_verify);
  codec::put_bytes(o, "caBundle", ca_bundle);
  codec::put_string(o, "preferredChain", preferred_chain);
  codec::put_true(o, "disableAccountKeyGeneration", disable_account_key_generation);
  if (!solvers.empty()) {
    json::Array a;
    for (const auto& s : solvers) a.push_back(s.to_json());
    o["solvers"] = std::move(a);
  }
  return o;
}

IssuerSpec IssuerSpec::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  IssuerSpec s;
  if (const auto* a = codec::read_object(o, "acme", path)) s.acme = AcmeIssuer::from_json(*a, child(path, "acme"));
  if (const auto* c = codec::read_object(o, "ca", path)) s.ca = CAIssuer::from_json(*c, child(path, "ca"));
  if (const auto* ss = codec::read_object(o, "selfSigned", path))
    s.self_signed = SelfSignedIssuer::from_json(*ss, child(path, "selfSigned"));
  return s;
}

json::Value IssuerSpec::to_json() const {
  json::Object o;
  if (acme) o["acme"] = acme->to_json();
  if (ca) o["ca"] = ca->to_json();
  if (self_signed) o["selfSigned"] = self_signed->to_json();
  return o;
}

AcmeIssuerStatus AcmeIssuerStatus::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  AcmeIssuerStatus s;
  s.uri = codec::read_string(o, "uri", path);
  s.last_registered_email = codec::read_string(o, "lastRegisteredEmail", path);
  s.last_private_key_hash = codec::read_string(o, "lastPrivateKeyHash", path);
  return s;
}

json::Value AcmeIssuerStatus::to_json() const {
  json::Object o;
  codec::put_string(o, "uri", uri);
  codec::put_string(o, "lastRegisteredEmail", last_registered_email);
  codec::put_string(o, "lastPrivateKeyHash", last_private_key_hash);
  return o;
}

IssuerStatus IssuerStatus::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  IssuerStatus s;
  s.conditions = conditions_from_json(codec::member(o, "conditions"), child(path, "conditions"));
  if (const auto* a = codec::read_object(o, "acme", path)) s.acme = AcmeIssuerStatus::from_json(*a, child(path, "acme"));
  return s;
}

json::Value IssuerStatus::to_json() const {
  json::Object o;
  if (!conditions.empty()) o["conditions"] = conditions_to_json(conditions);
  if (acme) o["acme"] = acme->to_json();
  return o;
}

Issuer Issuer::from_json(const json::Value& obj) {
  const auto& o = codec::as_object(obj, "Issuer");
  Issuer i;
  std::string kind = codec::read_string(o, "kind", "");
  if (!kind.empty()) i.kind = kind;
  if (const auto* m = codec::read_object(o, "metadata", "")) i.metadata = *m;
  i.spec = IssuerSpec::from_json(codec::member(o, "spec") ? o.at("spec") : json::Value(), "spec");
  i.status = IssuerStatus::from_json(codec::member(o, "status") ? o.at("status") : json::Value(), "status");
  return i;
}

json::Value Issuer::to_json() const {
  json::Object o;
  o["apiVersion"] = kApiVersion;
  o["kind"] = kind;
  o["metadata"] = metadata;
  o["spec"] = spec.to_json();
  json::Value st = status.to_json();
  if (!st.get_object().empty()) o["status"] = std::move(st);
  return o;
}

std::string_view Issuer::name() const { return json::get_string(metadata, {"name"}); }
std::string_view Issuer::namespace_() const { return json::get_string(metadata, {"namespace"}); }

}  // namespace capstan::apis::certs::v1
