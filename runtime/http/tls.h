// TLS settings for the HTTP client and server (OpenSSL underneath).
#pragma once

#include <chrono>
#include <string>

namespace capstan::http {

struct ServerTls {
  // Serving certificate: from files (re-read when they change, like controller-runtime's
  // certwatcher) or from PEM text.
  std::string cert_file;
  std::string key_file;
  std::string cert_pem;
  std::string key_pem;
  // When set, clients may present a certificate; it must chain to this CA. The verified
  // subject is handed to handlers (Request::peer_cn / peer_orgs).
  std::string client_ca_pem;
  std::chrono::seconds reload_interval{10};
};

struct ClientTls {
  std::string ca_pem;             // trusted roots; empty = the system store
  bool insecure_skip_verify = false;
  std::string cert_pem;           // client certificate (mutual TLS)
  std::string key_pem;
  std::string server_name;        // overrides the name checked against the certificate
};

}  // namespace capstan::http
