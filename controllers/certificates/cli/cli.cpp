#include "controllers/certificates/cli/cli.h"

#include "apis/certs/v1/group.h"
#include "apis/certs/v1/issuing.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/objects.h"
#include "controllers/certificates/secret_view.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/core_types.h"
#include "runtime/meta/object.h"
#include "runtime/meta/time.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/error.h"
#include "runtime/pki/key.h"
#include "runtime/pki/verify.h"

#include <sstream>

namespace capstan::certificates::cli {
namespace {

namespace v1 = apis::certs::v1;
constexpr int kConflictRetries = 5;

json::Value get_or_explain(client::Client& c, const meta::GroupVersionResource& gvr, std::string_view kind, const std::string& ns,
                           const std::string& name) {
  try {
    return c.get(gvr, ns, name);
  } catch (const client::ApiError& e) {
    if (client::is_not_found(e)) throw CliError(std::string(kind) + " " + ns + "/" + name + " not found");
    throw;
  }
}

json::Array& conditions_of(json::Value& obj) {
  auto& status = json::ensure_object(obj, {"status"});
  if (!status.contains("conditions") || !status["conditions"].is_array()) status["conditions"] = json::Array{};
  return status["conditions"].as_array();
}

json::Value condition(std::string_view type, std::string_view reason, std::string_view message, std::int64_t generation) {
  json::Object c{{"type", type},
                 {"status", "True"},
                 {"reason", reason},
                 {"message", message},
                 {"lastTransitionTime", meta::format_rfc3339(meta::Clock::now())}};
  if (generation > 0) c["observedGeneration"] = generation;
  return c;
}

// Read-modify-write of a status with the object's resourceVersion; `change` returns "" when it
// changed the object, else why nothing was written.
template <class Change>
std::string update_status(client::Client& c, const meta::GroupVersionResource& gvr, std::string_view kind, const std::string& ns,
                          const std::string& name, Change change) {
  for (int attempt = 0;; ++attempt) {
    json::Value obj = get_or_explain(c, gvr, kind, ns, name);
    if (std::string why = change(obj); !why.empty()) return why;
    try {
      c.update_status(gvr, ns, obj);
      return "";
    } catch (const client::ApiError& e) {
      if (!client::is_conflict(e) || attempt + 1 >= kConflictRetries) throw;
    }
  }
}

std::string renew_one(client::Client& c, const std::string& ns, const std::string& name) {
  std::string why = update_status(c, kCertificateType.gvr, "Certificate", ns, name, [](json::Value& obj) -> std::string {
    if (meta::condition_true(obj, v1::condition::kIssuing)) return "is already being issued";
    v1::set_issuing(obj, "ManuallyTriggered", "Certificate re-issuance manually triggered");
    return "";
  });
  return why.empty() ? "Manually triggered issuance of Certificate " + ns + "/" + name : "Certificate " + ns + "/" + name + " " + why;
}

std::string time_or_empty(const json::Value& obj, std::initializer_list<std::string_view> path) {
  return std::string(json::get_string(obj, path));
}

json::Value conditions_summary(const json::Value& obj) {
  json::Array out;
  if (const json::Array* conds = json::get_array(obj, {"status", "conditions"}))
    for (const auto& c : *conds)
      out.push_back(json::Object{{"type", json::get_string(c, {"type"})},
                                 {"status", json::get_string(c, {"status"})},
                                 {"reason", json::get_string(c, {"reason"})},
                                 {"message", json::get_string(c, {"message"})}});
  return out;
}

json::Value strings(const std::vector<std::string>& v) {
  json::Array a;
  for (const auto& s : v) a.push_back(json::Value(s));
  return a;
}

json::Value describe(const pki::Certificate& cert) {
  auto key = cert.public_key();
  return json::Object{{"subject", cert.subject_dn()},
                      {"issuer", cert.issuer_dn()},
                      {"serialNumber", cert.serial_hex()},
                      {"notBefore", meta::format_rfc3339(cert.not_before())},
                      {"notAfter", meta::format_rfc3339(cert.not_after())},
                      {"isCA", cert.is_ca()},
                      {"dnsNames", strings(cert.dns_names())},
                      {"ipAddresses", strings(cert.ip_addresses())},
                      {"uris", strings(cert.uris())},
                      {"emailAddresses", strings(cert.email_addresses())},
                      {"usages", strings(cert.usages())},
                      {"signatureAlgorithm", cert.signature_algorithm()},
                      {"publicKey", std::string(pki::algorithm_name(key.algorithm())) + " " + std::to_string(key.size())},
                      {"sha256Fingerprint", cert.fingerprint_sha256()}};
}

std::string secret_data(const json::Value& secret, std::string_view key) {
  return meta::base64_decode(json::get_string(secret, {"data", key})).value_or("");
}

void line(std::ostringstream& out, int indent, std::string_view label, std::string_view value) {
  if (value.empty()) return;
  out << std::string(static_cast<std::size_t>(indent), ' ') << label << ": " << value << "\n";
}

void list(std::ostringstream& out, int indent, std::string_view label, const json::Value* values) {
  if (!values || !values->is_array() || values->get_array().empty()) return;
  out << std::string(static_cast<std::size_t>(indent), ' ') << label << ":";
  const char* sep = " ";
  for (const auto& v : values->get_array()) {
    out << sep << std::string_view(v.get_string());
    sep = ", ";
  }
  out << "\n";
}

void conditions(std::ostringstream& out, int indent, const json::Value* conds) {
  if (!conds || !conds->is_array()) return;
  for (const auto& c : conds->get_array()) {
    out << std::string(static_cast<std::size_t>(indent), ' ') << json::get_string(c, {"type"}) << ": "
        << json::get_string(c, {"status"});
    if (auto r = json::get_string(c, {"reason"}); !r.empty()) out << " (" << r << ")";
    if (auto m = json::get_string(c, {"message"}); !m.empty()) out << " " << m;
    out << "\n";
  }
}

void certificate_lines(std::ostringstream& out, int indent, const json::Value& d) {
  line(out, indent, "Subject", json::get_string(d, {"subject"}));
  line(out, indent, "Issuer", json::get_string(d, {"issuer"}));
  line(out, indent, "Serial number", json::get_string(d, {"serialNumber"}));
  line(out, indent, "Not before", json::get_string(d, {"notBefore"}));
  line(out, indent, "Not after", json::get_string(d, {"notAfter"}));
  line(out, indent, "CA", json::get_bool(d, {"isCA"}) ? "yes" : "no");
  list(out, indent, "DNS names", json::find(d, {"dnsNames"}));
  list(out, indent, "IP addresses", json::find(d, {"ipAddresses"}));
  list(out, indent, "URIs", json::find(d, {"uris"}));
  list(out, indent, "Email addresses", json::find(d, {"emailAddresses"}));
  list(out, indent, "Usages", json::find(d, {"usages"}));
  line(out, indent, "Public key", json::get_string(d, {"publicKey"}));
  line(out, indent, "Signature algorithm", json::get_string(d, {"signatureAlgorithm"}));
  line(out, indent, "SHA-256 fingerprint", json::get_string(d, {"sha256Fingerprint"}));
}

}  // namespace

std::vector<std::string> renew(client::Client& c, const std::string& ns, const std::vector<std::string>& names, bool all) {
  std::vector<std::string> out;
  if (all) {
    for (const auto& item : c.list(kCertificateType.gvr, ns).items)
      out.push_back(renew_one(c, std::string(meta::namespace_of(item)), std::string(meta::name_of(item))));
    if (out.empty()) out.push_back("No Certificates found" + (ns.empty() ? std::string() : " in namespace " + ns));
    return out;
  }
  if (names.empty()) throw CliError("name the Certificates to renew, or use --all");
  for (const auto& n : names) out.push_back(renew_one(c, ns, n));
  return out;
}

std::string decide(client::Client& c, const std::string& ns, const std::string& name, bool approve, const std::string& reason,
                   const std::string& message) {
  std::string why = update_status(c, kCertificateRequestType.gvr, "CertificateRequest", ns, name, [&](json::Value& obj) -> std::string {
    for (auto type : {v1::condition::kApproved, v1::condition::kDenied})
      if (meta::condition_true(obj, type))
        return "is already " + std::string(type == v1::condition::kApproved ? "approved" : "denied");
    conditions_of(obj).push_back(condition(approve ? v1::condition::kApproved : v1::condition::kDenied, reason, message, 0));
    return "";
  });
  if (!why.empty()) throw CliError("CertificateRequest " + ns + "/" + name + " " + why);
  return std::string(approve ? "Approved" : "Denied") + " CertificateRequest " + ns + "/" + name;
}

json::Value certificate_status(client::Client& c, const std::string& ns, const std::string& name) {
  json::Value crt = get_or_explain(c, kCertificateType.gvr, "Certificate", ns, name);
  json::Object out{{"name", name},
                   {"namespace", ns},
                   {"conditions", conditions_summary(crt)},
                   {"dnsNames", json::find(crt, {"spec", "dnsNames"}) ? *json::find(crt, {"spec", "dnsNames"}) : json::Array{}},
                   {"notBefore", time_or_empty(crt, {"status", "notBefore"})},
                   {"notAfter", time_or_empty(crt, {"status", "notAfter"})},
                   {"renewalTime", time_or_empty(crt, {"status", "renewalTime"})},
                   {"revision", json::get_int(crt, {"status", "revision"}).value_or(0)}};
  // The issuer and its readiness.
  std::string issuer_name(json::get_string(crt, {"spec", "issuerRef", "name"}));
  std::string issuer_kind(json::get_string(crt, {"spec", "issuerRef", "kind"}, "Issuer"));
  json::Object issuer{{"name", issuer_name}, {"kind", issuer_kind}};
  try {
    const bool cluster = issuer_kind == v1::kClusterIssuerKind;
    json::Value obj = c.get(cluster ? kClusterIssuerType.gvr : kIssuerType.gvr, cluster ? "" : ns, issuer_name);
    issuer["conditions"] = conditions_summary(obj);
  } catch (const client::ApiError& e) {
    issuer["error"] = client::is_not_found(e) ? std::string("not found") : std::string(e.what());
  }
  out["issuer"] = std::move(issuer);
  // The Secret's certificate.
  std::string secret_name(json::get_string(crt, {"spec", "secretName"}));
  json::Object secret{{"name", secret_name}};
  try {
    json::Value s = c.get(meta::core::kSecretType.gvr, ns, secret_name);
    secret["certificate"] = describe(pki::Certificate::parse_pem(secret_data(s, kTlsCrt)));
  } catch (const client::ApiError& e) {
    secret["error"] = client::is_not_found(e) ? std::string("not found") : std::string(e.what());
  } catch (const pki::PkiError& e) {
    secret["error"] = std::string("tls.crt: ") + e.what();
  }
  out["secret"] = std::move(secret);
  // Its CertificateRequests (the current revision's and the next one's).
  json::Array requests;
  const std::string uid(meta::uid_of(crt));
  for (const auto& cr : c.list(kCertificateRequestType.gvr, ns).items) {
    auto owner = meta::controller_of(cr);
    if (!owner || owner->uid != uid) continue;
    requests.push_back(json::Object{{"name", meta::name_of(cr)},
                                    {"revision", meta::annotation(cr, annotation::kRevision)},
                                    {"conditions", conditions_summary(cr)}});
  }
  out["certificateRequests"] = std::move(requests);
  return out;
}

std::string format_status(const json::Value& s) {
  std::ostringstream out;
  line(out, 0, "Name", json::get_string(s, {"name"}));
  line(out, 0, "Namespace", json::get_string(s, {"namespace"}));
  out << "Conditions:\n";
  conditions(out, 2, json::find(s, {"conditions"}));
  list(out, 0, "DNS names", json::find(s, {"dnsNames"}));
  line(out, 0, "Not before", json::get_string(s, {"notBefore"}));
  line(out, 0, "Not after", json::get_string(s, {"notAfter"}));
  line(out, 0, "Renewal time", json::get_string(s, {"renewalTime"}));
  if (auto r = json::get_int(s, {"revision"}).value_or(0); r > 0) line(out, 0, "Revision", std::to_string(r));
  out << "Issuer:\n";
  line(out, 2, "Name", json::get_string(s, {"issuer", "name"}));
  line(out, 2, "Kind", json::get_string(s, {"issuer", "kind"}));
  line(out, 2, "Error", json::get_string(s, {"issuer", "error"}));
  conditions(out, 2, json::find(s, {"issuer", "conditions"}));
  out << "Secret:\n";
  line(out, 2, "Name", json::get_string(s, {"secret", "name"}));
  line(out, 2, "Error", json::get_string(s, {"secret", "error"}));
  if (const auto* cert = json::find(s, {"secret", "certificate"})) certificate_lines(out, 2, *cert);
  if (const json::Array* crs = json::get_array(s, {"certificateRequests"}); crs && !crs->empty()) {
    out << "CertificateRequests:\n";
    for (const auto& cr : *crs) {
      out << "  " << json::get_string(cr, {"name"}) << " (revision " << json::get_string(cr, {"revision"}) << ")\n";
      conditions(out, 4, json::find(cr, {"conditions"}));
    }
  }
  return out.str();
}

json::Value inspect_secret(client::Client& c, const std::string& ns, const std::string& name) {
  json::Value secret = get_or_explain(c, meta::core::kSecretType.gvr, "Secret", ns, name);
  std::vector<pki::Certificate> chain, roots;
  try {
    chain = pki::Certificate::parse_chain(secret_data(secret, kTlsCrt));
  } catch (const pki::PkiError& e) {
    throw CliError("Secret " + ns + "/" + name + ": tls.crt: " + e.what());
  }
  if (chain.empty()) throw CliError("Secret " + ns + "/" + name + " has no certificate in tls.crt");
  json::Array certs;
  for (const auto& cert : chain) certs.push_back(describe(cert));
  json::Object out{{"name", name}, {"namespace", ns}, {"certificates", std::move(certs)}};
  const std::string ca = secret_data(secret, kCaCrt);
  if (!ca.empty()) {
    try {
      roots = pki::Certificate::parse_chain(ca);
      auto result = pki::verify_chain(chain.front(), std::vector<pki::Certificate>(chain.begin() + 1, chain.end()), roots);
      out["verifiedByCa"] = result.ok;
      if (!result.ok) out["verifyError"] = result.error;
    } catch (const pki::PkiError& e) {
      out["verifiedByCa"] = false;
      out["verifyError"] = std::string("ca.crt: ") + e.what();
    }
  }
  if (const auto* key = json::find(secret, {"data", kTlsKey}); key && key->is_string()) {
    try {
      out["keyMatches"] = pki::PrivateKey::from_pem(secret_data(secret, kTlsKey)).matches(chain.front());
    } catch (const pki::PkiError&) {
      out["keyMatches"] = false;
    }
  }
  return out;
}

std::string format_inspection(const json::Value& s) {
  std::ostringstream out;
  line(out, 0, "Secret", std::string(json::get_string(s, {"namespace"})) + "/" + std::string(json::get_string(s, {"name"})));
  if (const auto* ok = json::find(s, {"verifiedByCa"})) {
    line(out, 0, "Chain verified by ca.crt", ok->as_bool() ? "yes" : "no");
    line(out, 2, "Error", json::get_string(s, {"verifyError"}));
  }
  if (const auto* k = json::find(s, {"keyMatches"})) line(out, 0, "tls.key matches the certificate", k->as_bool() ? "yes" : "no");
  const json::Array* certs = json::get_array(s, {"certificates"});
  for (std::size_t i = 0; certs && i < certs->size(); ++i) {
    out << (i == 0 ? "Certificate:\n" : "Chain certificate " + std::to_string(i) + ":\n");
    certificate_lines(out, 2, (*certs)[i]);
  }
  return out.str();
}

}  // namespace capstan::certificates::cli
