// The one error of SOPS and age decryption. Messages name the file, the value's path or the key
// that failed, never a secret value or key.
#pragma once

#include <stdexcept>

namespace capstan::gitops::sops {

class DecryptError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace capstan::gitops::sops
