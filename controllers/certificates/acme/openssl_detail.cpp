#include "controllers/certificates/acme/openssl_detail.h"

#include <openssl/sha.h>
#include <openssl/x509.h>

namespace capstan::certificates::acme::detail {

std::string drain_openssl_errors() {
  std::string out;
  while (unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    if (!out.empty()) out += "; ";
    out += buf;
  }
  return out;
}

void fail_openssl(std::string_view what) {
  std::string msg(what);
  std::string queue = drain_openssl_errors();
  if (!queue.empty()) msg += ": " + queue;
  throw std::runtime_error(msg);
}

PkeyPtr load_public_key_der(std::string_view der) {
  const auto* p = reinterpret_cast<const unsigned char*>(der.data());
  PkeyPtr key(d2i_PUBKEY(nullptr, &p, static_cast<long>(der.size())));
  if (!key) fail_openssl("decoding public key");
  return key;
}

std::string bn_bytes(const BIGNUM* bn, int width) {
  int n = BN_num_bytes(bn);
  if (width < n) width = n;
  std::string out(static_cast<std::size_t>(width), '\0');
  if (BN_bn2binpad(bn, reinterpret_cast<unsigned char*>(out.data()), width) != width) fail_openssl("encoding big number");
  return out;
}

std::string sha256(std::string_view data) {
  std::string out(SHA256_DIGEST_LENGTH, '\0');
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

}  // namespace capstan::certificates::acme::detail
