#include "runtime/http/client.h"

#include "runtime/http/tls_context.h"

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <memory>
#include <span>
#include <unordered_map>

namespace capstan::http {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

void Cancellation::cancel() {
  cancelled_.store(true);
  // Under the lock: the canceller refers to a connection that the call frees once it has
  // cleared the canceller, so the two must not overlap.
  std::lock_guard<std::mutex> l(mu_);
  if (canceller_) canceller_();
}

void Cancellation::set_canceller(std::function<void()> fn) {
  std::lock_guard<std::mutex> l(mu_);
  canceller_ = std::move(fn);
}

void Cancellation::clear_canceller() {
  std::lock_guard<std::mutex> l(mu_);
  canceller_ = nullptr;
}

namespace {

// One connection with its own io_context, driven by whichever thread uses it.
struct Conn {
  net::io_context ioc;
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls;
  beast::flat_buffer buffer;

  beast::tcp_stream& lowest() { return tls ? beast::get_lowest_layer(*tls) : *plain; }

  // Starts one async operation and runs the io_context until it completes.
  template <typename Start>
  beast::error_code run(std::chrono::milliseconds timeout, Start&& start) {
    beast::error_code result = net::error::would_block;
    if (timeout.count() > 0) lowest().expires_after(timeout);
    else lowest().expires_never();
    start([&result](beast::error_code ec, auto&&...) { result = ec; });
    ioc.restart();
    ioc.run();
    return result;
  }

  template <typename Fn>
  auto with_stream(Fn&& fn) {
    if (tls) return fn(*tls);
    return fn(*plain);
  }
};

// Lets a Cancellation abort the operations of one connection while a call uses it. Declared
// after the connection it binds, so it is unbound before the connection goes.
class CancelBinding {
 public:
  CancelBinding(Cancellation* cancel, Conn* conn) : cancel_(cancel) {
    if (cancel_) cancel_->set_canceller([conn] { net::post(conn->ioc, [conn] { conn->lowest().cancel(); }); });
  }
  ~CancelBinding() { release(); }
  CancelBinding(const CancelBinding&) = delete;
  CancelBinding& operator=(const CancelBinding&) = delete;

  bool cancelled() const { return cancel_ && cancel_->cancelled(); }
  // Unbinds. Returns whether the call was cancelled meanwhile: the connection may then hold a
  // queued cancel and must not be pooled.
  bool release() {
    if (!cancel_) return false;
    cancel_->clear_canceller();
    bool was = cancel_->cancelled();
    cancel_ = nullptr;
    return was;
  }

 private:
  Cancellation* cancel_;
};

std::string describe(const beast::error_code& ec) {
  if (ec == beast::error::timeout) return "timed out";
  return ec.message();
}

}  // namespace

struct Client::Impl {
  ClientOptions opts;
  std::shared_ptr<ssl::context> tls_ctx;
  std::mutex mu;
  std::unordered_map<std::string, std::vector<std::unique_ptr<Conn>>> idle;

  std::unique_ptr<Conn> take(const Url& u) {
    std::lock_guard<std::mutex> l(mu);
    auto it = idle.find(u.origin());
    if (it == idle.end() || it->second.empty()) return nullptr;
    auto c = std::move(it->second.back());
    it->second.pop_back();
    return c;
  }

  void give_back(const Url& u, std::unique_ptr<Conn> c) {
    std::lock_guard<std::mutex> l(mu);
    auto& v = idle[u.origin()];
    if (v.size() < opts.max_idle_per_host) v.push_back(std::move(c));
  }

  // A new, unconnected connection for `u` (dial() connects it).
  std::unique_ptr<Conn> fresh(const Url& u) {
    auto c = std::make_unique<Conn>();
    if (u.scheme == "https") {
      c->tls.emplace(c->ioc, *tls_ctx);
    } else {
      c->plain.emplace(c->ioc);
    }
    return c;
  }

  void dial(Conn* c, const Url& u, std::string_view what) {
    boost::system::error_code ec;
    std::vector<tcp::endpoint> endpoints;
    auto addr = net::ip::make_address(u.host, ec);
    if (!ec) {
      endpoints.emplace_back(addr, u.port);
    } else {
      tcp::resolver resolver(c->ioc);
      auto results = resolver.resolve(u.host, std::to_string(u.port), ec);
      if (ec) throw TransportError(std::string(what) + ": resolving " + u.host + ": " + ec.message());
      for (const auto& r : results) endpoints.push_back(r.endpoint());
    }
    ec = c->run(opts.connect_timeout, [&](auto handler) { c->lowest().async_connect(endpoints, handler); });
    if (ec) throw TransportError(std::string(what) + ": dial tcp " + u.origin() + ": " + describe(ec));
    c->lowest().socket().set_option(tcp::no_delay(true), ec);
    if (c->tls) {
      std::string name = opts.tls.server_name.empty() ? u.host : opts.tls.server_name;
      detail::configure_client_ssl(c->tls->native_handle(), name, !opts.tls.insecure_skip_verify);
      ec = c->run(opts.connect_timeout, [&](auto handler) { c->tls->async_handshake(ssl::stream_base::client, handler); });
      if (ec) {
        std::string detail_text = detail::verify_error(c->tls->native_handle());
        std::string queue = detail::openssl_errors();
        if (detail_text.empty()) detail_text = queue;
        throw TransportError(std::string(what) + ": TLS handshake with " + u.origin() + ": " + describe(ec) +
                             (detail_text.empty() ? "" : " (" + detail_text + ")"));
      }
    }
  }
};

Client::Client(ClientOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->opts = std::move(options);
  // Built once, up front: fails fast on a bad CA or client certificate, and keeps the
  // context immutable while threads share the client.
  impl_->tls_ctx = detail::make_client_context(impl_->opts.tls);
}

Client::~Client() = default;

void Client::close_idle() {
  std::lock_guard<std::mutex> l(impl_->mu);
  impl_->idle.clear();
}

namespace {

bhttp::request<bhttp::string_body> build_request(std::string_view method, const Url& u, const Headers& headers,
                                                 std::string_view body) {
  bhttp::request<bhttp::string_body> req;
  req.method_string(method);
  req.target(u.target);
  req.version(11);
  bool v6 = u.host.find(':') != std::string::npos;
  std::string host = v6 ? "[" + u.host + "]" : u.host;
  bool default_port = (u.scheme == "https" && u.port == 443) || (u.scheme == "http" && u.port == 80);
  req.set(bhttp::field::host, default_port ? host : host + ":" + std::to_string(u.port));
  req.set(bhttp::field::user_agent, "capstan/0.1");
  // The first value of a name replaces the defaults above; later ones repeat the header
  // (Impersonate-Group, Impersonate-Extra-*).
  const auto& entries = headers.entries();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& [k, v] = entries[i];
    bool repeated = std::any_of(entries.begin(), entries.begin() + i, [&](const auto& e) { return iequals(e.first, k); });
    if (repeated) req.insert(k, v);
    else req.set(k, v);
  }
  req.body() = std::string(body);
  req.keep_alive(true);
  req.prepare_payload();
  return req;
}

Headers to_headers(const bhttp::fields& f) {
  Headers h;
  for (const auto& e : f) h.add(e.name_string(), e.value());
  return h;
}

}  // namespace

Response Client::request(std::string_view method, std::string_view url, const Headers& headers, std::string_view body,
                         std::chrono::milliseconds timeout, Cancellation* cancel) {
  Url u = Url::parse(url);
  std::string what = std::string(method) + " " + std::string(url);
  if (cancel && cancel->cancelled()) throw Cancelled(what + ": cancelled");
  auto req = build_request(method, u, headers, body);
  for (int attempt = 0;; ++attempt) {
    auto c = attempt == 0 ? impl_->take(u) : nullptr;
    bool reused = c != nullptr;
    if (!c) c = impl_->fresh(u);
    CancelBinding binding(cancel, c.get());
    try {
      if (!reused) impl_->dial(c.get(), u, what);
    } catch (const TransportError&) {
      if (binding.cancelled()) throw Cancelled(what + ": cancelled");
      throw;
    }
    beast::error_code ec = c->with_stream([&](auto& s) { return c->run(timeout, [&](auto h) { bhttp::async_write(s, req, h); }); });
    bhttp::response_parser<bhttp::string_body> parser;
    parser.body_limit(impl_->opts.body_limit);
    if (method == "HEAD") parser.skip(true);  // a HEAD response has headers only, whatever they claim
    if (!ec && !binding.cancelled()) {
      ec = c->with_stream([&](auto& s) { return c->run(timeout, [&](auto h) { bhttp::async_read(s, c->buffer, parser, h); }); });
    }
    if (binding.cancelled() && (ec || !parser.is_done())) throw Cancelled(what + ": cancelled");
    if (ec) {
      // A pooled connection the server already closed: retry once on a fresh one.
      bool stale = reused && !parser.got_some() &&
                   (ec == bhttp::error::end_of_stream || ec == net::error::connection_reset || ec == net::error::broken_pipe ||
                    ec == net::ssl::error::stream_truncated || ec == net::error::eof);
      if (stale && attempt == 0) continue;
      throw TransportError(what + ": " + describe(ec));
    }
    auto msg = parser.release();
    Response r;
    r.status = static_cast<int>(msg.result_int());
    r.headers = to_headers(msg);
    r.body = std::move(msg.body());
    bool cancelled_late = binding.release();
    if (msg.keep_alive() && !cancelled_late) impl_->give_back(u, std::move(c));
    return r;
  }
}

Client::StreamResult Client::stream(std::string_view method, std::string_view url, const Headers& headers,
                                    std::string_view body, const std::function<bool(int, const Headers&)>& on_head,
                                    const std::function<bool(std::string_view)>& on_data, Cancellation* cancel,
                                    std::chrono::milliseconds idle_timeout) {
  Url u = Url::parse(url);
  std::string what = std::string(method) + " " + std::string(url);
  if (cancel && cancel->cancelled()) return {};
  auto req = build_request(method, u, headers, body);
  auto c = impl_->fresh(u);  // streams get their own connection
  CancelBinding binding(cancel, c.get());
  StreamResult result;
  auto cancelled = [&] { return binding.cancelled(); };
  try {
    impl_->dial(c.get(), u, what);
  } catch (const TransportError&) {
    if (cancelled()) return result;
    throw;
  }
  beast::error_code ec = c->with_stream([&](auto& s) { return c->run(idle_timeout, [&](auto h) { bhttp::async_write(s, req, h); }); });
  if (cancelled()) return result;
  if (ec) throw TransportError(what + ": " + describe(ec));

  bhttp::response_parser<bhttp::buffer_body> parser;
  parser.body_limit(boost::none);
  ec = c->with_stream([&](auto& s) { return c->run(idle_timeout, [&](auto h) { bhttp::async_read_header(s, c->buffer, parser, h); }); });
  if (cancelled()) return result;
  if (ec) throw TransportError(what + ": " + describe(ec));
  result.status = static_cast<int>(parser.get().result_int());
  result.headers = to_headers(parser.get());
  if (!on_head(result.status, result.headers)) {
    // Read the (error) body whole; it is usually a small Status.
    bhttp::response_parser<bhttp::string_body> rest(std::move(parser));
    rest.body_limit(impl_->opts.body_limit);
    ec = c->with_stream([&](auto& s) { return c->run(idle_timeout, [&](auto h) { bhttp::async_read(s, c->buffer, rest, h); }); });
    if (!ec) {
      result.error_body = std::move(rest.get().body());
      result.completed = true;
    }
    return result;
  }
  // Not zero-filled: an idle stream (a quiet watch) then holds no resident pages for it.
  constexpr std::size_t kBodyChunk = 64 * 1024;
  std::unique_ptr<char[]> body_chunk(new char[kBodyChunk]);
  std::span<char> buf(body_chunk.get(), kBodyChunk);
  // Beast reads min(capacity - size, 64 KiB) per call, at least 512 bytes: without room the
  // stream would arrive 512 bytes (a TLS read, a parser step, a callback) at a time.
  c->buffer.reserve(buf.size());
  while (!parser.is_done()) {
    parser.get().body().data = buf.data();
    parser.get().body().size = buf.size();
    ec = c->with_stream([&](auto& s) { return c->run(idle_timeout, [&](auto h) { bhttp::async_read_some(s, c->buffer, parser, h); }); });
    if (ec == bhttp::error::need_buffer) ec = {};
    std::size_t n = buf.size() - parser.get().body().size;
    if (n > 0 && !cancelled() && !on_data(std::string_view(buf.data(), n))) return result;
    if (cancelled()) return result;
    if (ec) {
      if (ec == bhttp::error::end_of_stream || ec == net::error::eof || ec == net::ssl::error::stream_truncated) break;
      throw TransportError(what + ": reading response body: " + describe(ec));
    }
  }
  result.completed = parser.is_done();
  bool cancelled_late = binding.release();
  if (result.completed && parser.get().keep_alive() && !cancelled_late) impl_->give_back(u, std::move(c));
  return result;
}

}  // namespace capstan::http
