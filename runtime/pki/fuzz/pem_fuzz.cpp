// X.509 certificates, CSRs and keys as users hand them to us: tls.crt / ca.crt / tls.key of
// Secrets, CertificateRequest.spec.request, an issuer's CA, ACME's certificate chain. Every
// reader runs on every input (the PEM readers skip DER quickly and the other way round); the
// documented failure is PkiError. Invariant: what parses re-encodes to DER that parses to an
// equal value, and every accessor works on it.
#include "runtime/pki/certificate.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/error.h"
#include "runtime/pki/key.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan::pki;

namespace {

void inspect(const Certificate& c) {
  (void)c.subject_dn();
  (void)c.issuer_dn();
  (void)c.serial_hex();
  (void)c.not_before();
  (void)c.not_after();
  (void)c.usages();
  (void)c.unknown_ext_key_usages();
  (void)c.is_ca();
  (void)c.subject_key_id();
  (void)c.authority_key_id();
  (void)c.signature_algorithm();
  (void)c.fingerprint_sha256();
  (void)c.to_template();
  (void)c.is_self_signed();
  if (!(Certificate::parse_der(c.to_der()) == c)) std::abort();
  if (!(Certificate::parse_pem(c.to_pem()) == c)) std::abort();
  try {
    PublicKey k = c.public_key();  // a key type we do not support is a PkiError
    (void)k.algorithm();
    (void)k.size();
    (void)k.matches(c);
  } catch (const PkiError&) {
  }
}

void inspect(const CertificateRequest& r) {
  (void)r.fields();
  (void)r.verify_signature();
  (void)r.public_key().algorithm();
  CertificateRequest again = CertificateRequest::parse_der(r.to_der());
  if (!(again.fields() == r.fields())) std::abort();
  (void)CertificateRequest::parse(r.to_pem());
}

template <typename F>
void attempt(F&& f) {
  try {
    f();
  } catch (const PkiError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  attempt([&] {
    for (const auto& c : Certificate::parse_chain(in)) inspect(c);
  });
  attempt([&] { inspect(Certificate::parse_der(in)); });
  attempt([&] { inspect(CertificateRequest::parse(in)); });
  attempt([&] { inspect(CertificateRequest::parse_der(in)); });
  attempt([&] {
    PublicKey k = PublicKey::from_pem(in);
    if (!(PublicKey::from_der(k.der()) == k)) std::abort();
  });
  attempt([&] { (void)PublicKey::from_der(in).to_pem(); });
  attempt([&] {
    PrivateKey k = PrivateKey::from_pem(in);
    (void)k.algorithm();
    (void)k.size();
  });
  return 0;
}
