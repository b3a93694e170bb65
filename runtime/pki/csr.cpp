// Creating and parsing PKCS#10 certificate signing requests.
#include "runtime/pki/csr.h"

#include "runtime/pki/detail.h"
#include "runtime/pki/ec_der.h"
#include "runtime/pki/parse_cache.h"

#include <atomic>

namespace capstan::pki {

struct CertificateRequest::Impl {
  detail::ReqPtr req;
  std::string der;
  CertificateTemplate fields;
  NameSequence subject_sequence;
  SignatureHash signature_hash = SignatureHash::Auto;
  PublicKey key;
  // verify_signature's answer once known (-1: not checked yet): the request is immutable, and the
  // approver, the issuer and the certificate controller each ask about the same parsed request.
  mutable std::atomic<int> signature_valid{-1};
};

namespace detail {
namespace {

SignatureHash hash_of_signature(int signature_nid) {
  int md = NID_undef, pk = NID_undef;
  if (OBJ_find_sigid_algs(signature_nid, &md, &pk) != 1) return SignatureHash::Auto;
  switch (md) {
    case NID_sha256: return SignatureHash::SHA256;
    case NID_sha384: return SignatureHash::SHA384;
    case NID_sha512: return SignatureHash::SHA512;
    default: return SignatureHash::Auto;
  }
}

}  // namespace

X509_REQ* Access::req(const CertificateRequest& r) {
  if (!r.impl_) throw PkiError("using certificate request: the request is empty");
  return r.impl_->req.get();
}

CertificateRequest Access::make_request(ReqPtr r, std::string_view what, const PublicKey* known) {
  auto impl = std::make_shared<CertificateRequest::Impl>();
  X509_REQ* raw = r.get();
  impl->der = i2d_string([&](unsigned char** out) { return i2d_X509_REQ(raw, out); }, what);
  impl->fields.subject = read_name(X509_REQ_get_subject_name(raw));
  impl->subject_sequence = read_sequence(X509_REQ_get_subject_name(raw));
  impl->signature_hash = hash_of_signature(X509_REQ_get_signature_nid(raw));
  STACK_OF(X509_EXTENSION)* exts = X509_REQ_get_extensions(raw);
  ERR_clear_error();  // a request without an extension request is fine
  ExtStackPtr owner(exts);
  Extensions e = read_extensions(exts, what);
  impl->fields.dns_names = e.sans.dns;
  impl->fields.ip_addresses = e.sans.ips;
  impl->fields.uris = e.sans.uris;
  impl->fields.email_addresses = e.sans.emails;
  impl->fields.other_names = e.sans.other_names;
  impl->fields.name_constraints = e.name_constraints;
  impl->fields.is_ca = e.is_ca;
  impl->fields.usages = usage_names_of(e);
  if (known) {
    impl->key = *known;
  } else {
    EVP_PKEY* pub = X509_REQ_get0_pubkey(raw);
    if (!pub) fail(what, "the request has no public key");
    // The request's own SubjectPublicKeyInfo, as written: re-encoding the key would go through
    // OpenSSL 3's encoder and decoding it again through its decoder, the costliest steps of a parse.
    std::string pub_der = i2d_string([&](unsigned char** out) { return i2d_X509_PUBKEY(X509_REQ_get_X509_PUBKEY(raw), out); }, what);
    impl->key = Access::share_public(pub, std::move(pub_der), what);
  }
  impl->req = std::move(r);
  CertificateRequest c;
  c.impl_ = std::move(impl);
  return c;
}

}  // namespace detail

namespace {

ParseCache<CertificateRequest>& request_cache() {
  static ParseCache<CertificateRequest> cache(kParseCacheEntries);
  return cache;
}

}  // namespace

std::string CertificateRequest::create(const CertificateTemplate& tmpl, const PrivateKey& key,
                                       const CsrOptions& options) {
  constexpr std::string_view what = "creating certificate request";
  EVP_PKEY* pkey = detail::Access::pkey(key);
  Usages usages = effective_usages(tmpl.usages, tmpl.is_ca);  // throws naming an unknown usage
  detail::ErrorScope scope;
  if (tmpl.subject_empty() && !tmpl.has_sans())
    detail::fail(what, "the request has neither a subject nor subject alternative names");

  detail::ReqPtr req(X509_REQ_new());
  if (!req) detail::fail(what);
  if (X509_REQ_set_version(req.get(), X509_REQ_VERSION_1) != 1) detail::fail(what);
  detail::NamePtr name = detail::build_subject(tmpl, what);
  if (X509_REQ_set_subject_name(req.get(), name.get()) != 1) detail::fail(what, "setting subject");
  // An ECDSA key's field straight from its point; the request made keeps `key`'s public half.
  if (key.algorithm() != KeyAlgorithm::ECDSA || !detail::set_ec_public_key(X509_REQ_get_X509_PUBKEY(req.get()), pkey, key.size()))
    detail::set_public_key(req.get(), pkey, what);

  detail::ExtensionSpec spec;
  spec.tmpl = &tmpl;
  spec.usages = options.encode_usages ? &usages : nullptr;
  spec.basic_constraints = false;
  spec.subject_empty = X509_NAME_entry_count(name.get()) == 0;
  detail::ExtStackPtr exts = detail::build_extensions(spec, what);
  if (sk_X509_EXTENSION_num(exts.get()) > 0 && X509_REQ_add_extensions(req.get(), exts.get()) != 1)
    detail::fail(what, "adding extension request");

  const EVP_MD* md = detail::choose_digest(pkey, options.hash, what);
  if (X509_REQ_sign(req.get(), pkey, md) <= 0) detail::fail(what, "signing");

  auto bio = detail::write_bio(false);
  if (PEM_write_bio_X509_REQ(bio.get(), req.get()) != 1) detail::fail(what, "writing PEM");
  std::string pem = detail::bio_contents(bio.get());
  PublicKey public_key = key.public_key();
  CertificateRequest made = detail::Access::make_request(std::move(req), what, &public_key);
  made.impl_->signature_valid.store(1, std::memory_order_release);  // signed just above with the key it names
  request_cache().put(pem, std::move(made));
  return pem;
}

CertificateRequest CertificateRequest::parse(std::string_view pem) {
  return request_cache().get_or_parse(pem, [&] {
    constexpr std::string_view what = "parsing certificate request PEM";
    detail::ErrorScope scope;
    auto bio = detail::read_bio(pem);
    detail::ReqPtr req(PEM_read_bio_X509_REQ(bio.get(), nullptr, nullptr, nullptr));
    if (!req) detail::fail(what);
    return detail::Access::make_request(std::move(req), what);
  });
}

CertificateRequest CertificateRequest::parse_der(std::string_view der) {
  constexpr std::string_view what = "parsing certificate request DER";
  detail::ErrorScope scope;
  auto req = detail::d2i_whole<detail::ReqPtr>(der, d2i_X509_REQ, what, "request");
  return detail::Access::make_request(std::move(req), what);
}

const CertificateTemplate& CertificateRequest::fields() const {
  detail::Access::req(*this);
  return impl_->fields;
}

const NameSequence& CertificateRequest::subject_sequence() const {
  detail::Access::req(*this);
  return impl_->subject_sequence;
}

SignatureHash CertificateRequest::signature_hash() const {
  detail::Access::req(*this);
  return impl_->signature_hash;
}

SignatureHash resolve_hash(const PublicKey& key, SignatureHash hash) {
  detail::ErrorScope scope;
  const EVP_MD* md = detail::choose_digest(detail::Access::pkey(key), hash, "choosing signature digest");
  if (!md) return SignatureHash::Auto;
  switch (EVP_MD_get_type(md)) {
    case NID_sha384: return SignatureHash::SHA384;
    case NID_sha512: return SignatureHash::SHA512;
    default: return SignatureHash::SHA256;
  }
}

const PublicKey& CertificateRequest::public_key() const {
  detail::Access::req(*this);
  return impl_->key;
}

bool CertificateRequest::verify_signature() const {
  X509_REQ* req = detail::Access::req(*this);
  if (int known = impl_->signature_valid.load(std::memory_order_acquire); known >= 0) return known == 1;
  detail::ErrorScope scope;
  EVP_PKEY* key = X509_REQ_get0_pubkey(req);
  bool valid = key && X509_REQ_verify(req, key) == 1;
  impl_->signature_valid.store(valid ? 1 : 0, std::memory_order_release);
  return valid;
}

std::string CertificateRequest::to_pem() const {
  X509_REQ* req = detail::Access::req(*this);
  detail::ErrorScope scope;
  auto bio = detail::write_bio(false);
  if (PEM_write_bio_X509_REQ(bio.get(), req) != 1) detail::fail("writing certificate request PEM");
  return detail::bio_contents(bio.get());
}

std::string CertificateRequest::to_der() const {
  detail::Access::req(*this);
  return impl_->der;
}

}  // namespace capstan::pki
