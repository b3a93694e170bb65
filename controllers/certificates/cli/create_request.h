// `capstan certs create-csr` (cmctl's `x create certificaterequest`): a CertificateRequest made
// from a Certificate manifest, with a private key generated here as its spec.privateKey says and
// written to a local file (mode 0600, never sent); optionally waits for the issuer and writes
// the signed chain. For a certificate whose key must never reach the cluster.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace capstan::client {
class Client;
}

namespace capstan::certificates::cli {

struct CreateRequestOptions {
  std::string ns;                 // where the request is made (the manifest's namespace must match, if it has one)
  std::string name;               // the CertificateRequest's name (default: the Certificate's)
  std::string certificate_yaml;   // the manifest: one Certificate (certs.capstan.dev/v1 or cert-manager.io/v1)
  std::string key_file;           // default <name>.key
  std::string certificate_file;   // default <name>.crt
  bool fetch_certificate = false;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  std::chrono::milliseconds poll{std::chrono::seconds(1)};
};

// Returns the lines to print. Throws CliError naming the field, file or request.
std::vector<std::string> create_request(client::Client& c, CreateRequestOptions o);

}  // namespace capstan::certificates::cli
