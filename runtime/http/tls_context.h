// Internal: builds OpenSSL contexts for the client and server. Included only by
// runtime/http sources (it pulls in Asio's SSL headers).
#pragma once

#include "runtime/http/tls.h"

#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <string>
#include <vector>

namespace capstan::http::detail {

std::shared_ptr<boost::asio::ssl::context> make_server_context(const ServerTls& tls, const std::string& cert_pem,
                                                               const std::string& key_pem);
std::shared_ptr<boost::asio::ssl::context> make_client_context(const ClientTls& tls);

// Reads a whole file; throws std::runtime_error naming it.
std::string read_file(const std::string& path);

// The verified peer certificate's CN and O values, when the handshake verified one.
struct PeerIdentity {
  std::string cn;
  std::vector<std::string> orgs;
  bool present = false;
};
PeerIdentity peer_identity(void* ssl_native_handle);

// Sets SNI and the name (or IP) the server certificate must match.
void configure_client_ssl(void* ssl_native_handle, const std::string& host, bool verify);

// Why certificate verification failed ("certificate signed by unknown authority"-like text
// from OpenSSL), or "" when it did not fail.
std::string verify_error(void* ssl_native_handle);

// The OpenSSL error queue as text (and clears it).
std::string openssl_errors();

}  // namespace capstan::http::detail
