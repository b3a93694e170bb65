#include "runtime/pki/digest.h"

#include <openssl/evp.h>

#include <algorithm>
#include <stdexcept>

namespace capstan::pki {
namespace {

std::string to_hex(const unsigned char* md, std::size_t len) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * len);
  for (std::size_t i = 0; i < len; ++i) {
    out += kHex[md[i] >> 4];
    out += kHex[md[i] & 0xf];
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view data, std::size_t bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(data.data(), data.size(), md, &n, EVP_sha256(), nullptr) != 1) throw std::runtime_error("SHA-256 digest failed");
  return to_hex(md, std::min<std::size_t>(bytes, n));
}

struct Sha256::Ctx {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> md{EVP_MD_CTX_new(), EVP_MD_CTX_free};
};

Sha256::Sha256() : ctx_(std::make_unique<Ctx>()) {
  if (!ctx_->md || EVP_DigestInit_ex(ctx_->md.get(), EVP_sha256(), nullptr) != 1) throw std::runtime_error("SHA-256 init failed");
}

Sha256::~Sha256() = default;

void Sha256::update(std::string_view data) {
  if (EVP_DigestUpdate(ctx_->md.get(), data.data(), data.size()) != 1) throw std::runtime_error("SHA-256 update failed");
}

std::string Sha256::hex() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_DigestFinal_ex(ctx_->md.get(), md, &n) != 1) throw std::runtime_error("SHA-256 final failed");
  return to_hex(md, n);
}

}  // namespace capstan::pki
