#include "runtime/pki/pkcs12.h"

#include "runtime/pki/detail.h"

#include <openssl/pkcs12.h>
#include <openssl/provider.h>

namespace capstan::pki {
namespace {

using detail::fail;

constexpr int kIterations = 2048;
constexpr std::size_t kMaxBytes = 1 << 20;
constexpr int kMaxCertificates = 256;
// Oracle's trusted-key-usage attribute (JDK's PKCS12KeyStore) and anyExtendedKeyUsage.
constexpr const char* kJavaTrustedKeyUsage = "2.16.840.1.113894.746875.1.1";
constexpr const char* kAnyExtendedKeyUsage = "2.5.29.37.0";

void free_p12(PKCS12* p) { PKCS12_free(p); }
void free_bags(STACK_OF(PKCS12_SAFEBAG) * s) { sk_PKCS12_SAFEBAG_pop_free(s, PKCS12_SAFEBAG_free); }
void free_safes(STACK_OF(PKCS7) * s) { sk_PKCS7_pop_free(s, PKCS7_free); }
void free_obj(ASN1_OBJECT* o) { ASN1_OBJECT_free(o); }
using P12Ptr = std::unique_ptr<PKCS12, detail::Deleter<PKCS12, free_p12>>;
using BagsPtr = std::unique_ptr<STACK_OF(PKCS12_SAFEBAG), detail::Deleter<STACK_OF(PKCS12_SAFEBAG), free_bags>>;
using SafesPtr = std::unique_ptr<STACK_OF(PKCS7), detail::Deleter<STACK_OF(PKCS7), free_safes>>;
using ObjPtr = std::unique_ptr<ASN1_OBJECT, detail::Deleter<ASN1_OBJECT, free_obj>>;

struct Algorithms {
  int key;            // PKCS12_create's nid_key
  int certificates;   // nid_cert
  const EVP_MD* mac;
};

Algorithms algorithms(Pkcs12Profile p) {
  switch (p) {
    case Pkcs12Profile::LegacyRC2:
      return {NID_pbe_WithSHA1And3_Key_TripleDES_CBC, NID_pbe_WithSHA1And40BitRC2_CBC, EVP_sha1()};
    case Pkcs12Profile::LegacyDES:
      return {NID_pbe_WithSHA1And3_Key_TripleDES_CBC, NID_pbe_WithSHA1And3_Key_TripleDES_CBC, EVP_sha1()};
    case Pkcs12Profile::Modern2023:
      // A cipher NID makes OpenSSL 3 write PBES2 with PBKDF2-HMAC-SHA-256.
      return {NID_aes_256_cbc, NID_aes_256_cbc, EVP_sha256()};
  }
  throw PkiError("PKCS#12: unknown profile");
}

// RC2 lives in OpenSSL 3's legacy provider. It only adds algorithms the default provider does not
// have, and the default provider stays available (fallbacks retained).
void need_legacy_provider(std::string_view what) {
  static const bool loaded = OSSL_PROVIDER_try_load(nullptr, "legacy", 1) != nullptr;
  if (!loaded) throw PkiError(std::string(what) + ": OpenSSL's legacy provider (RC2) cannot be loaded");
}

std::string nul_terminated(std::string_view password, std::string_view what) {
  if (password.find('\0') != std::string_view::npos) throw PkiError(std::string(what) + ": the password contains a NUL byte");
  return std::string(password);
}

std::string finish(PKCS12* p12, const std::string& password, const Algorithms& alg, std::string_view what) {
  if (PKCS12_set_mac(p12, password.c_str(), -1, nullptr, 0, kIterations, alg.mac) != 1) fail(what, "computing the MAC");
  return detail::i2d_string([&](unsigned char** out) { return i2d_PKCS12(p12, out); }, what);
}

// The algorithm NID of a PKCS#7 encrypted-data content, or of a shrouded key bag in a data content.
void read_algorithms(const PKCS12* p12, int& certificates, int& key) {
  SafesPtr safes(PKCS12_unpack_authsafes(p12));
  if (!safes) return;
  for (int i = 0; i < sk_PKCS7_num(safes.get()); ++i) {
    PKCS7* p7 = sk_PKCS7_value(safes.get(), i);
    int type = OBJ_obj2nid(p7->type);
    if (type == NID_pkcs7_encrypted && p7->d.encrypted && p7->d.encrypted->enc_data) {
      certificates = OBJ_obj2nid(p7->d.encrypted->enc_data->algorithm->algorithm);
    } else if (type == NID_pkcs7_data) {
      BagsPtr bags(PKCS12_unpack_p7data(p7));
      for (int j = 0; bags && j < sk_PKCS12_SAFEBAG_num(bags.get()); ++j) {
        const PKCS12_SAFEBAG* bag = sk_PKCS12_SAFEBAG_value(bags.get(), j);
        if (PKCS12_SAFEBAG_get_nid(bag) != NID_pkcs8ShroudedKeyBag) continue;
        const X509_ALGOR* alg = nullptr;
        X509_SIG_get0(PKCS12_SAFEBAG_get0_pkcs8(bag), &alg, nullptr);
        if (alg) key = OBJ_obj2nid(alg->algorithm);
      }
    }
  }
}

std::optional<Pkcs12Profile> profile_of(const PKCS12* p12) {
  const X509_ALGOR* mac = nullptr;
  PKCS12_get0_mac(nullptr, &mac, nullptr, nullptr, p12);
  const ASN1_OBJECT* mac_obj = nullptr;
  if (mac) X509_ALGOR_get0(&mac_obj, nullptr, nullptr, mac);
  int mac_nid = mac_obj ? OBJ_obj2nid(mac_obj) : NID_undef;
  int certificates = NID_undef, key = NID_undef;
  read_algorithms(p12, certificates, key);
  for (auto p : {Pkcs12Profile::LegacyRC2, Pkcs12Profile::LegacyDES, Pkcs12Profile::Modern2023}) {
    Algorithms a = algorithms(p);
    int want_cert = a.certificates == NID_aes_256_cbc ? NID_pbes2 : a.certificates;
    int want_key = a.key == NID_aes_256_cbc ? NID_pbes2 : a.key;
    if (mac_nid == EVP_MD_get_type(a.mac) && certificates == want_cert && (key == NID_undef || key == want_key)) return p;
  }
  return std::nullopt;
}

}  // namespace

std::string_view pkcs12_profile_name(Pkcs12Profile p) {
  switch (p) {
    case Pkcs12Profile::LegacyRC2: return "LegacyRC2";
    case Pkcs12Profile::LegacyDES: return "LegacyDES";
    case Pkcs12Profile::Modern2023: return "Modern2023";
  }
  return "";
}

std::optional<Pkcs12Profile> parse_pkcs12_profile(std::string_view name) {
  for (auto p : {Pkcs12Profile::LegacyRC2, Pkcs12Profile::LegacyDES, Pkcs12Profile::Modern2023})
    if (pkcs12_profile_name(p) == name) return p;
  return std::nullopt;
}

std::string encode_pkcs12(const PrivateKey& key, const std::vector<Certificate>& chain, std::string_view password,
                          Pkcs12Profile profile) {
  constexpr std::string_view what = "writing PKCS#12 key store";
  if (chain.empty()) throw PkiError(std::string(what) + ": no certificate");
  if (!key.matches(chain.front())) throw PkiError(std::string(what) + ": the private key does not match the certificate");
  const std::string pw = nul_terminated(password, what);
  if (profile == Pkcs12Profile::LegacyRC2) need_legacy_provider(what);
  const Algorithms alg = algorithms(profile);
  detail::ErrorScope scope;
  detail::X509StackPtr rest(sk_X509_new_null());
  if (!rest) fail(what);
  for (std::size_t i = 1; i < chain.size(); ++i) {
    X509* x = detail::Access::x509(chain[i]);
    if (sk_X509_push(rest.get(), x) <= 0) fail(what);
    X509_up_ref(x);
  }
  P12Ptr p12(PKCS12_create_ex(pw.c_str(), nullptr, detail::Access::pkey(key), detail::Access::x509(chain.front()), rest.get(),
                              alg.key, alg.certificates, kIterations, -1, 0, nullptr, nullptr));
  if (!p12) fail(what);
  return finish(p12.get(), pw, alg, what);
}

std::string encode_pkcs12_truststore(const std::vector<Certificate>& cas, std::string_view password,
                                     Pkcs12Profile profile) {
  constexpr std::string_view what = "writing PKCS#12 trust store";
  if (cas.empty()) throw PkiError(std::string(what) + ": no certificate");
  const std::string pw = nul_terminated(password, what);
  if (profile == Pkcs12Profile::LegacyRC2) need_legacy_provider(what);
  const Algorithms alg = algorithms(profile);
  detail::ErrorScope scope;
  ObjPtr any_usage(OBJ_txt2obj(kAnyExtendedKeyUsage, 1));
  if (!any_usage) fail(what);
  BagsPtr bags(sk_PKCS12_SAFEBAG_new_null());
  if (!bags) fail(what);
  STACK_OF(PKCS12_SAFEBAG)* raw_bags = bags.get();  // PKCS12_add_cert pushes onto it
  for (const auto& cert : cas) {
    PKCS12_SAFEBAG* bag = PKCS12_add_cert(&raw_bags, detail::Access::x509(cert));
    if (!bag) fail(what, "adding a certificate");
    const std::string name = cert.subject_dn();
    if (PKCS12_add_friendlyname_asc(bag, name.c_str(), -1) != 1 ||
        PKCS12_add1_attr_by_txt(bag, kJavaTrustedKeyUsage, V_ASN1_OBJECT, reinterpret_cast<const unsigned char*>(any_usage.get()),
                                -1) != 1)
      fail(what, "adding the certificate's attributes");
  }
  STACK_OF(PKCS7)* raw_safes = nullptr;
  int added = PKCS12_add_safe_ex(&raw_safes, bags.get(), alg.certificates, kIterations, pw.c_str(), nullptr, nullptr);
  SafesPtr safes(raw_safes);
  if (added != 1) fail(what, "encrypting the certificates");
  P12Ptr p12(PKCS12_add_safes_ex(safes.get(), 0, nullptr, nullptr));
  if (!p12) fail(what);
  return finish(p12.get(), pw, alg, what);
}

Pkcs12Contents decode_pkcs12(std::string_view der, std::string_view password) {
  constexpr std::string_view what = "reading PKCS#12";
  if (der.size() > kMaxBytes)
    throw PkiError(std::string(what) + ": " + std::to_string(der.size()) + " bytes, at most " + std::to_string(kMaxBytes));
  const std::string pw = nul_terminated(password, what);
  need_legacy_provider(what);
  detail::ErrorScope scope;
  auto p12 = detail::d2i_whole<P12Ptr>(der, d2i_PKCS12, what, "PKCS#12 structure");
  if (PKCS12_mac_present(p12.get()) != 1) throw PkiError(std::string(what) + ": the file has no MAC");
  if (PKCS12_verify_mac(p12.get(), pw.c_str(), -1) != 1) throw PkiError(std::string(what) + ": wrong password (the MAC does not verify)");
  EVP_PKEY* raw_key = nullptr;
  X509* raw_cert = nullptr;
  STACK_OF(X509)* raw_ca = nullptr;
  if (PKCS12_parse(p12.get(), pw.c_str(), &raw_key, &raw_cert, &raw_ca) != 1) fail(what);
  detail::PkeyPtr key(raw_key);
  detail::X509Ptr cert(raw_cert);
  detail::X509StackPtr ca(raw_ca);
  Pkcs12Contents out;
  if (key) out.key = detail::Access::make_private(std::move(key), what);
  if (cert) out.certificates.push_back(detail::Access::make_certificate(std::move(cert), what));
  const int n = ca ? sk_X509_num(ca.get()) : 0;
  if (n > kMaxCertificates)
    throw PkiError(std::string(what) + ": " + std::to_string(n) + " certificates, at most " + std::to_string(kMaxCertificates));
  for (int i = 0; i < n; ++i) {
    X509* x = sk_X509_value(ca.get(), i);
    X509_up_ref(x);
    out.certificates.push_back(detail::Access::make_certificate(detail::X509Ptr(x), what));
  }
  out.profile = profile_of(p12.get());
  return out;
}

}  // namespace capstan::pki
