#include "controllers/certificates/policies/match.h"

#include "apis/certs/v1/defaults.h"
#include "controllers/certificates/request_builder.h"
#include "runtime/pki/dn.h"
#include "runtime/pki/error.h"
#include "runtime/pki/usage.h"

#include <arpa/inet.h>

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

namespace capstan::certificates::policies {

bool equal_unsorted(std::vector<std::string> a, std::vector<std::string> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

std::vector<std::string> normalise_ips(const std::vector<std::string>& ips) {
  std::vector<std::string> out;
  out.reserve(ips.size());
  for (const auto& ip : ips) {
    unsigned char buf[16];
    char text[INET6_ADDRSTRLEN];
    if (::inet_pton(AF_INET, ip.c_str(), buf) == 1 && ::inet_ntop(AF_INET, buf, text, sizeof text)) {
      out.emplace_back(text);
    } else if (::inet_pton(AF_INET6, ip.c_str(), buf) == 1 && ::inet_ntop(AF_INET6, buf, text, sizeof text)) {
      out.emplace_back(text);
    } else {
      out.push_back(ip);
    }
  }
  return out;
}

std::vector<std::string> normalise_usages(const std::vector<std::string>& usages) {
  try {
    auto names = pki::usage_names(pki::parse_usages(usages));
    std::sort(names.begin(), names.end());
    return names;
  } catch (const pki::PkiError&) {
    auto copy = usages;
    std::sort(copy.begin(), copy.end());
    return copy;
  }
}

std::vector<std::string> private_key_matches_spec(const pki::PrivateKey& key, const v1::CertificateSpec& spec) {
  auto want = v1::effective_key_algorithm(spec);
  if (key.algorithm() != want) return {"spec.privateKey.algorithm"};
  if (want == pki::KeyAlgorithm::Ed25519) return {};
  if (key.size() != v1::effective_key_size(spec)) return {"spec.privateKey.size"};
  return {};
}

namespace {

// RDNs in order, the attributes of each as a set (DER sorts a SET OF).
pki::NameSequence sets_sorted(pki::NameSequence seq) {
  for (auto& rdn : seq)
    std::sort(rdn.begin(), rdn.end(), [](const auto& a, const auto& b) { return std::tie(a.oid, a.value) < std::tie(b.oid, b.value); });
  return seq;
}

bool literal_subject_matches(const pki::CertificateRequest& csr, const std::string& literal) {
  try {
    return sets_sorted(csr.subject_sequence()) == sets_sorted(pki::parse_distinguished_name(literal));
  } catch (const pki::PkiError&) {
    return false;  // the webhook refuses it; a request can never match it
  }
}

bool other_names_match(std::vector<pki::OtherName> got, const std::vector<v1::OtherName>& spec) {
  std::vector<pki::OtherName> want;
  for (const auto& o : spec) want.push_back({o.oid, o.utf8_value});
  auto less = [](const auto& a, const auto& b) { return std::tie(a.oid, a.utf8_value) < std::tie(b.oid, b.utf8_value); };
  std::sort(got.begin(), got.end(), less);
  std::sort(want.begin(), want.end(), less);
  return got == want;
}

// Lists compared as sets, CIDRs in canonical form.
std::optional<pki::NameConstraints> normalised(std::optional<pki::NameConstraints> nc) {
  if (!nc) return nc;
  for (auto* side : {&nc->permitted, &nc->excluded}) {
    for (auto& cidr : side->ip_ranges) {
      try {
        cidr = pki::canonical_cidr(cidr);
      } catch (const pki::PkiError&) {
      }
    }
    for (auto* list : {&side->dns_domains, &side->ip_ranges, &side->email_addresses, &side->uri_domains})
      std::sort(list->begin(), list->end());
  }
  if (nc->permitted.empty() && nc->excluded.empty()) return std::nullopt;  // no extension is written for it
  return nc;
}

bool signature_matches(const pki::CertificateRequest& csr, const v1::CertificateSpec& spec) {
  try {
    auto want = signature_for(spec);
    if (!spec.signature_algorithm.empty() && csr.public_key().algorithm() != want.key) return false;
    return pki::resolve_hash(csr.public_key(), want.hash) == pki::resolve_hash(csr.public_key(), csr.signature_hash());
  } catch (const pki::PkiError&) {
    return false;
  }
}

}  // namespace

std::vector<std::string> csr_matches_spec(const pki::CertificateRequest& csr, const v1::CertificateSpec& spec) {
  const auto& f = csr.fields();
  v1::X509Subject subject = spec.subject.value_or(v1::X509Subject{});
  std::vector<std::string> v;
  if (!equal_unsorted(normalise_ips(f.ip_addresses), normalise_ips(spec.ip_addresses))) v.emplace_back("spec.ipAddresses");
  if (!equal_unsorted(f.uris, spec.uris)) v.emplace_back("spec.uris");
  if (!equal_unsorted(f.email_addresses, spec.email_addresses)) v.emplace_back("spec.emailAddresses");
  if (!equal_unsorted(f.dns_names, spec.dns_names)) v.emplace_back("spec.dnsNames");
  // Unlike cert-manager (only when spec.otherNames is set), also when they were removed.
  if (!other_names_match(f.other_names, spec.other_names)) v.emplace_back("spec.otherNames");
  // Not compared by cert-manager's RequestMatchesSpec: a changed signature algorithm or name
  // constraints would otherwise never reach the issued certificate.
  if (!signature_matches(csr, spec)) v.emplace_back("spec.signatureAlgorithm");
  if (normalised(f.name_constraints) != normalised(name_constraints_for(spec))) v.emplace_back("spec.nameConstraints");
  if (!spec.literal_subject.empty()) {
    if (!literal_subject_matches(csr, spec.literal_subject)) v.emplace_back("spec.literalSubject");
    return v;
  }
  if (f.subject.common_name != spec.common_name) v.emplace_back("spec.commonName");
  if (f.subject.serial_number != subject.serial_number) v.emplace_back("spec.subject.serialNumber");
  if (!equal_unsorted(f.subject.organizations, subject.organizations)) v.emplace_back("spec.subject.organizations");
  if (!equal_unsorted(f.subject.countries, subject.countries)) v.emplace_back("spec.subject.countries");
  if (!equal_unsorted(f.subject.localities, subject.localities)) v.emplace_back("spec.subject.localities");
  if (!equal_unsorted(f.subject.organizational_units, subject.organizational_units))
    v.emplace_back("spec.subject.organizationalUnits");
  if (!equal_unsorted(f.subject.postal_codes, subject.postal_codes)) v.emplace_back("spec.subject.postalCodes");
  if (!equal_unsorted(f.subject.provinces, subject.provinces)) v.emplace_back("spec.subject.provinces");
  if (!equal_unsorted(f.subject.street_addresses, subject.street_addresses)) v.emplace_back("spec.subject.streetAddresses");
  return v;
}

std::vector<std::string> request_matches_spec(const v1::CertificateRequest& request, const v1::CertificateSpec& spec) {
  auto csr = pki::CertificateRequest::parse(request.spec.request);
  auto v = csr_matches_spec(csr, spec);
  if (request.spec.is_ca != spec.is_ca) v.emplace_back("spec.isCA");
  std::vector<std::string> req_usages = request.spec.usages;
  if (req_usages.empty()) req_usages = pki::default_usages();
  if (request.spec.is_ca && std::find(req_usages.begin(), req_usages.end(), "cert sign") == req_usages.end())
    req_usages.emplace_back("cert sign");
  if (normalise_usages(req_usages) != normalise_usages(v1::effective_usages(spec))) v.emplace_back("spec.usages");
  if (request.spec.duration && *request.spec.duration != v1::effective_duration(spec)) v.emplace_back("spec.duration");
  if (!(v1::effective_issuer_ref(request.spec.issuer_ref) == v1::effective_issuer_ref(spec.issuer_ref)))
    v.emplace_back("spec.issuerRef");
  return v;
}

std::vector<std::string> certificate_matches_spec(const pki::Certificate& cert, const v1::CertificateSpec& spec) {
  std::vector<std::string> v;
  std::set<std::string> expected(spec.dns_names.begin(), spec.dns_names.end());
  if (!spec.common_name.empty()) expected.insert(spec.common_name);
  std::set<std::string> all(cert.dns_names().begin(), cert.dns_names().end());
  const std::string& cn = cert.subject().common_name;
  if (!cn.empty()) all.insert(cn);
  if (all != expected) {
    if ((!spec.common_name.empty() && !all.count(spec.common_name)) || (!cn.empty() && !expected.count(cn)))
      v.emplace_back("spec.commonName");
    bool dns_ok = std::all_of(spec.dns_names.begin(), spec.dns_names.end(), [&](const auto& n) { return all.count(n) > 0; }) &&
                  std::all_of(cert.dns_names().begin(), cert.dns_names().end(), [&](const auto& n) { return expected.count(n) > 0; });
    if (!dns_ok) v.emplace_back("spec.dnsNames");
  }
  if (!equal_unsorted(normalise_ips(cert.ip_addresses()), normalise_ips(spec.ip_addresses))) v.emplace_back("spec.ipAddresses");
  if (!equal_unsorted(cert.uris(), spec.uris)) v.emplace_back("spec.uris");
  if (!equal_unsorted(cert.email_addresses(), spec.email_addresses)) v.emplace_back("spec.emailAddresses");
  return v;
}

}  // namespace capstan::certificates::policies
