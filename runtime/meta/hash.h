// A stable, non-cryptographic hash of a string (FNV-1a): the same value in every process and
// build, for names shortened with a hash and for spreading items over buckets that must not move
// between runs (std::hash promises neither). Never for integrity or secrets: see pki/digest.h.
#pragma once

#include <cstdint>
#include <string_view>

namespace capstan::meta {

// FNV-1a with the given offset basis and prime (the width is H's).
template <typename H>
constexpr H fnv1a(std::string_view s, H basis, H prime) {
  H h = basis;
  for (unsigned char c : s) {
    h ^= c;
    h *= prime;
  }
  return h;
}

constexpr std::uint32_t fnv1a32(std::string_view s) { return fnv1a<std::uint32_t>(s, 2166136261u, 16777619u); }
constexpr std::uint64_t fnv1a64(std::string_view s) { return fnv1a<std::uint64_t>(s, 14695981039346656037ull, 1099511628211ull); }

static_assert(fnv1a32("a") == 0xe40c292cu);
static_assert(fnv1a64("a") == 0xaf63dc4c8601ec8cull);

}  // namespace capstan::meta
