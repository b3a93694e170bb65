#include "runtime/pki/parse_cache.h"

#include "runtime/pki/key.h"

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

TEST(ParseCache, TheSamePemGivesTheSameKeyAndBadPemStillThrows) {
  auto pem = PrivateKey::generate(KeyAlgorithm::ECDSA).to_pem();
  auto a = PrivateKey::from_pem(pem), b = PrivateKey::from_pem(pem);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.to_pem(), pem);
  EXPECT_THROW(PrivateKey::from_pem("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n"), std::exception);
}

}  // namespace
}  // namespace capstan::pki
