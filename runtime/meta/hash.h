// A stable, non-cryptographic hash of a string (FNV-1a): the same value in every process and
// build, for names shortened with a hash and for spreading items over buckets that must not move
// between runs (std::hash promises neither). Never for integrity or secrets: see pki/digest.h.
#pragma once

#include <cstdint>
#include <string_view>

namespace capstan::meta {

constexpr std::uint32_t fnv1a32(std::string_view s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

constexpr std::uint64_t fnv1a64(std::string_view s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

static_assert(fnv1a32("a") == 0xe40c292cu);
static_assert(fnv1a64("a") == 0xaf63dc4c8601ec8cull);

}  // namespace capstan::meta
