#include "runtime/pki/random.h"

#include "runtime/pki/detail.h"

#include <openssl/rand.h>

namespace capstan::pki {

std::string random_bytes(std::size_t n) {
  constexpr std::size_t kMax = 1 << 20;
  if (n > kMax) throw PkiError("random bytes: " + std::to_string(n) + " asked for, at most " + std::to_string(kMax));
  std::string out(n, '\0');
  detail::ErrorScope scope;
  if (n > 0 && RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) detail::fail("random bytes");
  return out;
}

}  // namespace capstan::pki
