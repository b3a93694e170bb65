#include "controllers/certificates/policies/match.h"

#include "apis/certs/v1/defaults.h"
#include "runtime/pki/error.h"
#include "runtime/pki/usage.h"

#include <arpa/inet.h>

#include <algorithm>
#include <set>

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

std::vector<std::string> csr_matches_spec(const pki::CertificateRequest& csr, const v1::CertificateSpec& spec) {
  const auto& f = csr.fields();
  v1::X509Subject subject = spec.subject.value_or(v1::X509Subject{});
  std::vector<std::string> v;
  if (!equal_unsorted(normalise_ips(f.ip_addresses), normalise_ips(spec.ip_addresses))) v.emplace_back("spec.ipAddresses");
  if (!equal_unsorted(f.uris, spec.uris)) v.emplace_back("spec.uris");
  if (!equal_unsorted(f.email_addresses, spec.email_addresses)) v.emplace_back("spec.emailAddresses");
  if (!equal_unsorted(f.dns_names, spec.dns_names)) v.emplace_back("spec.dnsNames");
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
