#include "controllers/kafka/wire.h"

#include "runtime/net/tcp.h"

#include <librdkafka/rdkafka.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>

namespace capstan::kafka::wire {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr std::int32_t kMaxResponseBytes = 8 << 20;  // a few users' credentials need a few hundred bytes
constexpr std::uint32_t kMaxLength = 1 << 20;        // of one string or array in a response

[[noreturn]] void bad_message(const std::string& what) { throw AdminError("_BAD_MSG", "malformed Kafka response: " + what); }

std::string openssl_errors() {
  std::string out;
  while (unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    out += (out.empty() ? "" : "; ") + std::string(buf);
  }
  return out.empty() ? "no detail" : out;
}

std::pair<std::string, std::string> split_address(const std::string& address) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size())
    throw AdminError("_INVALID_ARG", "not a host:port address: " + address);
  return {address.substr(0, colon), address.substr(colon + 1)};
}

struct SslCtxFree {
  void operator()(SSL_CTX* c) const { SSL_CTX_free(c); }
};
struct SslFree {
  void operator()(SSL* s) const { SSL_free(s); }
};
struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
using Bio = std::unique_ptr<BIO, BioFree>;

Bio memory_bio(const std::string& pem) { return Bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()))); }

// A client context presenting `tls`'s certificate (and its chain) and trusting its CA alone.
std::unique_ptr<SSL_CTX, SslCtxFree> client_context(const ClientTls& tls, const std::string& what) {
  std::unique_ptr<SSL_CTX, SslCtxFree> ctx(SSL_CTX_new(TLS_client_method()));
  if (!ctx) throw AdminError("_SSL", what + ": " + openssl_errors());
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
  X509_STORE* store = SSL_CTX_get_cert_store(ctx.get());
  {
    Bio bio = memory_bio(tls.ca_pem);
    int trusted = 0;
    while (X509* ca = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
      X509_STORE_add_cert(store, ca);
      X509_free(ca);
      ++trusted;
    }
    ERR_clear_error();  // the end of the PEM
    if (trusted == 0) throw AdminError("_SSL", what + ": the CA bundle holds no certificate");
  }
  {
    Bio bio = memory_bio(tls.certificate_pem);
    X509* leaf = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr);
    if (!leaf || SSL_CTX_use_certificate(ctx.get(), leaf) != 1) {
      X509_free(leaf);
      throw AdminError("_SSL", what + ": the client certificate: " + openssl_errors());
    }
    X509_free(leaf);
    while (X509* chain = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr))
      if (SSL_CTX_add_extra_chain_cert(ctx.get(), chain) != 1) X509_free(chain);  // owned by the context on success
    ERR_clear_error();
  }
  {
    Bio bio = memory_bio(tls.key_pem);
    EVP_PKEY* key = PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr);
    const bool ok = key && SSL_CTX_use_PrivateKey(ctx.get(), key) == 1 && SSL_CTX_check_private_key(ctx.get()) == 1;
    EVP_PKEY_free(key);
    if (!ok) throw AdminError("_SSL", what + ": the client key: " + openssl_errors());  // never the key itself
  }
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  return ctx;
}

}  // namespace

Writer& Writer::int8(std::int8_t v) {
  out_.push_back(static_cast<char>(v));
  return *this;
}
Writer& Writer::int16(std::int16_t v) {
  const auto u = static_cast<std::uint16_t>(v);
  out_.push_back(static_cast<char>(u >> 8));
  out_.push_back(static_cast<char>(u & 0xff));
  return *this;
}
Writer& Writer::int32(std::int32_t v) {
  const auto u = static_cast<std::uint32_t>(v);
  for (int shift = 24; shift >= 0; shift -= 8) out_.push_back(static_cast<char>((u >> shift) & 0xff));
  return *this;
}
Writer& Writer::int64(std::int64_t v) {
  const auto u = static_cast<std::uint64_t>(v);
  for (int shift = 56; shift >= 0; shift -= 8) out_.push_back(static_cast<char>((u >> shift) & 0xff));
  return *this;
}
Writer& Writer::uvarint(std::uint32_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<char>(v));
  return *this;
}
Writer& Writer::compact_string(std::string_view s) {
  uvarint(static_cast<std::uint32_t>(s.size() + 1));
  out_.append(s);
  return *this;
}
Writer& Writer::nullable_string(std::string_view s) {
  int16(static_cast<std::int16_t>(s.size()));
  out_.append(s);
  return *this;
}
Writer& Writer::compact_nullable_string(const std::optional<std::string>& s) { return s ? compact_string(*s) : uvarint(0); }
Writer& Writer::boolean(bool v) { return int8(v ? 1 : 0); }
Writer& Writer::float64(double v) { return int64(std::bit_cast<std::int64_t>(v)); }
Writer& Writer::compact_array_size(std::size_t n) { return uvarint(static_cast<std::uint32_t>(n + 1)); }
Writer& Writer::no_tags() { return uvarint(0); }

std::string_view Reader::take(std::size_t n) {
  if (n > data_.size() - pos_) bad_message("needs " + std::to_string(n) + " bytes at offset " + std::to_string(pos_) + " of " + std::to_string(data_.size()));
  auto out = data_.substr(pos_, n);
  pos_ += n;
  return out;
}
std::int8_t Reader::int8() { return static_cast<std::int8_t>(take(1)[0]); }
std::int16_t Reader::int16() {
  auto b = take(2);
  return static_cast<std::int16_t>((static_cast<std::uint8_t>(b[0]) << 8) | static_cast<std::uint8_t>(b[1]));
}
std::int32_t Reader::int32() {
  auto b = take(4);
  std::uint32_t u = 0;
  for (char c : b) u = (u << 8) | static_cast<std::uint8_t>(c);
  return static_cast<std::int32_t>(u);
}
std::int64_t Reader::int64() {
  std::uint64_t u = 0;
  for (char c : take(8)) u = (u << 8) | static_cast<std::uint8_t>(c);
  return static_cast<std::int64_t>(u);
}
double Reader::float64() { return std::bit_cast<double>(int64()); }
std::uint32_t Reader::uvarint() {
  std::uint32_t v = 0;
  for (int shift = 0; shift <= 28; shift += 7) {
    const auto b = static_cast<std::uint8_t>(take(1)[0]);
    v |= static_cast<std::uint32_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  bad_message("a varint longer than 5 bytes");
}
std::optional<std::string> Reader::compact_nullable_string() {
  const std::uint32_t n = uvarint();
  if (n == 0) return std::nullopt;
  if (n - 1 > kMaxLength) bad_message("a string of " + std::to_string(n - 1) + " bytes");
  return std::string(take(n - 1));
}
std::string Reader::compact_string() {
  auto s = compact_nullable_string();
  if (!s) bad_message("a null string where one is required");
  return *s;
}
std::size_t Reader::compact_array_size() {
  const std::uint32_t n = uvarint();
  if (n == 0) return 0;
  if (n - 1 > kMaxLength) bad_message("an array of " + std::to_string(n - 1) + " elements");
  return n - 1;
}
std::string_view Reader::bytes(std::size_t n) {
  if (n > kMaxLength) bad_message("a field of " + std::to_string(n) + " bytes");
  return take(n);
}
void Reader::skip_tags() {
  const std::uint32_t count = uvarint();
  if (count > kMaxLength) bad_message("too many tagged fields");
  for (std::uint32_t i = 0; i < count; ++i) {
    uvarint();  // the tag
    take(uvarint());
  }
}

struct Connection::Impl {
  std::string address;  // as asked, the name TLS checks
  milliseconds timeout;  // per connect, per call
  std::unique_ptr<net::TcpStream> tcp;
  std::unique_ptr<SSL_CTX, SslCtxFree> ctx;
  std::unique_ptr<SSL, SslFree> ssl;
  Clock::time_point deadline;
  std::int32_t correlation = 0;

  [[noreturn]] void io_failed(const std::string& what, const std::string& detail) {
    throw AdminError(errno == EAGAIN || errno == EWOULDBLOCK ? "_TIMED_OUT" : "_TRANSPORT", what + ": " + address + ": " + detail);
  }

  void write_all(const std::string& data, const std::string& what) {
    std::size_t done = 0;
    while (done < data.size()) {
      if (Clock::now() > deadline) throw AdminError("_TIMED_OUT", what + ": " + address + ": timed out sending");
      const char* p = data.data() + done;
      const int len = static_cast<int>(data.size() - done);
      const long n = ssl ? SSL_write(ssl.get(), p, len) : ::send(tcp->fd(), p, len, MSG_NOSIGNAL);
      if (n <= 0) {
        if (!ssl && errno == EINTR) continue;
        io_failed(what, ssl ? "TLS write failed: " + openssl_errors() : std::string("send: ") + std::strerror(errno));
      }
      done += static_cast<std::size_t>(n);
    }
  }

  std::string read_exact(std::size_t size, const std::string& what) {
    std::string out(size, '\0');
    std::size_t done = 0;
    while (done < size) {
      if (Clock::now() > deadline) throw AdminError("_TIMED_OUT", what + ": " + address + ": no full answer in time");
      const int len = static_cast<int>(size - done);
      const long n = ssl ? SSL_read(ssl.get(), out.data() + done, len) : ::recv(tcp->fd(), out.data() + done, len, 0);
      if (n == 0 && !ssl) io_failed(what, "the broker closed the connection");
      if (n <= 0) {
        if (!ssl && errno == EINTR) continue;
        io_failed(what, ssl ? "TLS read failed: " + openssl_errors() : std::string("recv: ") + std::strerror(errno));
      }
      done += static_cast<std::size_t>(n);
    }
    return out;
  }

  void connect_tcp(const std::string& host, const std::string& port) {
    try {
      tcp = std::make_unique<net::TcpStream>(net::HostPort{host, port}, deadline);
    } catch (const net::NetError& e) {
      throw AdminError(e.timed_out() ? "_TIMED_OUT" : "_TRANSPORT", "connecting to " + address + ": " + e.what());
    }
  }

  // Each socket read and write waits at most what is left until the deadline.
  void bound_io() { tcp->set_deadline(deadline); }

  void handshake(const ClientTls& tls, const std::string& host) {
    const std::string what = "TLS to " + address;
    ctx = client_context(tls, what);
    ssl.reset(SSL_new(ctx.get()));
    if (!ssl) throw AdminError("_SSL", what + ": " + openssl_errors());
    SSL_set_fd(ssl.get(), tcp->fd());
    SSL_set_tlsext_host_name(ssl.get(), host.c_str());
    SSL_set1_host(ssl.get(), host.c_str());  // the broker's certificate must name the address asked for
    if (SSL_connect(ssl.get()) != 1) {
      const long verify = SSL_get_verify_result(ssl.get());
      throw AdminError("_SSL", what + ": handshake failed: " +
                                   (verify != X509_V_OK ? std::string(X509_verify_cert_error_string(verify)) : openssl_errors()));
    }
  }
};

Connection::Connection(const std::string& address, const std::map<std::string, std::string>& address_map, const std::optional<ClientTls>& tls,
                       milliseconds timeout, std::optional<milliseconds> connect_timeout)
    : impl_(std::make_unique<Impl>()) {
  impl_->address = address;
  impl_->timeout = timeout;
  impl_->deadline = Clock::now() + (connect_timeout ? std::min(*connect_timeout, timeout) : timeout);
  const auto mapped = address_map.find(address);
  const auto [host, port] = split_address(mapped != address_map.end() ? mapped->second : address);
  impl_->connect_tcp(host, port);
  if (tls) impl_->handshake(*tls, split_address(address).first);
}

Connection::~Connection() {
  if (impl_->ssl) SSL_shutdown(impl_->ssl.get());
  impl_->ssl.reset();
}

std::string Connection::call(std::int16_t api_key, std::int16_t version, const std::string& body, const std::string& what,
                             std::optional<milliseconds> timeout) {
  impl_->deadline = Clock::now() + timeout.value_or(impl_->timeout);  // a kept connection: each call has the whole timeout
  impl_->bound_io();
  const std::int32_t correlation = ++impl_->correlation;
  Writer header;
  header.int16(api_key).int16(version).int32(correlation).nullable_string("capstan-user-operator").no_tags();
  const std::string request = header.bytes() + body;
  Writer frame;
  frame.int32(static_cast<std::int32_t>(request.size()));
  impl_->write_all(frame.bytes() + request, what);
  const std::string size_bytes = impl_->read_exact(4, what);
  Reader size_reader(size_bytes);
  const std::int32_t size = size_reader.int32();
  if (size < 4 || size > kMaxResponseBytes) bad_message(what + ": a response of " + std::to_string(size) + " bytes");
  const std::string response = impl_->read_exact(static_cast<std::size_t>(size), what);
  Reader r(response);
  if (r.int32() != correlation) bad_message(what + ": the response answers another request");
  // ApiVersions responses keep header v0 at every version (KIP-511), so that a client which
  // cannot read a flexible header still learns the versions the broker speaks.
  if (api_key != kApiVersions) r.skip_tags();
  return std::string(r.rest());
}

std::string error_name(std::int16_t code) {
  const char* name = rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(code));
  return name && *name ? name : "ERROR_" + std::to_string(code);
}

void throw_if_error(std::int16_t code, const std::optional<std::string>& message, const std::string& what) {
  if (code == 0) return;
  const std::string name = error_name(code);
  throw AdminError(name, what + ": " + name + (message && !message->empty() ? ": " + *message : ""));
}

}  // namespace capstan::kafka::wire
