// Error-queue capture, buffers, ASN.1 strings, key description, digests and ASN.1 time conversion.
#include <openssl/core_names.h>

#include <cstring>
#include <ctime>

#include "runtime/pki/detail.h"

namespace capstan::pki::detail {

void free_bio(BIO* b) { BIO_free_all(b); }
void free_ext_stack(STACK_OF(X509_EXTENSION) * s) { sk_X509_EXTENSION_pop_free(s, X509_EXTENSION_free); }
void free_x509_stack(STACK_OF(X509) * s) { sk_X509_pop_free(s, X509_free); }

std::string drain_errors() {
  std::string out;
  const char* data = nullptr;
  int flags = 0;
  unsigned long code;
  while ((code = ERR_get_error_all(nullptr, nullptr, nullptr, &data, &flags)) != 0) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    // "error:0480006C:PEM routines::no start line" -> "PEM routines::no start line"
    std::string_view text = buf;
    if (text.starts_with("error:")) {
      auto colon = text.find(':', 6);
      if (colon != std::string_view::npos) text.remove_prefix(colon + 1);
    }
    std::string entry(text);
    if ((flags & ERR_TXT_STRING) && data && *data) {
      entry += " (";
      entry += data;
      entry += ")";
    }
    if (out.find(entry) != std::string::npos) continue;  // repeated entries add nothing
    if (!out.empty()) out += "; ";
    out += entry;
  }
  return out;
}

void fail(std::string_view what, std::string_view reason) {
  std::string msg(what);
  std::string queue = drain_errors();
  if (!reason.empty()) {
    msg += ": ";
    msg += reason;
  }
  if (!queue.empty()) {
    msg += ": ";
    msg += queue;
  }
  if (reason.empty() && queue.empty()) msg += ": unknown OpenSSL error";
  throw PkiError(msg);
}

BioPtr read_bio(std::string_view data) {
  BioPtr b(BIO_new_mem_buf(data.data(), static_cast<int>(data.size())));
  if (!b) fail("allocating memory BIO");
  return b;
}

BioPtr write_bio(bool secure) {
  BioPtr b(BIO_new(secure ? BIO_s_secmem() : BIO_s_mem()));
  if (!b) fail("allocating memory BIO");
  return b;
}

std::string bio_contents(BIO* b) {
  char* data = nullptr;
  long n = BIO_get_mem_data(b, &data);
  return n > 0 ? std::string(data, static_cast<size_t>(n)) : std::string();
}

std::string hex(const unsigned char* data, size_t len) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(len * 2);
  for (size_t i = 0; i < len; ++i) {
    out += digits[data[i] >> 4];
    out += digits[data[i] & 0xf];
  }
  return out;
}

KeyInfo describe_key(EVP_PKEY* key, std::string_view what) {
  switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_RSA:
      return {KeyAlgorithm::RSA, EVP_PKEY_get_bits(key)};
    case EVP_PKEY_ED25519:
      return {KeyAlgorithm::Ed25519, 256};
    case EVP_PKEY_EC: {
      char group[64] = {};
      size_t len = 0;
      if (EVP_PKEY_get_group_name(key, group, sizeof group, &len) != 1) fail(what, "reading EC curve");
      std::string_view g(group, len);
      if (g == "prime256v1" || g == "P-256") return {KeyAlgorithm::ECDSA, 256};
      if (g == "secp384r1" || g == "P-384") return {KeyAlgorithm::ECDSA, 384};
      if (g == "secp521r1" || g == "P-521") return {KeyAlgorithm::ECDSA, 521};
      fail(what, "unsupported elliptic curve " + std::string(g) + " (want P-256, P-384 or P-521)");
    }
    default: {
      const char* name = OBJ_nid2sn(EVP_PKEY_get_base_id(key));
      fail(what, std::string("unsupported key type ") + (name ? name : "unknown") +
                     " (want RSA, ECDSA or Ed25519)");
    }
  }
}

const EVP_MD* choose_digest(EVP_PKEY* signer, SignatureHash hash, std::string_view what) {
  KeyInfo info = describe_key(signer, what);
  if (info.algorithm == KeyAlgorithm::Ed25519) {
    if (hash != SignatureHash::Auto) fail(what, "Ed25519 signatures take no separate digest");
    return nullptr;
  }
  switch (hash) {
    case SignatureHash::SHA256: return EVP_sha256();
    case SignatureHash::SHA384: return EVP_sha384();
    case SignatureHash::SHA512: return EVP_sha512();
    case SignatureHash::Auto: break;
  }
  if (info.algorithm == KeyAlgorithm::ECDSA) {
    if (info.size == 384) return EVP_sha384();
    if (info.size == 521) return EVP_sha512();
  }
  return EVP_sha256();
}

std::string asn1_bytes(const ASN1_STRING* s) {
  if (!s) return {};
  return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)), static_cast<size_t>(ASN1_STRING_length(s)));
}

TimePoint from_asn1_time(const ASN1_TIME* t, std::string_view what) {
  struct tm tm {};
  if (!t || ASN1_TIME_to_tm(t, &tm) != 1) fail(what, "invalid time");
  using namespace std::chrono;
  auto days = sys_days(year_month_day(year(tm.tm_year + 1900), month(static_cast<unsigned>(tm.tm_mon + 1)),
                                      day(static_cast<unsigned>(tm.tm_mday))));
  return time_point_cast<Clock::duration>(days + hours(tm.tm_hour) + minutes(tm.tm_min) +
                                           seconds(tm.tm_sec));
}

void set_asn1_time(ASN1_TIME* t, TimePoint tp, std::string_view what) {
  auto secs = std::chrono::floor<std::chrono::seconds>(tp.time_since_epoch()).count();
  // UTCTime through 2049, GeneralizedTime after, as RFC 5280 requires.
  if (!ASN1_TIME_set(t, static_cast<time_t>(secs))) fail(what, "setting validity time");
}

}  // namespace capstan::pki::detail
