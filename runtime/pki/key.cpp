// Key generation, PEM/DER encoding and comparison.
#include "runtime/pki/key.h"

#include "runtime/pki/certificate.h"
#include "runtime/pki/detail.h"
#include "runtime/pki/ec_der.h"
#include "runtime/pki/parse_cache.h"

#include <mutex>

namespace capstan::pki {

struct PublicKey::Impl {
  detail::PkeyPtr pkey;
  detail::KeyInfo info;
  std::string der;
};

struct PrivateKey::Impl {
  detail::PkeyPtr pkey;
  detail::KeyInfo info;
  std::string public_der;  // SubjectPublicKeyInfo, for matches() and ==
  // to_pem's text per encoding once written (the key is immutable; a certificate's key is
  // written to its temporary Secret and again to the certificate's Secret).
  mutable std::mutex pem_mu;
  mutable std::string pem[2];
};

namespace detail {

EVP_PKEY* Access::pkey(const PublicKey& k) {
  if (!k.impl_) throw PkiError("using public key: the key is empty");
  return k.impl_->pkey.get();
}

EVP_PKEY* Access::pkey(const PrivateKey& k) {
  if (!k.impl_) throw PkiError("using private key: the key is empty");
  return k.impl_->pkey.get();
}

PublicKey Access::make_public(PkeyPtr key, std::string_view what) {
  EVP_PKEY* raw = key.get();
  std::string der = i2d_string([&](unsigned char** out) { return i2d_PUBKEY(raw, out); }, what);
  return share_public(raw, std::move(der), what);  // `key`'s own reference is released on return
}

PublicKey Access::share_public(EVP_PKEY* key, std::string der, std::string_view what) {
  if (!key || EVP_PKEY_up_ref(key) != 1) fail(what, "no public key");
  auto impl = std::make_shared<PublicKey::Impl>();
  impl->pkey.reset(key);
  impl->info = describe_key(key, what);
  impl->der = std::move(der);
  PublicKey k;
  k.impl_ = std::move(impl);
  return k;
}

PrivateKey Access::make_private(PkeyPtr key, std::string_view what) {
  auto impl = std::make_shared<PrivateKey::Impl>();
  impl->info = describe_key(key.get(), what);
  EVP_PKEY* raw = key.get();
  if (auto ec = ec_key_parts(raw, impl->info.size, false))
    impl->public_der = ec_spki_der(*ec);
  else
    impl->public_der = i2d_string([&](unsigned char** out) { return i2d_PUBKEY(raw, out); }, what);
  impl->pkey = std::move(key);
  PrivateKey k;
  k.impl_ = std::move(impl);
  return k;
}

}  // namespace detail

namespace {

// Never prompt on a terminal for an encrypted key's password: refuse instead.
int no_password(char*, int, int, void*) { return -1; }

}  // namespace

std::string_view algorithm_name(KeyAlgorithm a) {
  switch (a) {
    case KeyAlgorithm::RSA: return "RSA";
    case KeyAlgorithm::ECDSA: return "ECDSA";
    case KeyAlgorithm::Ed25519: return "Ed25519";
  }
  return "unknown";
}

// ---- PublicKey ----------------------------------------------------------------------------

PublicKey PublicKey::from_pem(std::string_view pem) {
  constexpr std::string_view what = "parsing public key PEM";
  detail::ErrorScope scope;
  auto bio = detail::read_bio(pem);
  detail::PkeyPtr key(PEM_read_bio_PUBKEY(bio.get(), nullptr, no_password, nullptr));
  if (!key) detail::fail(what);
  return detail::Access::make_public(std::move(key), what);
}

PublicKey PublicKey::from_der(std::string_view der) {
  constexpr std::string_view what = "parsing public key DER";
  detail::ErrorScope scope;
  auto key = detail::d2i_whole<detail::PkeyPtr>(der, d2i_PUBKEY, what, "key");
  return detail::Access::make_public(std::move(key), what);
}

KeyAlgorithm PublicKey::algorithm() const {
  detail::Access::pkey(*this);
  return impl_->info.algorithm;
}

int PublicKey::size() const {
  detail::Access::pkey(*this);
  return impl_->info.size;
}

const std::string& PublicKey::der() const {
  detail::Access::pkey(*this);
  return impl_->der;
}

std::string PublicKey::to_pem() const {
  detail::ErrorScope scope;
  auto bio = detail::write_bio(false);
  if (PEM_write_bio_PUBKEY(bio.get(), detail::Access::pkey(*this)) != 1) detail::fail("writing public key PEM");
  return detail::bio_contents(bio.get());
}

bool PublicKey::matches(const Certificate& cert) const { return der() == cert.public_key_der(); }

bool PublicKey::operator==(const PublicKey& other) const {
  if (!impl_ || !other.impl_) return !impl_ && !other.impl_;
  return impl_->der == other.impl_->der;
}

// ---- PrivateKey ---------------------------------------------------------------------------

PrivateKey PrivateKey::generate(KeyAlgorithm algorithm, int size) {
  detail::ErrorScope scope;
  EVP_PKEY* raw = nullptr;
  switch (algorithm) {
    case KeyAlgorithm::RSA: {
      if (size == 0) size = 2048;
      if (size < 2048 || size > 8192)
        throw PkiError("generating RSA key: unsupported size " + std::to_string(size) + " (want 2048..8192)");
      raw = EVP_RSA_gen(static_cast<unsigned>(size));
      if (!raw) detail::fail("generating RSA key");
      break;
    }
    case KeyAlgorithm::ECDSA: {
      const char* curve = nullptr;
      switch (size) {
        case 0:
        case 256: curve = "P-256"; break;
        case 384: curve = "P-384"; break;
        case 521: curve = "P-521"; break;
        default:
          throw PkiError("generating ECDSA key: unsupported size " + std::to_string(size) + " (want 256, 384 or 521)");
      }
      raw = EVP_EC_gen(curve);
      if (!raw) detail::fail("generating ECDSA key");
      break;
    }
    case KeyAlgorithm::Ed25519:
      raw = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
      if (!raw) detail::fail("generating Ed25519 key");
      break;
  }
  return detail::Access::make_private(detail::PkeyPtr(raw), "generating key");
}

namespace {

ParseCache<PrivateKey>& private_key_cache() {
  static ParseCache<PrivateKey> cache(kParseCacheEntries);
  return cache;
}

}  // namespace

PrivateKey PrivateKey::from_pem(std::string_view pem) {
  return private_key_cache().get_or_parse(pem, [&] {
    constexpr std::string_view what = "parsing private key PEM";
    detail::ErrorScope scope;
    if (auto der = detail::ec_pem_body(pem)) {
      EVP_PKEY* ec = detail::ec_key_from_der(*der);
      OPENSSL_cleanse(der->data(), der->size());
      if (ec) return detail::Access::make_private(detail::PkeyPtr(ec), what);
    }
    auto bio = detail::read_bio(pem);
    detail::PkeyPtr key(PEM_read_bio_PrivateKey(bio.get(), nullptr, no_password, nullptr));
    if (!key) detail::fail(what);
    return detail::Access::make_private(std::move(key), what);
  });
}

KeyAlgorithm PrivateKey::algorithm() const {
  detail::Access::pkey(*this);
  return impl_->info.algorithm;
}

int PrivateKey::size() const {
  detail::Access::pkey(*this);
  return impl_->info.size;
}

namespace {

// OpenSSL's PEM of a key: PKCS#8, or the type's traditional form (PKCS#1 for RSA).
std::string openssl_pem(EVP_PKEY* key, bool pkcs8) {
  constexpr std::string_view what = "writing private key PEM";
  auto bio = detail::write_bio(true);
  int ok;
  if (pkcs8)
    ok = PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
  else
    ok = PEM_write_bio_PrivateKey_traditional(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
  if (ok != 1) detail::fail(what);
  return detail::bio_contents(bio.get());
}

}  // namespace

std::string PrivateKey::to_pem(KeyEncoding encoding) const {
  EVP_PKEY* key = detail::Access::pkey(*this);
  const std::size_t slot = encoding == KeyEncoding::PKCS8 ? 1 : 0;
  {
    std::lock_guard<std::mutex> lock(impl_->pem_mu);
    if (!impl_->pem[slot].empty()) return impl_->pem[slot];
  }
  detail::ErrorScope scope;
  std::string pem;
  if (auto ec = detail::ec_key_parts(key, impl_->info.size, true)) {
    pem = encoding == KeyEncoding::PKCS8 ? detail::pem_armor("PRIVATE KEY", detail::ec_pkcs8_der(*ec))
                                         : detail::pem_armor("EC PRIVATE KEY", detail::ec_sec1_der(*ec));
  } else {
    pem = openssl_pem(key, encoding == KeyEncoding::PKCS8 || impl_->info.algorithm == KeyAlgorithm::Ed25519);
  }
  private_key_cache().put(pem, *this);
  std::lock_guard<std::mutex> lock(impl_->pem_mu);
  impl_->pem[slot] = pem;
  return pem;
}

std::string PrivateKey::to_pkcs8_der() const {
  EVP_PKEY* key = detail::Access::pkey(*this);
  detail::ErrorScope scope;
  if (auto ec = detail::ec_key_parts(key, impl_->info.size, true))
    return detail::ec_pkcs8_der(*ec);
  auto bio = detail::write_bio(true);
  if (i2d_PKCS8PrivateKey_bio(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1) detail::fail("writing private key DER");
  return detail::bio_contents(bio.get());
}

PublicKey PrivateKey::public_key() const {
  return detail::Access::share_public(detail::Access::pkey(*this), impl_->public_der, "reading public key of private key");
}

std::string PrivateKey::public_key_der() const {
  detail::Access::pkey(*this);
  return impl_->public_der;
}

bool PrivateKey::matches(const Certificate& cert) const {
  detail::Access::pkey(*this);
  return impl_->public_der == cert.public_key_der();
}

bool PrivateKey::matches(const PublicKey& key) const {
  detail::Access::pkey(*this);
  return impl_->public_der == key.der();
}

bool PrivateKey::operator==(const PrivateKey& other) const {
  if (!impl_ || !other.impl_) return !impl_ && !other.impl_;
  return impl_->public_der == other.impl_->public_der;
}

}  // namespace capstan::pki
