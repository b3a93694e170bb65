// Chain verification with X509_verify_cert.
#include "runtime/pki/verify.h"

#include "runtime/pki/detail.h"

namespace capstan::pki {
namespace {

using StorePtr = std::unique_ptr<X509_STORE, detail::Deleter<X509_STORE, X509_STORE_free>>;
using StoreCtxPtr = std::unique_ptr<X509_STORE_CTX, detail::Deleter<X509_STORE_CTX, X509_STORE_CTX_free>>;

constexpr std::string_view kVerify = "verifying certificate chain";

int purpose_of(ExtKeyUsage u) {
  switch (u) {
    case ExtKeyUsage::ServerAuth: return X509_PURPOSE_SSL_SERVER;
    case ExtKeyUsage::ClientAuth: return X509_PURPOSE_SSL_CLIENT;
    case ExtKeyUsage::EmailProtection: return X509_PURPOSE_SMIME_SIGN;
    case ExtKeyUsage::Timestamping: return X509_PURPOSE_TIMESTAMP_SIGN;
    case ExtKeyUsage::OcspSigning: return X509_PURPOSE_OCSP_HELPER;
    case ExtKeyUsage::Any: return X509_PURPOSE_ANY;
    default: throw PkiError(std::string(kVerify) + ": unsupported purpose \"" + std::string(usage_name(u)) + "\"");
  }
}

}  // namespace

VerifyResult verify_chain(const Certificate& leaf, const std::vector<Certificate>& intermediates,
                          const std::vector<Certificate>& roots, const VerifyOptions& options) {
  X509* leaf_x509 = detail::Access::x509(leaf);
  detail::ErrorScope scope;
  StorePtr store(X509_STORE_new());
  if (!store) detail::fail(kVerify);
  for (const auto& r : roots)
    if (X509_STORE_add_cert(store.get(), detail::Access::x509(r)) != 1) {
      unsigned long err = ERR_peek_last_error();
      // The same root twice is harmless.
      if (ERR_GET_REASON(err) != X509_R_CERT_ALREADY_IN_HASH_TABLE) detail::fail(kVerify, "adding a root");
      ERR_clear_error();
    }
  detail::X509StackPtr untrusted(sk_X509_new_null());
  if (!untrusted) detail::fail(kVerify);
  for (const auto& c : intermediates)
    if (X509_add_cert(untrusted.get(), detail::Access::x509(c), X509_ADD_FLAG_UP_REF) != 1)
      detail::fail(kVerify, "adding an intermediate");

  StoreCtxPtr ctx(X509_STORE_CTX_new());
  if (!ctx || X509_STORE_CTX_init(ctx.get(), store.get(), leaf_x509, untrusted.get()) != 1) detail::fail(kVerify);
  X509_VERIFY_PARAM* param = X509_STORE_CTX_get0_param(ctx.get());
  // Every root is a trust anchor, self-signed or not (an intermediate CA's ca.crt), as in Go's
  // x509.Verify which cert-manager's checks use.
  X509_VERIFY_PARAM_set_flags(param, X509_V_FLAG_PARTIAL_CHAIN);
  // Always pass the time: OpenSSL's default is time(NULL), which glibc serves from the coarse
  // clock, a few ms behind Clock::now() -- a certificate issued with notBefore = now would be
  // "not yet valid" for those milliseconds.
  TimePoint at = options.at.value_or(Clock::now());
  X509_VERIFY_PARAM_set_time(param, static_cast<time_t>(
                                        std::chrono::floor<std::chrono::seconds>(at.time_since_epoch()).count()));
  if (!options.dns_name.empty() &&
      X509_VERIFY_PARAM_set1_host(param, options.dns_name.data(), options.dns_name.size()) != 1)
    detail::fail(kVerify, "setting host name");
  if (!options.ip_address.empty() && X509_VERIFY_PARAM_set1_ip_asc(param, options.ip_address.c_str()) != 1)
    detail::fail(kVerify, "invalid IP address \"" + options.ip_address + "\"");
  if (options.purpose && X509_STORE_CTX_set_purpose(ctx.get(), purpose_of(*options.purpose)) != 1)
    detail::fail(kVerify, "setting purpose");

  int rc = X509_verify_cert(ctx.get());
  if (rc == 1) return {true, {}};
  VerifyResult result;
  int err = X509_STORE_CTX_get_error(ctx.get());
  int depth = X509_STORE_CTX_get_error_depth(ctx.get());
  std::string where = "certificate " + std::to_string(depth);
  if (X509* bad = X509_STORE_CTX_get_current_cert(ctx.get())) {
    std::string dn = detail::name_string(X509_get_subject_name(bad));
    if (!dn.empty()) where += " (" + dn + ")";
  }
  result.error = where + ": " + X509_verify_cert_error_string(err);
  if (rc < 0) {
    std::string queue = detail::drain_errors();
    if (!queue.empty()) result.error += ": " + queue;
  }
  return result;
}

}  // namespace capstan::pki
