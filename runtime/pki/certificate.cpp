// Parsing and reading X.509 certificates.
#include "runtime/pki/certificate.h"

#include <openssl/obj_mac.h>

#include <atomic>
#include <cctype>

#include "runtime/pki/detail.h"
#include "runtime/pki/parse_cache.h"
#include "runtime/meta/ascii.h"

namespace capstan::pki {

struct Certificate::Impl {
  detail::X509Ptr x509;
  std::string der;
  Subject subject, issuer;
  NameSequence subject_sequence;
  std::string subject_dn, issuer_dn, serial_hex, signature_algorithm;
  TimePoint not_before, not_after;
  detail::Extensions ext;
  std::string public_key_der;
  // is_self_signed's answer once known (a signature check, asked of a CA at every issuance):
  // 0 not yet, 1 yes, 2 no.
  mutable std::atomic<int> self_signed{0};
};

namespace detail {

X509* Access::x509(const Certificate& c) {
  if (!c.impl_) throw PkiError("using certificate: the certificate is empty");
  return c.impl_->x509.get();
}

Certificate Access::make_certificate(X509Ptr x, std::string_view what) {
  auto impl = std::make_shared<Certificate::Impl>();
  X509* raw = x.get();
  // Make OpenSSL compute its cached extension data now, so later concurrent readers of this
  // (immutable) object never race on it.
  X509_check_purpose(raw, -1, 0);
  ERR_clear_error();
  impl->der = i2d_string([&](unsigned char** out) { return i2d_X509(raw, out); }, what);
  impl->subject = read_name(X509_get_subject_name(raw));
  impl->subject_sequence = read_sequence(X509_get_subject_name(raw));
  impl->issuer = read_name(X509_get_issuer_name(raw));
  impl->subject_dn = name_string(X509_get_subject_name(raw));
  impl->issuer_dn = name_string(X509_get_issuer_name(raw));
  {
    BnPtr bn(ASN1_INTEGER_to_BN(X509_get0_serialNumber(raw), nullptr));
    if (!bn) fail(what, "reading serial number");
    char* h = BN_bn2hex(bn.get());
    if (!h) fail(what, "reading serial number");
    impl->serial_hex = meta::ascii_lower(h);
    OPENSSL_free(h);
  }
  const char* sig = OBJ_nid2ln(X509_get_signature_nid(raw));
  impl->signature_algorithm = sig ? sig : "unknown";
  impl->not_before = from_asn1_time(X509_get0_notBefore(raw), what);
  impl->not_after = from_asn1_time(X509_get0_notAfter(raw), what);
  impl->ext = read_extensions(X509_get0_extensions(raw), what);
  impl->public_key_der = i2d_string([&](unsigned char** out) { return i2d_X509_PUBKEY(X509_get_X509_PUBKEY(raw), out); },
                                    what);
  impl->x509 = std::move(x);
  Certificate c;
  c.impl_ = std::move(impl);
  return c;
}

}  // namespace detail

namespace {

constexpr std::string_view kParsePem = "parsing certificate PEM";

// The next CERTIFICATE block; null at the end of input (no error), throws when malformed.
detail::X509Ptr read_next(BIO* bio, bool first) {
  detail::X509Ptr x(PEM_read_bio_X509(bio, nullptr, nullptr, nullptr));
  if (x) return x;
  unsigned long err = ERR_peek_last_error();
  if (!first && ERR_GET_LIB(err) == ERR_LIB_PEM && ERR_GET_REASON(err) == PEM_R_NO_START_LINE) {
    ERR_clear_error();
    return nullptr;
  }
  detail::fail(kParsePem);
}

}  // namespace

namespace {

ParseCache<Certificate>& certificate_cache() {
  static ParseCache<Certificate> cache(kParseCacheEntries);
  return cache;
}

}  // namespace

Certificate Certificate::parse_pem(std::string_view pem) {
  return certificate_cache().get_or_parse(pem, [&] {
    detail::ErrorScope scope;
    auto bio = detail::read_bio(pem);
    return detail::Access::make_certificate(read_next(bio.get(), true), kParsePem);
  });
}

std::vector<Certificate> Certificate::parse_chain(std::string_view pem) {
  static ParseCache<std::vector<Certificate>> cache(kParseCacheEntries);
  return cache.get_or_parse(pem, [&] {
    detail::ErrorScope scope;
    auto bio = detail::read_bio(pem);
    std::vector<Certificate> out;
    for (bool first = true;; first = false) {
      detail::X509Ptr x = read_next(bio.get(), first);
      if (!x) break;
      out.push_back(detail::Access::make_certificate(std::move(x), kParsePem));
    }
    return out;
  });
}

Certificate Certificate::parse_der(std::string_view der) {
  constexpr std::string_view what = "parsing certificate DER";
  detail::ErrorScope scope;
  auto x = detail::d2i_whole<detail::X509Ptr>(der, d2i_X509, what, "certificate");
  return detail::Access::make_certificate(std::move(x), what);
}

std::string Certificate::to_pem() const {
  detail::ErrorScope scope;
  auto bio = detail::write_bio(false);
  if (PEM_write_bio_X509(bio.get(), detail::Access::x509(*this)) != 1) detail::fail("writing certificate PEM");
  std::string pem = detail::bio_contents(bio.get());
  certificate_cache().put(pem, *this);
  return pem;
}

const Certificate::Impl& Certificate::get() const {
  detail::Access::x509(*this);
  return *impl_;
}

std::string Certificate::to_der() const { return get().der; }
const Subject& Certificate::subject() const { return get().subject; }
const Subject& Certificate::issuer() const { return get().issuer; }
std::string Certificate::subject_dn() const { return get().subject_dn; }
std::string Certificate::issuer_dn() const { return get().issuer_dn; }
std::string Certificate::serial_hex() const { return get().serial_hex; }
TimePoint Certificate::not_before() const { return get().not_before; }
TimePoint Certificate::not_after() const { return get().not_after; }
const std::vector<std::string>& Certificate::dns_names() const { return get().ext.sans.dns; }
const std::vector<std::string>& Certificate::ip_addresses() const { return get().ext.sans.ips; }
const std::vector<std::string>& Certificate::uris() const { return get().ext.sans.uris; }
const std::vector<std::string>& Certificate::email_addresses() const { return get().ext.sans.emails; }
const std::vector<OtherName>& Certificate::other_names() const { return get().ext.sans.other_names; }
const std::optional<NameConstraints>& Certificate::name_constraints() const { return get().ext.name_constraints; }
const NameSequence& Certificate::subject_sequence() const { return get().subject_sequence; }
const std::vector<KeyUsage>& Certificate::key_usages() const { return get().ext.key_usages; }
const std::vector<ExtKeyUsage>& Certificate::ext_key_usages() const { return get().ext.ext_key_usages; }
const std::vector<std::string>& Certificate::unknown_ext_key_usages() const {
  return get().ext.unknown_ext_key_usages;
}
std::vector<std::string> Certificate::usages() const { return detail::usage_names_of(get().ext); }
bool Certificate::is_ca() const { return get().ext.is_ca; }
std::string Certificate::signature_algorithm() const { return get().signature_algorithm; }
const std::string& Certificate::public_key_der() const { return get().public_key_der; }

std::string Certificate::subject_key_id() const {
  const std::string& id = get().ext.subject_key_id;
  return detail::hex(reinterpret_cast<const unsigned char*>(id.data()), id.size());
}

namespace {

std::string uri_of(const GENERAL_NAME* gn) {
  if (!gn || gn->type != GEN_URI) return "";
  const ASN1_IA5STRING* s = gn->d.uniformResourceIdentifier;
  return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)), static_cast<std::size_t>(ASN1_STRING_length(s)));
}

std::vector<std::string> access_uris(X509* x, int method) {
  std::vector<std::string> out;
  auto* aia = static_cast<AUTHORITY_INFO_ACCESS*>(X509_get_ext_d2i(x, NID_info_access, nullptr, nullptr));
  if (!aia) return out;
  for (int i = 0; i < sk_ACCESS_DESCRIPTION_num(aia); ++i) {
    const ACCESS_DESCRIPTION* ad = sk_ACCESS_DESCRIPTION_value(aia, i);
    if (OBJ_obj2nid(ad->method) == method)
      if (auto uri = uri_of(ad->location); !uri.empty()) out.push_back(std::move(uri));
  }
  AUTHORITY_INFO_ACCESS_free(aia);
  return out;
}

}  // namespace

std::vector<std::string> Certificate::crl_distribution_points() const {
  std::vector<std::string> out;
  auto* points = static_cast<CRL_DIST_POINTS*>(X509_get_ext_d2i(detail::Access::x509(*this), NID_crl_distribution_points, nullptr, nullptr));
  if (!points) return out;
  for (int i = 0; i < sk_DIST_POINT_num(points); ++i) {
    const DIST_POINT* p = sk_DIST_POINT_value(points, i);
    if (!p->distpoint || p->distpoint->type != 0) continue;
    for (int j = 0; j < sk_GENERAL_NAME_num(p->distpoint->name.fullname); ++j)
      if (auto uri = uri_of(sk_GENERAL_NAME_value(p->distpoint->name.fullname, j)); !uri.empty()) out.push_back(std::move(uri));
  }
  CRL_DIST_POINTS_free(points);
  return out;
}

std::vector<std::string> Certificate::ocsp_servers() const { return access_uris(detail::Access::x509(*this), NID_ad_OCSP); }

std::vector<std::string> Certificate::issuing_certificate_urls() const {
  return access_uris(detail::Access::x509(*this), NID_ad_ca_issuers);
}

std::string Certificate::authority_key_id() const {
  const std::string& id = get().ext.authority_key_id;
  return detail::hex(reinterpret_cast<const unsigned char*>(id.data()), id.size());
}

PublicKey Certificate::public_key() const {
  detail::ErrorScope scope;
  return detail::Access::share_public(X509_get0_pubkey(detail::Access::x509(*this)), public_key_der(), "reading certificate public key");
}

std::string Certificate::fingerprint_sha256() const {
  X509* x = detail::Access::x509(*this);
  detail::ErrorScope scope;
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (X509_digest(x, EVP_sha256(), md, &len) != 1) detail::fail("computing certificate fingerprint");
  return detail::hex(md, len);
}

CertificateTemplate Certificate::to_template() const {
  detail::Access::x509(*this);
  CertificateTemplate t;
  t.subject = impl_->subject;
  t.dns_names = impl_->ext.sans.dns;
  t.ip_addresses = impl_->ext.sans.ips;
  t.uris = impl_->ext.sans.uris;
  t.email_addresses = impl_->ext.sans.emails;
  t.other_names = impl_->ext.sans.other_names;
  t.is_ca = impl_->ext.is_ca;
  t.name_constraints = impl_->ext.name_constraints;
  t.usages = usages();
  t.not_before = impl_->not_before;
  t.not_after = impl_->not_after;
  return t;
}

bool Certificate::is_self_signed() const {
  detail::Access::x509(*this);
  int known = impl_->self_signed.load(std::memory_order_relaxed);
  if (known == 0) {
    known = signed_by(*this) ? 1 : 2;
    impl_->self_signed.store(known, std::memory_order_relaxed);
  }
  return known == 1;
}

bool Certificate::signed_by(const Certificate& issuer) const {
  X509* x = detail::Access::x509(*this);
  X509* i = detail::Access::x509(issuer);
  detail::ErrorScope scope;
  if (X509_NAME_cmp(X509_get_issuer_name(x), X509_get_subject_name(i)) != 0) return false;
  EVP_PKEY* key = X509_get0_pubkey(i);
  return key && X509_verify(x, key) == 1;
}

bool Certificate::operator==(const Certificate& other) const {
  if (!impl_ || !other.impl_) return !impl_ && !other.impl_;
  return impl_->der == other.impl_->der;
}

std::string to_pem(const std::vector<Certificate>& chain) {
  std::string out;
  for (const auto& c : chain) out += c.to_pem();
  return out;
}

}  // namespace capstan::pki
