#include "controllers/certificates/keystores.h"

#include "controllers/certificates/secret_view.h"
#include "runtime/pki/error.h"
#include "runtime/pki/jks.h"
#include "runtime/pki/pkcs12.h"

#include <algorithm>

namespace capstan::certificates {
namespace {

constexpr std::string_view kDefaultAlias = "certificate";
constexpr std::string_view kStoreKeys[] = {kKeystoreJks, kTruststoreJks, kKeystoreP12, kTruststoreP12};

template <class Store>
std::optional<std::string> password_of(const std::optional<Store>& store, std::string_view field, std::string_view ns,
                                       SecretReader& secrets) {
  if (!store || !store->create) return std::nullopt;
  if (!store->password_secret_ref) return store->password;
  const auto& ref = *store->password_secret_ref;
  const std::string where = "spec.keystores." + std::string(field) + ".passwordSecretRef: Secret \"" + ref.name + "\"";
  auto secret = secrets.get(ns, ref.name);
  if (!secret) throw KeystoreError(where + " not found");
  auto it = secret->data.find(ref.key);
  if (it == secret->data.end()) throw KeystoreError(where + " has no key \"" + ref.key + "\"");
  if (it->second.empty()) throw KeystoreError(where + " key \"" + ref.key + "\" is empty");
  return it->second;
}

std::vector<std::string> ders(const std::vector<pki::Certificate>& certs) {
  std::vector<std::string> out;
  for (const auto& c : certs) out.push_back(c.to_der());
  return out;
}

bool same_set(const std::vector<pki::Certificate>& a, const std::vector<pki::Certificate>& b) {
  auto x = ders(a), y = ders(b);
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y;
}

// "ca", "ca-1", "ca-2", ...
std::vector<pki::JksTrustedEntry> trusted_entries(const std::vector<pki::Certificate>& cas) {
  std::vector<pki::JksTrustedEntry> out;
  for (std::size_t i = 0; i < cas.size(); ++i) out.push_back({i == 0 ? "ca" : "ca-" + std::to_string(i), cas[i]});
  return out;
}

bool same_trusted(const std::vector<pki::JksTrustedEntry>& a, const std::vector<pki::JksTrustedEntry>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const auto& x, const auto& y) { return x.alias == y.alias && x.certificate == y.certificate; });
}

// `existing` when `still_good` accepts it (a PkiError means it does not), else a new store from
// `encode`.
template <class Check, class Encode>
std::string reuse_or(const std::string* existing, Check still_good, Encode encode) {
  try {
    if (existing && !existing->empty() && still_good(*existing)) return *existing;
  } catch (const pki::PkiError&) {
  }
  return encode();
}

const std::string* entry(const std::map<std::string, std::string>* data, std::string_view key) {
  if (!data) return nullptr;
  auto it = data->find(std::string(key));
  return it == data->end() ? nullptr : &it->second;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

std::string jks_truststore(const std::vector<pki::Certificate>& cas, const std::string& password, pki::TimePoint created,
                           const std::string* existing) {
  const pki::JksContents store{{}, {}, {}, trusted_entries(cas)};
  return reuse_or(
      existing,
      [&](const std::string& have) {
        auto got = pki::decode_jks(have, password);
        return got.key.empty() && same_trusted(got.trusted, store.trusted);
      },
      [&] { return pki::encode_jks(store, password, created); });
}

std::string pkcs12_truststore(const std::vector<pki::Certificate>& cas, const std::string& password, pki::Pkcs12Profile profile,
                              const std::string* existing) {
  return reuse_or(
      existing,
      [&](const std::string& have) {
        auto got = pki::decode_pkcs12(have, password);
        return got.profile == profile && got.key.empty() && same_set(got.certificates, cas);
      },
      [&] { return pki::encode_pkcs12_truststore(cas, password, profile); });
}

KeystorePasswords keystore_passwords(const v1::CertificateSpec& spec, std::string_view ns, SecretReader& secrets) {
  KeystorePasswords out;
  if (!spec.keystores) return out;
  out.jks = password_of(spec.keystores->jks, "jks", ns, secrets);
  out.pkcs12 = password_of(spec.keystores->pkcs12, "pkcs12", ns, secrets);
  return out;
}

std::map<std::string, std::string> keystore_outputs(const v1::CertificateSpec& spec, const KeystorePasswords& passwords,
                                                    const KeystoreInput& in,
                                                    const std::map<std::string, std::string>* existing) {
  std::map<std::string, std::string> out;
  if (!passwords.jks && !passwords.pkcs12) return out;
  pki::PrivateKey key;
  std::vector<pki::Certificate> chain, cas;
  try {
    key = pki::PrivateKey::from_pem(in.private_key_pem);
    chain = pki::Certificate::parse_chain(in.certificate_pem);
    if (!in.ca_pem.empty()) cas = pki::Certificate::parse_chain(in.ca_pem);
    if (chain.empty() || !key.matches(chain.front())) return out;
  } catch (const pki::PkiError&) {
    return out;
  }

  if (passwords.jks) {
    const std::string& pw = *passwords.jks;
    const auto& jks = *spec.keystores->jks;
    const pki::JksContents key_store{jks.alias.empty() ? std::string(kDefaultAlias) : jks.alias, key, chain,
                                     trusted_entries(cas)};
    const auto created = chain.front().not_before();
    out[std::string(kKeystoreJks)] = reuse_or(
        entry(existing, kKeystoreJks),
        [&](const std::string& have) {
          auto got = pki::decode_jks(have, pw);
          return got.key_alias == lower(key_store.key_alias) && got.key == key && ders(got.chain) == ders(chain) &&
                 same_trusted(got.trusted, key_store.trusted);
        },
        [&] { return pki::encode_jks(key_store, pw, created); });
    if (!cas.empty()) out[std::string(kTruststoreJks)] = jks_truststore(cas, pw, created, entry(existing, kTruststoreJks));
  }

  if (passwords.pkcs12) {
    const std::string& pw = *passwords.pkcs12;
    const auto profile = pki::parse_pkcs12_profile(spec.keystores->pkcs12->profile.empty() ? "LegacyRC2"
                                                                                            : spec.keystores->pkcs12->profile);
    if (!profile) return out;  // refused by the webhook; an object written around it gets no store
    std::vector<pki::Certificate> all = chain;
    all.insert(all.end(), cas.begin(), cas.end());
    out[std::string(kKeystoreP12)] = reuse_or(
        entry(existing, kKeystoreP12),
        [&](const std::string& have) {
          auto got = pki::decode_pkcs12(have, pw);
          return got.profile == profile && got.key == key && !got.certificates.empty() &&
                 got.certificates.front() == chain.front() && same_set(got.certificates, all);
        },
        [&] { return pki::encode_pkcs12(key, all, pw, *profile); });
    if (!cas.empty()) out[std::string(kTruststoreP12)] = pkcs12_truststore(cas, pw, *profile, entry(existing, kTruststoreP12));
  }
  return out;
}

std::optional<std::string> keystore_mismatch(const std::map<std::string, std::string>& desired,
                                             const std::map<std::string, std::string>& data) {
  for (auto key : kStoreKeys) {
    auto want = desired.find(std::string(key));
    auto have = data.find(std::string(key));
    if ((want == desired.end()) != (have == data.end()) || (want != desired.end() && want->second != have->second))
      return std::string(key);
  }
  return std::nullopt;
}

}  // namespace capstan::certificates
