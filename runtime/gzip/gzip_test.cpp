#include "runtime/gzip/gzip.h"

#include <gtest/gtest.h>

#include <random>

namespace capstan::gzip {
namespace {

std::string sample(std::size_t n) {
  std::mt19937 rng(3);
  std::string s(n, '\0');
  // Compressible but not trivially: words from a small alphabet.
  for (auto& c : s) c = "abcdefgh \n"[rng() % 10];
  return s;
}

std::string streamed(std::string_view data, std::size_t piece) {
  std::string out;
  Writer w([&](std::string_view p) {
    out.append(p);
    return true;
  });
  for (std::size_t i = 0; i < data.size(); i += piece) EXPECT_TRUE(w.write(data.substr(i, piece)));
  EXPECT_TRUE(w.finish());
  EXPECT_EQ(w.bytes_out(), out.size());
  return out;
}

TEST(Gzip, OneShotRoundTripsAndIsTheSameEveryTime) {
  const std::string data = sample(300'000);
  EXPECT_EQ(decompress(compress(data)), data);
  EXPECT_EQ(compress(data), compress(data));
  EXPECT_EQ(decompress(compress("")), "");
  EXPECT_THROW(decompress("not gzip"), std::runtime_error);
  EXPECT_THROW(decompress(compress(data).substr(0, 100)), std::runtime_error);  // truncated
}

TEST(Gzip, AStreamGivesTheSameBytesWhateverThePiecesItIsGivenIn) {
  const std::string data = sample(300'000);  // several of the 64 KiB pieces zlib is fed
  const std::string whole = streamed(data, data.size());
  EXPECT_EQ(decompress(whole), data);
  EXPECT_EQ(streamed(data, 1000), whole);
  EXPECT_EQ(streamed(data, 65'537), whole);
  EXPECT_EQ(decompress(streamed("", 1)), "");
}

TEST(Gzip, ASinkThatStopsStopsTheStream) {
  int calls = 0;
  Writer w([&](std::string_view) { return ++calls < 2; }, 0);  // level 0: output as soon as input
  const std::string data = sample(400'000);
  bool ok = true;
  for (std::size_t i = 0; i < data.size() && ok; i += 70'000) ok = w.write(std::string_view(data).substr(i, 70'000));
  EXPECT_FALSE(ok && w.finish());
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace capstan::gzip
