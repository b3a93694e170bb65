// Signing certificates (self-signed and CA-signed) and the API server's conveniences.
#include "runtime/pki/sign.h"

#include <arpa/inet.h>

#include "runtime/pki/detail.h"

namespace capstan::pki {
namespace {

constexpr std::string_view kSign = "signing certificate";

// Key identifier as Go computes it (RFC 5280 4.2.1.2 method 1): SHA-1 of the public key bits.
std::string key_id(const X509* cert) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (X509_pubkey_digest(cert, EVP_sha1(), md, &len) != 1) detail::fail(kSign, "computing key identifier");
  return std::string(reinterpret_cast<char*>(md), len);
}

void set_random_serial(X509* x) {
  detail::BnPtr bn(BN_new());
  if (!bn) detail::fail(kSign, "allocating serial number");
  do {
    if (BN_rand(bn.get(), 128, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1)
      detail::fail(kSign, "generating serial number");
  } while (BN_is_zero(bn.get()));
  if (!BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(x))) detail::fail(kSign, "setting serial number");
}

// A URI GeneralName (owned by the caller).
GENERAL_NAME* uri_name(const std::string& url) {
  GENERAL_NAME* gn = GENERAL_NAME_new();
  ASN1_IA5STRING* text = ASN1_IA5STRING_new();
  if (!gn || !text || ASN1_STRING_set(text, url.data(), static_cast<int>(url.size())) != 1) {
    GENERAL_NAME_free(gn);
    ASN1_IA5STRING_free(text);
    detail::fail(kSign, "building a URI name");
  }
  GENERAL_NAME_set0_value(gn, GEN_URI, text);
  return gn;
}

// crlDistributionPoints and authorityInfoAccess from what the issuer publishes.
void add_issuer_urls(X509* x, const SignOptions& o) {
  if (!o.crl_distribution_points.empty()) {
    std::unique_ptr<CRL_DIST_POINTS, decltype(&CRL_DIST_POINTS_free)> points(sk_DIST_POINT_new_null(), CRL_DIST_POINTS_free);
    for (const auto& url : o.crl_distribution_points) {
      DIST_POINT* point = DIST_POINT_new();
      if (!point || sk_DIST_POINT_push(points.get(), point) == 0) {
        DIST_POINT_free(point);
        detail::fail(kSign, "building crlDistributionPoints");
      }
      point->distpoint = DIST_POINT_NAME_new();
      if (!point->distpoint) detail::fail(kSign, "building crlDistributionPoints");
      point->distpoint->type = 0;  // fullName
      point->distpoint->name.fullname = sk_GENERAL_NAME_new_null();
      if (!point->distpoint->name.fullname) detail::fail(kSign, "building crlDistributionPoints");
      GENERAL_NAME* name = uri_name(url);
      if (sk_GENERAL_NAME_push(point->distpoint->name.fullname, name) == 0) {
        GENERAL_NAME_free(name);
        detail::fail(kSign, "building crlDistributionPoints");
      }
    }
    if (X509_add1_ext_i2d(x, NID_crl_distribution_points, points.get(), 0, X509V3_ADD_DEFAULT) != 1)
      detail::fail(kSign, "adding crlDistributionPoints");
  }
  if (o.ocsp_servers.empty() && o.issuing_certificate_urls.empty()) return;
  std::unique_ptr<AUTHORITY_INFO_ACCESS, decltype(&AUTHORITY_INFO_ACCESS_free)> access(sk_ACCESS_DESCRIPTION_new_null(),
                                                                                     AUTHORITY_INFO_ACCESS_free);
  auto add = [&](int method, const std::string& url) {
    ACCESS_DESCRIPTION* ad = ACCESS_DESCRIPTION_new();
    if (!ad || sk_ACCESS_DESCRIPTION_push(access.get(), ad) == 0) {
      ACCESS_DESCRIPTION_free(ad);
      detail::fail(kSign, "building authorityInfoAccess");
    }
    ASN1_OBJECT_free(ad->method);
    ad->method = OBJ_nid2obj(method);
    GENERAL_NAME_free(ad->location);
    ad->location = uri_name(url);
  };
  for (const auto& url : o.ocsp_servers) add(NID_ad_OCSP, url);
  for (const auto& url : o.issuing_certificate_urls) add(NID_ad_ca_issuers, url);
  if (X509_add1_ext_i2d(x, NID_info_access, access.get(), 0, X509V3_ADD_DEFAULT) != 1) detail::fail(kSign, "adding authorityInfoAccess");
}

// sign() with the subject given as a name (a CSR's, copied as is) instead of built from the
// template, when `subject_name` is not null.
Certificate sign_with_subject(const CertificateTemplate& tmpl, const X509_NAME* subject_name, const PublicKey& subject_key,
                              const Certificate* issuer, const PrivateKey& issuer_key,
                              std::optional<std::chrono::seconds> duration, const SignOptions& options) {
  EVP_PKEY* subject_pkey = detail::Access::pkey(subject_key);
  EVP_PKEY* signer = detail::Access::pkey(issuer_key);
  X509* issuer_x509 = issuer ? detail::Access::x509(*issuer) : nullptr;
  if (!issuer && !issuer_key.matches(subject_key))
    throw PkiError("signing self-signed certificate: the subject public key is not the signing key's");
  if (issuer && !issuer_key.matches(*issuer))
    throw PkiError("signing certificate: the issuer private key does not match the issuer certificate");
  bool subject_empty = subject_name ? X509_NAME_entry_count(subject_name) == 0 : tmpl.subject_empty();
  if (subject_empty && !tmpl.has_sans())
    throw PkiError("signing certificate: the certificate has neither a subject nor subject alternative names");
  Usages usages = effective_usages(tmpl.usages, tmpl.is_ca);  // throws naming an unknown usage

  using namespace std::chrono;
  TimePoint not_before =
      floor<seconds>(tmpl.not_before.value_or(options.now.value_or(Clock::now()) - options.backdate));
  TimePoint not_after =
      tmpl.not_after ? floor<seconds>(*tmpl.not_after)
                     : not_before + (duration ? *duration : tmpl.duration.value_or(kDefaultDuration));
  if (issuer && options.clamp_to_issuer && not_after > issuer->not_after()) not_after = issuer->not_after();
  if (not_after <= not_before) throw PkiError("signing certificate: notAfter is not after notBefore");

  detail::ErrorScope scope;
  detail::X509Ptr x(X509_new());
  if (!x) detail::fail(kSign);
  if (X509_set_version(x.get(), X509_VERSION_3) != 1) detail::fail(kSign, "setting version");
  set_random_serial(x.get());

  detail::NamePtr subject(subject_name ? X509_NAME_dup(subject_name) : nullptr);
  if (!subject) subject = detail::build_subject(tmpl, kSign);
  if (X509_set_subject_name(x.get(), subject.get()) != 1) detail::fail(kSign, "setting subject");
  if (X509_set_issuer_name(x.get(), issuer ? X509_get_subject_name(issuer_x509) : subject.get()) != 1)
    detail::fail(kSign, "setting issuer");
  detail::set_asn1_time(X509_getm_notBefore(x.get()), not_before, kSign);
  detail::set_asn1_time(X509_getm_notAfter(x.get()), not_after, kSign);
  detail::set_public_key(x.get(), subject_pkey, kSign);

  detail::ExtensionSpec spec;
  spec.tmpl = &tmpl;
  spec.usages = &usages;
  spec.basic_constraints = true;
  spec.subject_empty = subject_empty;
  spec.subject_key_id = key_id(x.get());
  if (!issuer) {
    spec.authority_key_id = spec.subject_key_id;
  } else if (const ASN1_OCTET_STRING* ski = X509_get0_subject_key_id(issuer_x509)) {
    spec.authority_key_id = detail::asn1_bytes(ski);
  } else {
    spec.authority_key_id = key_id(issuer_x509);
  }
  detail::ExtStackPtr exts = detail::build_extensions(spec, kSign);
  for (int i = 0; i < sk_X509_EXTENSION_num(exts.get()); ++i)
    if (X509_add_ext(x.get(), sk_X509_EXTENSION_value(exts.get(), i), -1) != 1)
      detail::fail(kSign, "adding extension");
  add_issuer_urls(x.get(), options);

  const EVP_MD* md = detail::choose_digest(signer, options.hash, kSign);
  if (X509_sign(x.get(), signer, md) <= 0) detail::fail(kSign);
  return detail::Access::make_certificate(std::move(x), kSign);
}

}  // namespace

Certificate sign(const CertificateTemplate& tmpl, const PublicKey& subject_key, const Certificate* issuer,
                 const PrivateKey& issuer_key, std::optional<std::chrono::seconds> duration,
                 const SignOptions& options) {
  return sign_with_subject(tmpl, nullptr, subject_key, issuer, issuer_key, duration, options);
}

Certificate sign_csr(const CertificateRequest& csr, const CsrSigningSpec& spec, const Certificate* issuer,
                     const PrivateKey& issuer_key, const SignOptions& options) {
  if (!csr.verify_signature())
    throw PkiError("signing certificate request: the request's signature does not verify");
  CertificateTemplate tmpl = csr.fields();
  if (spec.usages) tmpl.usages = *spec.usages;
  if (spec.is_ca) tmpl.is_ca = *spec.is_ca;
  // The subject as the request has it, byte for byte (cert-manager copies RawSubject).
  const X509_NAME* subject = X509_REQ_get_subject_name(detail::Access::req(csr));
  return sign_with_subject(tmpl, subject, csr.public_key(), issuer, issuer_key, spec.duration, options);
}

Certificate self_signed_ca(const std::string& common_name, std::chrono::seconds duration, const PrivateKey& key) {
  CertificateTemplate t;
  t.subject.common_name = common_name;
  t.is_ca = true;
  SignOptions o;
  o.backdate = kInfrastructureBackdate;
  return sign(t, key.public_key(), nullptr, key, duration, o);
}

KeyAndCertificate issue(const CertificateTemplate& tmpl, const Certificate& ca, const PrivateKey& ca_key,
                        std::chrono::seconds duration, KeyAlgorithm algorithm, int size) {
  PrivateKey key = PrivateKey::generate(algorithm, size);
  SignOptions o;
  o.backdate = kInfrastructureBackdate;
  Certificate cert = sign(tmpl, key.public_key(), &ca, ca_key, duration, o);
  return {std::move(key), std::move(cert)};
}

bool is_ip_address(const std::string& s) {
  unsigned char buf[16];
  return inet_pton(AF_INET, s.c_str(), buf) == 1 || inet_pton(AF_INET6, s.c_str(), buf) == 1;
}

KeyAndCertificate serving_certificate(const std::vector<std::string>& hosts, const Certificate& ca,
                                      const PrivateKey& ca_key, std::chrono::seconds duration) {
  if (hosts.empty()) throw PkiError("creating serving certificate: no hosts given");
  CertificateTemplate t;
  t.subject.common_name = hosts.front();
  for (const auto& h : hosts) (is_ip_address(h) ? t.ip_addresses : t.dns_names).push_back(h);
  t.usages = {"digital signature", "key encipherment", "server auth"};
  return issue(t, ca, ca_key, duration);
}

KeyAndCertificate client_certificate(const std::string& common_name, const std::vector<std::string>& organizations,
                                     const Certificate& ca, const PrivateKey& ca_key,
                                     std::chrono::seconds duration) {
  CertificateTemplate t;
  t.subject.common_name = common_name;
  t.subject.organizations = organizations;
  t.usages = {"digital signature", "key encipherment", "client auth"};
  return issue(t, ca, ca_key, duration);
}

}  // namespace capstan::pki
