// Random bytes from OpenSSL's CSPRNG, for secrets and identifiers (salts, passwords, signing
// keys, cluster IDs): the one place the process asks for them.
#pragma once

#include <cstddef>
#include <string>

namespace capstan::pki {

// `n` bytes (at most 1 MiB); throws PkiError naming OpenSSL's error when the generator fails.
std::string random_bytes(std::size_t n);

}  // namespace capstan::pki
