#include "runtime/http/tls_context.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/address.hpp>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace capstan::http::detail {
namespace ssl = boost::asio::ssl;

std::string openssl_errors() {
  std::string out;
  unsigned long e;
  while ((e = ERR_get_error()) != 0) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    if (!out.empty()) out += "; ";
    out += buf;
  }
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("reading " + path + ": cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {
void add_client_ca_names(SSL_CTX* ctx, const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  while (X509* x = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) {
    SSL_CTX_add_client_CA(ctx, x);
    X509_free(x);
  }
  ERR_clear_error();
  BIO_free(bio);
}
}  // namespace

std::shared_ptr<ssl::context> make_server_context(const ServerTls& tls, const std::string& cert_pem,
                                                  const std::string& key_pem) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                   ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
  boost::system::error_code ec;
  ctx->use_certificate_chain(boost::asio::buffer(cert_pem), ec);
  if (ec) throw std::runtime_error("loading serving certificate: " + ec.message() + " " + openssl_errors());
  ctx->use_private_key(boost::asio::buffer(key_pem), ssl::context::pem, ec);
  if (ec) throw std::runtime_error("loading serving key: " + ec.message());
  if (!SSL_CTX_check_private_key(ctx->native_handle()))
    throw std::runtime_error("serving key does not match the serving certificate");
  static const unsigned char sid[] = "capstan";
  SSL_CTX_set_session_id_context(ctx->native_handle(), sid, sizeof sid - 1);
  if (!tls.client_ca_pem.empty()) {
    ctx->add_certificate_authority(boost::asio::buffer(tls.client_ca_pem), ec);
    if (ec) throw std::runtime_error("loading client CA: " + ec.message() + " " + openssl_errors());
    add_client_ca_names(ctx->native_handle(), tls.client_ca_pem);
    ctx->set_verify_mode(ssl::verify_peer);
  }
  return ctx;
}

std::shared_ptr<ssl::context> make_client_context(const ClientTls& tls) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                   ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  boost::system::error_code ec;
  if (tls.insecure_skip_verify) {
    ctx->set_verify_mode(ssl::verify_none);
  } else {
    ctx->set_verify_mode(ssl::verify_peer);
    if (!tls.ca_pem.empty()) {
      ctx->add_certificate_authority(boost::asio::buffer(tls.ca_pem), ec);
      if (ec) throw std::runtime_error("loading certificate authority: " + ec.message() + " " + openssl_errors());
    } else {
      ctx->set_default_verify_paths();
    }
  }
  if (!tls.cert_pem.empty()) {
    ctx->use_certificate_chain(boost::asio::buffer(tls.cert_pem), ec);
    if (ec) throw std::runtime_error("loading client certificate: " + ec.message() + " " + openssl_errors());
    ctx->use_private_key(boost::asio::buffer(tls.key_pem), ssl::context::pem, ec);
    if (ec) throw std::runtime_error("loading client key: " + ec.message());
  }
  return ctx;
}

PeerIdentity peer_identity(void* handle) {
  PeerIdentity id;
  SSL* ssl = static_cast<SSL*>(handle);
  X509* cert = SSL_get1_peer_certificate(ssl);
  if (!cert) return id;
  if (SSL_get_verify_result(ssl) == X509_V_OK) {
    X509_NAME* name = X509_get_subject_name(cert);
    auto text = [](X509_NAME_ENTRY* e) {
      ASN1_STRING* s = X509_NAME_ENTRY_get_data(e);
      unsigned char* utf8 = nullptr;
      int n = ASN1_STRING_to_UTF8(&utf8, s);
      std::string out = n > 0 ? std::string(reinterpret_cast<char*>(utf8), static_cast<std::size_t>(n)) : "";
      OPENSSL_free(utf8);
      return out;
    };
    int idx = X509_NAME_get_index_by_NID(name, NID_commonName, -1);
    if (idx >= 0) id.cn = text(X509_NAME_get_entry(name, idx));
    for (idx = -1; (idx = X509_NAME_get_index_by_NID(name, NID_organizationName, idx)) >= 0;)
      id.orgs.push_back(text(X509_NAME_get_entry(name, idx)));
    id.present = true;
  }
  X509_free(cert);
  return id;
}

std::string verify_error(void* handle) {
  long r = SSL_get_verify_result(static_cast<SSL*>(handle));
  if (r == X509_V_OK) return "";
  return std::string("x509: ") + X509_verify_cert_error_string(r);
}

void configure_client_ssl(void* handle, const std::string& host, bool verify) {
  SSL* ssl = static_cast<SSL*>(handle);
  boost::system::error_code ec;
  boost::asio::ip::make_address(host, ec);
  bool is_ip = !ec;
  if (!is_ip) SSL_set_tlsext_host_name(ssl, host.c_str());
  if (!verify) return;
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  if (is_ip) X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
  else X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0);
}

}  // namespace capstan::http::detail
