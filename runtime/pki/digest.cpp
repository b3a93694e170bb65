#include "runtime/pki/digest.h"

#include <openssl/evp.h>

#include <algorithm>
#include <stdexcept>

namespace capstan::pki {

std::string sha256_hex(std::string_view data, std::size_t bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(data.data(), data.size(), md, &n, EVP_sha256(), nullptr) != 1) throw std::runtime_error("SHA-256 digest failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  const std::size_t len = std::min<std::size_t>(bytes, n);
  out.reserve(2 * len);
  for (std::size_t i = 0; i < len; ++i) {
    out += kHex[md[i] >> 4];
    out += kHex[md[i] & 0xf];
  }
  return out;
}

}  // namespace capstan::pki
