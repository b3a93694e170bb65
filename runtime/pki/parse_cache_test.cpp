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
