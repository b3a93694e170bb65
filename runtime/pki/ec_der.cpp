#include "runtime/pki/ec_der.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/param_build.h>
#include <openssl/params.h>

#include "runtime/meta/base64.h"

#include <cstdint>

namespace capstan::pki::detail {

namespace {

struct Curve {
  int size;
  int nid;
  const char* group;  // OpenSSL's group name
  std::string_view oid;  // content octets of the curve's OBJECT IDENTIFIER
  std::size_t scalar_len;
};

constexpr Curve kCurves[] = {
    {256, NID_X9_62_prime256v1, "prime256v1", std::string_view("\x2a\x86\x48\xce\x3d\x03\x01\x07", 8), 32},
    {384, NID_secp384r1, "secp384r1", std::string_view("\x2b\x81\x04\x00\x22", 5), 48},
    {521, NID_secp521r1, "secp521r1", std::string_view("\x2b\x81\x04\x00\x23", 5), 66},
};
constexpr std::string_view kEcPublicKeyOid("\x2a\x86\x48\xce\x3d\x02\x01", 7);  // 1.2.840.10045.2.1

const Curve* curve_of(int size) {
  for (const auto& c : kCurves)
    if (c.size == size) return &c;
  return nullptr;
}

// One DER element: tag, definite length, content.
std::string tlv(std::uint8_t tag, std::string_view content) {
  std::string out(1, static_cast<char>(tag));
  std::size_t n = content.size();
  if (n < 0x80) {
    out += static_cast<char>(n);
  } else if (n <= 0xff) {
    out += '\x81';
    out += static_cast<char>(n);
  } else {
    out += '\x82';
    out += static_cast<char>(n >> 8);
    out += static_cast<char>(n & 0xff);
  }
  out.append(content);
  return out;
}

// Wipes a string that held key material before it is freed.
struct Wiped {
  std::string s;
  ~Wiped() { OPENSSL_cleanse(s.data(), s.size()); }
};

std::string algorithm_identifier(const Curve& c) { return tlv(0x30, tlv(0x06, kEcPublicKeyOid) + tlv(0x06, c.oid)); }

std::string bit_string(std::string_view bytes) {
  std::string content;
  content.reserve(bytes.size() + 1);
  content += '\0';  // no unused bits
  content.append(bytes);
  return tlv(0x03, content);
}

// ECPrivateKey ::= SEQUENCE { version 1, privateKey OCTET STRING, [0] parameters OPTIONAL,
// [1] publicKey OPTIONAL }. PKCS#8 leaves the parameters to its own AlgorithmIdentifier.
std::string ec_private_key(const EcKeyParts& k, const Curve& c, bool with_parameters) {
  Wiped body{tlv(0x02, std::string_view("\x01", 1)) + tlv(0x04, k.scalar)};
  if (with_parameters) body.s += tlv(0xa0, tlv(0x06, c.oid));
  body.s += tlv(0xa1, bit_string(k.point));
  return tlv(0x30, body.s);
}

// Reads DER elements off the front of a buffer; any malformation empties the result.
class DerReader {
 public:
  explicit DerReader(std::string_view in) : in_(in) {}
  bool done() const { return in_.empty(); }
  // The content of the next element if its tag is `tag` (definite length, at most 64 KiB).
  std::optional<std::string_view> take(std::uint8_t tag) {
    if (in_.size() < 2 || static_cast<std::uint8_t>(in_[0]) != tag) return std::nullopt;
    std::size_t len = static_cast<std::uint8_t>(in_[1]), header = 2;
    if (len == 0x81 || len == 0x82) {
      std::size_t bytes = len & 0x7f;
      if (in_.size() < 2 + bytes) return std::nullopt;
      len = 0;
      for (std::size_t i = 0; i < bytes; ++i) len = (len << 8) | static_cast<std::uint8_t>(in_[2 + i]);
      header += bytes;
    } else if (len > 0x7f) {
      return std::nullopt;
    }
    if (in_.size() - header < len) return std::nullopt;
    std::string_view content = in_.substr(header, len);
    in_.remove_prefix(header + len);
    return content;
  }
  bool take_exactly(std::uint8_t tag, std::string_view content) {
    auto got = take(tag);
    return got && *got == content;
  }

 private:
  std::string_view in_;
};

struct ParsedEcKey {
  const Curve* curve = nullptr;
  std::string_view scalar, point;
};

// ECPrivateKey with its public key; `curve` from the PKCS#8 wrapper, else from [0].
std::optional<ParsedEcKey> parse_ec_private_key(std::string_view der, const Curve* curve) {
  DerReader outer(der);
  auto seq = outer.take(0x30);
  if (!seq || !outer.done()) return std::nullopt;
  DerReader r(*seq);
  ParsedEcKey k;
  auto scalar = r.take_exactly(0x02, std::string_view("\x01", 1)) ? r.take(0x04) : std::nullopt;
  if (!scalar) return std::nullopt;
  k.scalar = *scalar;
  if (!curve) {
    auto params = r.take(0xa0);
    if (!params) return std::nullopt;
    DerReader p(*params);
    auto oid = p.take(0x06);
    if (!oid || !p.done()) return std::nullopt;
    for (const auto& c : kCurves)
      if (c.oid == *oid) curve = &c;
  }
  auto pub = curve ? r.take(0xa1) : std::nullopt;
  if (!pub || !r.done()) return std::nullopt;
  DerReader b(*pub);
  auto bits = b.take(0x03);
  if (!bits || !b.done() || bits->size() != 2 + 2 * curve->scalar_len || (*bits)[0] != '\0' || (*bits)[1] != '\x04') return std::nullopt;
  if (k.scalar.size() != curve->scalar_len) return std::nullopt;
  k.curve = curve;
  k.point = bits->substr(1);
  return k;
}

std::optional<ParsedEcKey> parse_ec_der(std::string_view der) {
  DerReader outer(der);
  auto seq = outer.take(0x30);
  if (!seq || !outer.done()) return std::nullopt;
  DerReader r(*seq);
  if (r.take_exactly(0x02, std::string_view("\x00", 1))) {  // PKCS#8
    auto alg = r.take(0x30);
    if (!alg) return std::nullopt;
    DerReader a(*alg);
    auto oid = a.take_exactly(0x06, kEcPublicKeyOid) ? a.take(0x06) : std::nullopt;
    if (!oid || !a.done()) return std::nullopt;
    const Curve* curve = nullptr;
    for (const auto& c : kCurves)
      if (c.oid == *oid) curve = &c;
    auto inner = curve ? r.take(0x04) : std::nullopt;
    if (!inner || !r.done()) return std::nullopt;  // no attributes or public key field
    return parse_ec_private_key(*inner, curve);
  }
  return parse_ec_private_key(der, nullptr);
}

}  // namespace

EcKeyParts::~EcKeyParts() { OPENSSL_cleanse(scalar.data(), scalar.size()); }

std::optional<EcKeyParts> ec_key_parts(EVP_PKEY* key, int size, bool with_private) {
  const Curve* c = curve_of(size);
  if (!c || EVP_PKEY_get_base_id(key) != EVP_PKEY_EC) return std::nullopt;
  std::optional<EcKeyParts> out(std::in_place);
  out->size = size;
  unsigned char point[1 + 2 * 66];
  std::size_t len = 0;
  if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &len) != 1 ||
      len != 1 + 2 * c->scalar_len || point[0] != 0x04) {
    ERR_clear_error();
    return std::nullopt;
  }
  out->point.assign(reinterpret_cast<const char*>(point), len);
  if (!with_private) return out;
  BIGNUM* scalar = nullptr;
  if (EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &scalar) != 1 || !scalar) {
    ERR_clear_error();
    return std::nullopt;
  }
  out->scalar.resize(c->scalar_len);
  int written = BN_bn2binpad(scalar, reinterpret_cast<unsigned char*>(out->scalar.data()), static_cast<int>(c->scalar_len));
  BN_clear_free(scalar);
  if (written != static_cast<int>(c->scalar_len)) return std::nullopt;
  return out;
}

std::string ec_spki_der(const EcKeyParts& k) {
  return tlv(0x30, algorithm_identifier(*curve_of(k.size)) + bit_string(k.point));
}

std::string ec_sec1_der(const EcKeyParts& k) { return ec_private_key(k, *curve_of(k.size), true); }

std::string ec_pkcs8_der(const EcKeyParts& k) {
  const Curve& c = *curve_of(k.size);
  Wiped inner{ec_private_key(k, c, false)};
  Wiped body{tlv(0x02, std::string_view("\x00", 1)) + algorithm_identifier(c) + tlv(0x04, inner.s)};
  return tlv(0x30, body.s);
}

bool set_ec_public_key(X509_PUBKEY* field, EVP_PKEY* key, int size) {
  auto parts = ec_key_parts(key, size, false);
  if (!field || !parts) return false;
  auto* bits = static_cast<unsigned char*>(OPENSSL_memdup(parts->point.data(), parts->point.size()));
  if (!bits) return false;
  // Static objects: the algorithm identifier takes them without a copy to free.
  if (X509_PUBKEY_set0_param(field, OBJ_nid2obj(NID_X9_62_id_ecPublicKey), V_ASN1_OBJECT, OBJ_nid2obj(curve_of(size)->nid), bits,
                             static_cast<int>(parts->point.size())) != 1) {
    OPENSSL_free(bits);
    ERR_clear_error();
    return false;
  }
  return true;
}

EVP_PKEY* ec_key_from_der(std::string_view der) {
  auto k = parse_ec_der(der);
  if (!k) return nullptr;
  EVP_PKEY* out = nullptr;
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  BIGNUM* scalar = BN_secure_new();
  OSSL_PARAM* params = nullptr;
  EVP_PKEY_CTX* ctx = nullptr;
  if (bld && scalar && BN_bin2bn(reinterpret_cast<const unsigned char*>(k->scalar.data()), static_cast<int>(k->scalar.size()), scalar) &&
      OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, k->curve->group, 0) == 1 &&
      OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, scalar) == 1 &&
      OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, k->point.data(), k->point.size()) == 1 &&
      (params = OSSL_PARAM_BLD_to_param(bld)) && (ctx = EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr)) &&
      EVP_PKEY_fromdata_init(ctx) == 1)
    if (EVP_PKEY_fromdata(ctx, &out, EVP_PKEY_KEYPAIR, params) != 1) out = nullptr;
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);  // the secure part (the scalar) is cleared as it is freed
  BN_clear_free(scalar);
  OSSL_PARAM_BLD_free(bld);
  if (!out) ERR_clear_error();
  return out;
}

std::optional<std::string> ec_pem_body(std::string_view pem) {
  std::size_t start = pem.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return std::nullopt;
  pem.remove_prefix(start);
  for (std::string_view label : {std::string_view("EC PRIVATE KEY"), std::string_view("PRIVATE KEY")}) {
    std::string begin = "-----BEGIN " + std::string(label) + "-----", end = "-----END " + std::string(label) + "-----";
    if (!pem.starts_with(begin)) continue;
    std::size_t stop = pem.find(end, begin.size());
    if (stop == std::string_view::npos) return std::nullopt;
    return meta::base64_decode(pem.substr(begin.size(), stop - begin.size()));  // nullopt for headers (':' is no base64)
  }
  return std::nullopt;
}

std::string pem_armor(std::string_view label, std::string_view der) {
  Wiped text{std::string((der.size() + 2) / 3 * 4 + 1, '\0')};
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text.s.data()), reinterpret_cast<const unsigned char*>(der.data()),
                          static_cast<int>(der.size()));
  text.s.resize(static_cast<std::size_t>(n));
  std::string out;
  out.reserve(text.s.size() + text.s.size() / 64 + 2 * label.size() + 40);
  out.append("-----BEGIN ").append(label).append("-----\n");
  for (std::size_t i = 0; i < text.s.size(); i += 64) out.append(text.s, i, 64).append("\n");
  out.append("-----END ").append(label).append("-----\n");
  return out;
}

}  // namespace capstan::pki::detail
