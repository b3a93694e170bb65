// Internal to runtime/pki (never included by users): OpenSSL RAII handles, error-queue
// capture, and the shared encoders/decoders of names and extensions. Only this folder's .cpp
// files include it, so OpenSSL's headers stay out of every public header.
#pragma once

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/pki/certificate.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/error.h"
#include "runtime/pki/key.h"
#include "runtime/pki/template.h"
#include "runtime/pki/usage.h"

namespace capstan::pki::detail {

// ---- RAII ---------------------------------------------------------------------------------
template <class T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
void free_bio(BIO* b);
void free_ext_stack(STACK_OF(X509_EXTENSION) * s);
void free_x509_stack(STACK_OF(X509) * s);

using PkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using X509Ptr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using ReqPtr = std::unique_ptr<X509_REQ, Deleter<X509_REQ, X509_REQ_free>>;
using NamePtr = std::unique_ptr<X509_NAME, Deleter<X509_NAME, X509_NAME_free>>;
using BioPtr = std::unique_ptr<BIO, Deleter<BIO, free_bio>>;
using BnPtr = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;
using ExtStackPtr = std::unique_ptr<STACK_OF(X509_EXTENSION), Deleter<STACK_OF(X509_EXTENSION), free_ext_stack>>;
using X509StackPtr = std::unique_ptr<STACK_OF(X509), Deleter<STACK_OF(X509), free_x509_stack>>;

// ---- errors -------------------------------------------------------------------------------
// Drains this thread's OpenSSL error queue: "PEM routines::no start line (Expecting: ...)",
// several entries joined by "; ". Empty when the queue is empty.
std::string drain_errors();
// Throws PkiError("<what>: <reason>; <queue>") (parts omitted when empty). Drains the queue.
[[noreturn]] void fail(std::string_view what, std::string_view reason = {});

// Clears stale errors of this thread on entry and on exit so messages only carry the errors of
// the operation at hand.
struct ErrorScope {
  ErrorScope() { ERR_clear_error(); }
  ~ErrorScope() { ERR_clear_error(); }
  ErrorScope(const ErrorScope&) = delete;
  ErrorScope& operator=(const ErrorScope&) = delete;
};

// ---- buffers ------------------------------------------------------------------------------
BioPtr read_bio(std::string_view data);  // read-only view, no copy
BioPtr write_bio(bool secure);           // secure: BIO_s_secmem (cleared on free)
std::string bio_contents(BIO* b);
std::string hex(const unsigned char* data, size_t len);
template <class F>
std::string i2d_string(F encode, std::string_view what) {  // encode(unsigned char**) -> int
  unsigned char* buf = nullptr;
  int n = encode(&buf);
  if (n <= 0) fail(what);
  std::string out(reinterpret_cast<char*>(buf), static_cast<size_t>(n));
  OPENSSL_free(buf);
  return out;
}

// The OpenSSL object d2i_X(nullptr, &p, len) decodes from `der`, which it must use whole
// (a DER value followed by anything else is refused, naming `thing`).
template <class Ptr, class F>
Ptr d2i_whole(std::string_view der, F decode, std::string_view what, std::string_view thing) {
  auto p = reinterpret_cast<const unsigned char*>(der.data());
  Ptr out(decode(nullptr, &p, static_cast<long>(der.size())));
  if (!out) fail(what);
  if (p != reinterpret_cast<const unsigned char*>(der.data()) + der.size()) fail(what, "trailing data after the " + std::string(thing));
  return out;
}

// ---- ASN.1 strings ------------------------------------------------------------------------
// The content bytes of an ASN.1 string (OCTET STRING, IA5String, ...) as stored, no charset
// conversion; empty for null. The one reader of extension values and SANs.
std::string asn1_bytes(const ASN1_STRING* s);

// ---- keys ---------------------------------------------------------------------------------
struct KeyInfo {
  KeyAlgorithm algorithm;
  int size;
};
// Throws for key types and curves this library does not support.
KeyInfo describe_key(EVP_PKEY* key, std::string_view what);
// nullptr for Ed25519.
const EVP_MD* choose_digest(EVP_PKEY* signer, SignatureHash hash, std::string_view what);

// ---- time ---------------------------------------------------------------------------------
TimePoint from_asn1_time(const ASN1_TIME* t, std::string_view what);
void set_asn1_time(ASN1_TIME* t, TimePoint tp, std::string_view what);

// ---- names --------------------------------------------------------------------------------
NamePtr build_name(const Subject& s, std::string_view what);
// A name with exactly these RDNs (multi-valued RDNs kept), each attribute by OID.
NamePtr build_sequence(const NameSequence& seq, std::string_view what);
// The template's literal subject when it has one, else its subject.
NamePtr build_subject(const CertificateTemplate& t, std::string_view what);
Subject read_name(const X509_NAME* name);
NameSequence read_sequence(const X509_NAME* name);
std::string name_string(const X509_NAME* name);  // RFC 4514

// ---- extensions ---------------------------------------------------------------------------
struct Sans {
  std::vector<std::string> dns, ips, uris, emails;
  std::vector<OtherName> other_names;  // UTF8String values only
  bool empty() const { return dns.empty() && ips.empty() && uris.empty() && emails.empty() && other_names.empty(); }
};

struct ExtensionSpec {
  const CertificateTemplate* tmpl = nullptr;  // SANs, is_ca and nameConstraints come from here
  bool subject_empty = false;                 // subjectAltName is then critical
  const Usages* usages = nullptr;             // null: no keyUsage/extendedKeyUsage
  bool basic_constraints = true;              // false: only when is_ca (CSRs)
  std::string subject_key_id;                 // raw bytes; empty: none
  std::string authority_key_id;               // raw bytes; empty: none
};
// "10.1.2.3/8" -> "10.0.0.0/8" (host bits cleared, address as inet_ntop writes it); throws for a bad CIDR.
std::string canonical_cidr(const std::string& cidr, std::string_view what);
// Validates the template's SANs and appends the extensions to a new stack (never null).
ExtStackPtr build_extensions(const ExtensionSpec& spec, std::string_view what);

struct Extensions {
  Sans sans;
  std::vector<KeyUsage> key_usages;
  std::vector<ExtKeyUsage> ext_key_usages;
  std::vector<std::string> unknown_ext_key_usages;
  bool is_ca = false;
  std::optional<NameConstraints> name_constraints;
  std::string subject_key_id;    // raw bytes
  std::string authority_key_id;  // raw bytes
};
Extensions read_extensions(const STACK_OF(X509_EXTENSION) * exts, std::string_view what);

// The canonical usage names of what was read.
std::vector<std::string> usage_names_of(const Extensions& e);

// ---- SubjectPublicKeyInfo (public_key_field.cpp) -------------------------------------------
// X509_set_pubkey / X509_REQ_set_pubkey, without OpenSSL 3.0's encoder and decoder round trip
// for ECDSA and RSA keys.
void set_public_key(X509* x, EVP_PKEY* key, std::string_view what);
void set_public_key(X509_REQ* req, EVP_PKEY* key, std::string_view what);

// ---- access to the OpenSSL objects behind the public types --------------------------------
struct Access {
  static EVP_PKEY* pkey(const PublicKey& k);   // throws on empty
  static EVP_PKEY* pkey(const PrivateKey& k);  // throws on empty
  static X509* x509(const Certificate& c);     // throws on empty
  static X509_REQ* req(const CertificateRequest& r);
  static PublicKey make_public(PkeyPtr key, std::string_view what);
  // A further reference to `key` (a certificate's, a request's or a private key's), with its DER
  // SubjectPublicKeyInfo already at hand: no trip through OpenSSL's encoder.
  static PublicKey share_public(EVP_PKEY* key, std::string der, std::string_view what);
  static PrivateKey make_private(PkeyPtr key, std::string_view what);
  static Certificate make_certificate(X509Ptr x, std::string_view what);
  // `known`: the request's public key when the caller holds it (a request it just created),
  // instead of the one OpenSSL decodes from the request.
  static CertificateRequest make_request(ReqPtr r, std::string_view what, const PublicKey* known = nullptr);
};

}  // namespace capstan::pki::detail
