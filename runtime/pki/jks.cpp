#include "runtime/pki/jks.h"

#include "runtime/pki/detail.h"
#include "runtime/pki/random.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <set>

namespace capstan::pki {
namespace {

constexpr std::uint32_t kMagic = 0xFEEDFEED;
constexpr std::uint32_t kVersion = 2;
constexpr std::uint32_t kPrivateKeyTag = 1;
constexpr std::uint32_t kTrustedTag = 2;
constexpr std::size_t kDigestLen = 20;  // SHA-1
constexpr std::size_t kMaxBytes = 1 << 20;
constexpr std::uint32_t kMaxEntries = 1024;
constexpr std::uint32_t kMaxChain = 64;
constexpr const char* kKeyProtectorOid = "1.3.6.1.4.1.42.2.17.1.1";
constexpr std::string_view kIntegrityWhitener = "Mighty Aphrodite";
constexpr std::string_view kCertType = "X.509";

[[noreturn]] void error(std::string_view what, std::string_view reason) {
  throw PkiError(std::string(what) + ": " + std::string(reason));
}

std::string sha1(std::initializer_list<std::string_view> parts) {
  detail::ErrorScope scope;
  std::unique_ptr<EVP_MD_CTX, detail::Deleter<EVP_MD_CTX, EVP_MD_CTX_free>> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha1(), nullptr) != 1) detail::fail("SHA-1");
  for (auto p : parts)
    if (EVP_DigestUpdate(ctx.get(), p.data(), p.size()) != 1) detail::fail("SHA-1");
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_DigestFinal_ex(ctx.get(), out, &n) != 1) detail::fail("SHA-1");
  return std::string(reinterpret_cast<char*>(out), n);
}

// ---- text: UTF-8 here, Java chars (UTF-16 code units) in the file ----------------------------
std::u16string utf16(std::string_view s, std::string_view what) {
  std::u16string out;
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0 || s.size() - i <= static_cast<std::size_t>(extra)) error(what, "not valid UTF-8");
    char32_t cp = extra == 0 ? c : c & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k) {
      auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) error(what, "not valid UTF-8");
      cp = (cp << 6) | (cc & 0x3F);
    }
    static constexpr char32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) error(what, "not valid UTF-8");
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
    i += static_cast<std::size_t>(extra) + 1;
  }
  return out;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::string utf8(const std::u16string& units, std::string_view what) {
  std::string out;
  for (std::size_t i = 0; i < units.size(); ++i) {
    char32_t cp = units[i];
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (units[++i] - 0xDC00);
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
      error(what, "an alias holds a lone UTF-16 surrogate");
    }
    append_utf8(out, cp);
  }
  return out;
}

// The password as the JDK hashes it: each char as two bytes, big-endian.
std::string password_bytes(std::string_view password, std::string_view what) {
  std::string out;
  for (char16_t u : utf16(password, what)) {
    out.push_back(static_cast<char>(u >> 8));
    out.push_back(static_cast<char>(u & 0xFF));
  }
  return out;
}

// ---- the file's primitives (java.io.DataOutput) ----------------------------------------------
class Writer {
 public:
  void u16(std::uint32_t v) { put(v, 2); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void bytes(std::string_view b) {
    u32(static_cast<std::uint32_t>(b.size()));
    out_.append(b);
  }
  // DataOutput.writeUTF: modified UTF-8 (NUL as two bytes, supplementary chars as surrogates).
  void utf(std::string_view s, std::string_view what) {
    std::string m;
    for (char16_t u : utf16(s, what)) {
      if (u != 0 && u < 0x80) {
        m.push_back(static_cast<char>(u));
      } else if (u < 0x800) {
        m.push_back(static_cast<char>(0xC0 | (u >> 6)));
        m.push_back(static_cast<char>(0x80 | (u & 0x3F)));
      } else {
        m.push_back(static_cast<char>(0xE0 | (u >> 12)));
        m.push_back(static_cast<char>(0x80 | ((u >> 6) & 0x3F)));
        m.push_back(static_cast<char>(0x80 | (u & 0x3F)));
      }
    }
    if (m.size() > 0xFFFF) error(what, "longer than 65535 bytes");
    u16(static_cast<std::uint32_t>(m.size()));
    out_.append(m);
  }
  std::string& data() { return out_; }

 private:
  void put(std::uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  std::string out_;
};

class Reader {
 public:
  Reader(std::string_view data, std::string_view what) : data_(data), what_(what) {}
  std::uint64_t uint(int n) {
    need(static_cast<std::size_t>(n));
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(data_[pos_++]);
    return v;
  }
  std::string_view take(std::size_t n) {
    need(n);
    auto out = data_.substr(pos_, n);
    pos_ += n;
    return out;
  }
  std::string_view bytes() { return take(uint(4)); }
  std::string utf() {
    std::string_view m = take(uint(2));
    std::u16string units;
    for (std::size_t i = 0; i < m.size();) {
      auto c = static_cast<unsigned char>(m[i]);
      int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 0;
      if (n == 0 || i + static_cast<std::size_t>(n) > m.size()) error(what_, "malformed modified UTF-8 in an alias");
      char16_t u = n == 1 ? c : n == 2 ? (c & 0x1F) : (c & 0x0F);
      for (int k = 1; k < n; ++k) {
        auto cc = static_cast<unsigned char>(m[i + static_cast<std::size_t>(k)]);
        if ((cc & 0xC0) != 0x80) error(what_, "malformed modified UTF-8 in an alias");
        u = static_cast<char16_t>((u << 6) | (cc & 0x3F));
      }
      units.push_back(u);
      i += static_cast<std::size_t>(n);
    }
    return utf8(units, what_);
  }
  std::size_t pos() const { return pos_; }

 private:
  void need(std::size_t n) {
    if (n > data_.size() - pos_) error(what_, "truncated file");
  }
  std::string_view data_;
  std::string_view what_;
  std::size_t pos_ = 0;
};

// ---- KeyProtector ----------------------------------------------------------------------------
std::string key_stream(std::string_view pw, std::string_view salt, std::size_t n) {
  std::string stream, digest(salt);
  while (stream.size() < n) {
    digest = sha1({pw, digest});
    stream.append(digest, 0, std::min(kDigestLen, n - stream.size()));
  }
  return stream;
}

std::string protect(const PrivateKey& key, std::string_view pw, std::string_view what) {
  std::string plain = key.to_pkcs8_der();
  std::string salt = random_bytes(kDigestLen);
  std::string enc = key_stream(pw, salt, plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) enc[i] = static_cast<char>(enc[i] ^ plain[i]);
  std::string body = salt + enc + sha1({pw, plain});
  OPENSSL_cleanse(plain.data(), plain.size());
  detail::ErrorScope scope;
  std::unique_ptr<X509_SIG, detail::Deleter<X509_SIG, X509_SIG_free>> info(X509_SIG_new());
  if (!info) detail::fail(what);
  X509_ALGOR* alg = nullptr;
  ASN1_OCTET_STRING* data = nullptr;
  X509_SIG_getm(info.get(), &alg, &data);
  ASN1_OBJECT* oid = OBJ_txt2obj(kKeyProtectorOid, 1);
  if (!oid || X509_ALGOR_set0(alg, oid, V_ASN1_NULL, nullptr) != 1) {
    ASN1_OBJECT_free(oid);
    detail::fail(what);
  }
  if (ASN1_OCTET_STRING_set(data, reinterpret_cast<const unsigned char*>(body.data()), static_cast<int>(body.size())) != 1)
    detail::fail(what);
  return detail::i2d_string([&](unsigned char** out) { return i2d_X509_SIG(info.get(), out); }, what);
}

PrivateKey recover(std::string_view protected_key, std::string_view pw, std::string_view what) {
  detail::ErrorScope scope;
  using SigPtr = std::unique_ptr<X509_SIG, detail::Deleter<X509_SIG, X509_SIG_free>>;
  auto info = detail::d2i_whole<SigPtr>(protected_key, d2i_X509_SIG, what, "protected private key");
  const X509_ALGOR* alg = nullptr;
  const ASN1_OCTET_STRING* data = nullptr;
  X509_SIG_get0(info.get(), &alg, &data);
  char oid[64];
  OBJ_obj2txt(oid, sizeof oid, alg->algorithm, 1);
  if (std::string_view(oid) != kKeyProtectorOid)
    error(what, std::string("private key protected by ") + oid + ", not the JDK's KeyProtector");
  std::string body = detail::asn1_bytes(data);
  if (body.size() <= 2 * kDigestLen) error(what, "protected private key too short");
  std::string_view salt = std::string_view(body).substr(0, kDigestLen);
  std::string_view enc = std::string_view(body).substr(kDigestLen, body.size() - 2 * kDigestLen);
  std::string plain = key_stream(pw, salt, enc.size());
  for (std::size_t i = 0; i < enc.size(); ++i) plain[i] = static_cast<char>(plain[i] ^ enc[i]);
  if (sha1({pw, plain}) != std::string_view(body).substr(body.size() - kDigestLen))
    error(what, "the private key's checksum does not match (wrong key password)");
  auto p = reinterpret_cast<const unsigned char*>(plain.data());
  detail::PkeyPtr key(d2i_AutoPrivateKey(nullptr, &p, static_cast<long>(plain.size())));
  OPENSSL_cleanse(plain.data(), plain.size());
  if (!key) detail::fail(what, "the protected private key is not PKCS#8");
  return detail::Access::make_private(std::move(key), what);
}

std::string lower_ascii(std::string s) {
  for (auto& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

}  // namespace

std::string encode_jks(const JksContents& contents, std::string_view password, TimePoint created) {
  constexpr std::string_view what = "writing JKS key store";
  const bool has_key = !contents.key.empty();
  if (has_key && contents.chain.empty()) error(what, "a private key entry needs its certificate");
  if (has_key && !contents.key.matches(contents.chain.front())) error(what, "the private key does not match the certificate");
  const std::string pw = password_bytes(password, what);
  const auto millis =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(created.time_since_epoch()).count());
  std::set<std::string> aliases;
  auto alias_of = [&](std::string_view alias) {
    std::string a = lower_ascii(std::string(alias));
    if (a.empty()) error(what, "an entry has an empty alias");
    if (!aliases.insert(a).second) error(what, "alias \"" + a + "\" is used twice");
    return a;
  };
  Writer w;
  w.u32(kMagic);
  w.u32(kVersion);
  w.u32(static_cast<std::uint32_t>(contents.trusted.size() + (has_key ? 1 : 0)));
  if (has_key) {
    w.u32(kPrivateKeyTag);
    w.utf(alias_of(contents.key_alias), what);
    w.u64(millis);
    w.bytes(protect(contents.key, pw, what));
    w.u32(static_cast<std::uint32_t>(contents.chain.size()));
    for (const auto& cert : contents.chain) {
      w.utf(kCertType, what);
      w.bytes(cert.to_der());
    }
  }
  for (const auto& entry : contents.trusted) {
    w.u32(kTrustedTag);
    w.utf(alias_of(entry.alias), what);
    w.u64(millis);
    w.utf(kCertType, what);
    w.bytes(entry.certificate.to_der());
  }
  std::string& out = w.data();
  out += sha1({pw, kIntegrityWhitener, out});
  return std::move(out);
}

JksContents decode_jks(std::string_view data, std::string_view password) {
  constexpr std::string_view what = "reading JKS";
  if (data.size() > kMaxBytes)
    error(what, std::to_string(data.size()) + " bytes, at most " + std::to_string(kMaxBytes));
  if (data.size() < 12 + kDigestLen) error(what, "truncated file");
  const std::string pw = password_bytes(password, what);
  std::string_view body = data.substr(0, data.size() - kDigestLen);
  if (sha1({pw, kIntegrityWhitener, body}) != data.substr(body.size()))
    error(what, "wrong password or a damaged file (the integrity check fails)");
  Reader r(body, what);
  if (r.uint(4) != kMagic) error(what, "not a JKS file (bad magic number)");
  if (auto v = r.uint(4); v != kVersion) error(what, "JKS version " + std::to_string(v) + ", only version 2 is read");
  const auto count = r.uint(4);
  if (count > kMaxEntries) error(what, std::to_string(count) + " entries, at most " + std::to_string(kMaxEntries));
  auto certificate = [&] {
    if (std::string type = r.utf(); type != kCertType) error(what, "certificate of type \"" + type + "\"");
    return Certificate::parse_der(r.bytes());
  };
  JksContents out;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto tag = r.uint(4);
    std::string alias = r.utf();
    r.uint(8);  // creation date
    if (tag == kPrivateKeyTag) {
      if (!out.key.empty()) error(what, "more than one private key entry");
      out.key_alias = std::move(alias);
      out.key = recover(r.bytes(), pw, what);
      const auto chain = r.uint(4);
      if (chain > kMaxChain) error(what, std::to_string(chain) + " certificates in a chain, at most " + std::to_string(kMaxChain));
      for (std::uint64_t k = 0; k < chain; ++k) out.chain.push_back(certificate());
    } else if (tag == kTrustedTag) {
      out.trusted.push_back({std::move(alias), certificate()});
    } else {
      error(what, "entry of unknown kind " + std::to_string(tag));
    }
  }
  if (r.pos() != body.size()) error(what, "trailing data after the entries");
  return out;
}

}  // namespace capstan::pki
