// Chain verification (OpenSSL's X509_verify_cert).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/pki/certificate.h"
#include "runtime/pki/template.h"
#include "runtime/pki/usage.h"

namespace capstan::pki {

struct VerifyOptions {
  std::optional<TimePoint> at;  // verification time; now if unset
  std::string dns_name;         // if set, the leaf must be valid for this host name
  std::string ip_address;       // if set, the leaf must carry this IP SAN
  // If set, the chain must allow this purpose (ServerAuth, ClientAuth, EmailProtection,
  // Timestamping, OcspSigning or Any; others throw PkiError).
  std::optional<ExtKeyUsage> purpose;
};

struct VerifyResult {
  bool ok = false;
  // Empty when ok; else e.g. "certificate 0 (CN=leaf): unable to get local issuer certificate".
  std::string error;
  explicit operator bool() const { return ok; }
};

// Builds a path from `leaf` through `intermediates` (untrusted) to one of `roots` (trusted)
// and checks signatures, validity periods, CA constraints and the options. Like Go's
// x509.Verify, every root is a trust anchor even when it is not self-signed (partial chains).
VerifyResult verify_chain(const Certificate& leaf, const std::vector<Certificate>& intermediates,
                          const std::vector<Certificate>& roots, const VerifyOptions& options = {});

}  // namespace capstan::pki
