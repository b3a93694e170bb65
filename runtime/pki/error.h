// The one exception type of runtime/pki.
#pragma once

#include <stdexcept>
#include <string>

namespace capstan::pki {

// Thrown by every failing operation. The message names what was being done and, when OpenSSL
// failed, the text of OpenSSL's error queue, e.g.
//   "parsing certificate PEM: PEM routines::no start line (Expecting: CERTIFICATE)".
// Messages never contain private key material or the input that was being parsed.
class PkiError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace capstan::pki
