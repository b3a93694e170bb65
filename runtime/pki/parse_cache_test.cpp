#include "runtime/pki/parse_cache.h"

#include "runtime/pki/certificate.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/key.h"
#include "runtime/pki/sign.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace capstan::pki {
namespace {

TEST(ParseCache, ParsesOnceAndEvictsTheLeastRecentlyUsed) {
  ParseCache<int> cache(2);
  int parses = 0;
  auto get = [&](std::string_view in, int v) { return cache.get_or_parse(in, [&] { ++parses; return v; }); };
  EXPECT_EQ(get("a", 1), 1);
  EXPECT_EQ(get("a", 99), 1);  // cached: the parser is not called
  EXPECT_EQ(get("b", 2), 2);
  EXPECT_EQ(get("a", 99), 1);  // "a" is now the most recent
  EXPECT_EQ(get("c", 3), 3);   // evicts "b"
  EXPECT_EQ(parses, 3);
  EXPECT_EQ(get("b", 4), 4);
  EXPECT_EQ(parses, 4);
  EXPECT_EQ(cache.size(), 2u);
}

// Hostile inputs (1 MiB Secrets) cannot make the cache hold gigabytes.
TEST(ParseCache, HoldsABoundedNumberOfBytes) {
  ParseCache<int> cache(512);
  int parses = 0;
  std::string big(kMaxCachedInputBytes + 1, 'x');
  cache.get_or_parse(big, [&] { return ++parses; });
  cache.get_or_parse(big, [&] { return ++parses; });
  EXPECT_EQ(parses, 2) << "an input over kMaxCachedInputBytes is not cached";
  EXPECT_EQ(cache.size(), 0u);
  for (int i = 0; i < 100; ++i) {
    std::string in(kMaxCachedInputBytes, static_cast<char>('a' + i % 26));
    in += std::to_string(i);
    in.resize(kMaxCachedInputBytes);
    in[0] = static_cast<char>(i);
    cache.get_or_parse(in, [] { return 1; });
  }
  EXPECT_LE(cache.size() * kMaxCachedInputBytes, kMaxCachedBytes);
  EXPECT_GT(cache.size(), 0u);
}

TEST(ParseCache, FailuresAreNotCached) {
  ParseCache<int> cache(4);
  EXPECT_THROW(cache.get_or_parse("x", []() -> int { throw std::runtime_error("bad"); }), std::runtime_error);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.get_or_parse("x", [] { return 7; }), 7);
}

TEST(ParseCache, WhatIsPutIsReturnedWithoutParsingAndBoundsStillHold) {
  ParseCache<int> cache(2);
  cache.put("a", 1);
  int parses = 0;
  EXPECT_EQ(cache.get_or_parse("a", [&] { return ++parses; }), 1);
  EXPECT_EQ(parses, 0);
  cache.put("a", 5);  // already held: kept as parsed first
  EXPECT_EQ(cache.get_or_parse("a", [&] { return ++parses; }), 1);
  cache.put("b", 2);
  cache.put("c", 3);  // evicts "a", the least recently used
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.get_or_parse("a", [&] { return ++parses; }), 1);
  EXPECT_EQ(parses, 1);
  cache.put(std::string(kMaxCachedInputBytes + 1, 'x'), 9);
  EXPECT_EQ(cache.size(), 2u) << "an input over kMaxCachedInputBytes is not held";
}

// What the library writes (a key's PEM, a request's, a certificate's) parses back to the same
// object; the parse after a write finds it in the cache.
TEST(ParseCache, WrittenPemParsesBackToTheSameObjects) {
  auto key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  for (auto encoding : {KeyEncoding::PKCS1, KeyEncoding::PKCS8}) {
    auto pem = key.to_pem(encoding);
    EXPECT_EQ(PrivateKey::from_pem(pem), key);
    EXPECT_EQ(PrivateKey::from_pem(pem).to_pkcs8_der(), key.to_pkcs8_der());
  }
  CertificateTemplate t;
  t.subject.common_name = "cache.example";
  t.dns_names = {"cache.example"};
  auto csr_pem = CertificateRequest::create(t, key);
  auto csr = CertificateRequest::parse(csr_pem);
  EXPECT_TRUE(csr.verify_signature());
  EXPECT_EQ(csr.public_key(), key.public_key());
  EXPECT_EQ(csr.fields().dns_names, t.dns_names);
  EXPECT_EQ(csr.to_pem(), csr_pem);
  auto cert = self_signed_ca("cache-ca", std::chrono::hours(1), key);
  auto cert_pem = cert.to_pem();
  EXPECT_EQ(Certificate::parse_pem(cert_pem), cert);
  EXPECT_TRUE(Certificate::parse_pem(cert_pem).is_self_signed());
  EXPECT_EQ(Certificate::parse_pem(cert_pem).public_key(), key.public_key());
}

// Requests and certificates carry exactly the SubjectPublicKeyInfo OpenSSL's provider encoder
// writes for the key (public_key_field.cpp writes it another way for ECDSA and RSA), and
// OpenSSL verifies what was signed over it.
TEST(ParseCache, RequestsAndCertificatesCarryTheKeysOwnPublicKeyInfo) {
  for (auto [algorithm, size] : {std::pair{KeyAlgorithm::ECDSA, 256}, std::pair{KeyAlgorithm::ECDSA, 384}, std::pair{KeyAlgorithm::RSA, 2048},
                                 std::pair{KeyAlgorithm::Ed25519, 0}}) {
    auto key = PrivateKey::generate(algorithm, size);
    CertificateTemplate t;
    t.subject.common_name = "spki.example";
    auto pem = CertificateRequest::create(t, key);
    for (const auto& csr : {CertificateRequest::parse(pem), CertificateRequest::parse_der(CertificateRequest::parse(pem).to_der())}) {
      EXPECT_EQ(csr.public_key().der(), key.public_key_der()) << algorithm_name(algorithm) << size;
      EXPECT_TRUE(csr.verify_signature()) << algorithm_name(algorithm) << size;
    }
    auto ca_key = PrivateKey::generate(KeyAlgorithm::ECDSA);
    auto ca = self_signed_ca("spki-ca", std::chrono::hours(1), ca_key);
    CsrSigningSpec spec;
    spec.duration = std::chrono::hours(1);
    auto leaf = sign_csr(CertificateRequest::parse(pem), spec, &ca, ca_key);
    EXPECT_EQ(leaf.public_key_der(), key.public_key_der()) << algorithm_name(algorithm) << size;
    EXPECT_TRUE(key.matches(leaf));
    EXPECT_TRUE(leaf.signed_by(ca));
    auto reparsed = Certificate::parse_der(leaf.to_der());
    EXPECT_EQ(reparsed.public_key(), key.public_key());
    EXPECT_TRUE(reparsed.signed_by(ca));
    EXPECT_TRUE(ca.is_self_signed());
  }
}

TEST(ParseCache, TheSamePemGivesTheSameKeyAndBadPemStillThrows) {
  auto pem = PrivateKey::generate(KeyAlgorithm::ECDSA).to_pem();
  auto a = PrivateKey::from_pem(pem), b = PrivateKey::from_pem(pem);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.to_pem(), pem);
  EXPECT_THROW(PrivateKey::from_pem("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n"), std::exception);
}

}  // namespace
}  // namespace capstan::pki
