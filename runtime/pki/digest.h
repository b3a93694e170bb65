// Content digests for names and change detection (not for signatures: see sign.h).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace capstan::pki {

// Lower-case hex of the first `bytes` bytes (at most 32) of SHA-256 over `data`: 8 bytes (64
// bits) are plenty to tell revisions of one object apart.
std::string sha256_hex(std::string_view data, std::size_t bytes = 32);

// SHA-256 over data given in pieces (a stream too large to hold at once).
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::string_view data);
  // Lower-case hex of the digest of everything given; the object is spent afterwards.
  std::string hex();

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
};

}  // namespace capstan::pki
