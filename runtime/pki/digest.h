// Content digests for names and change detection (not for signatures: see sign.h).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace capstan::pki {

// Lower-case hex of the first `bytes` bytes (at most 32) of SHA-256 over `data`: 8 bytes (64
// bits) are plenty to tell revisions of one object apart.
std::string sha256_hex(std::string_view data, std::size_t bytes = 32);

}  // namespace capstan::pki
