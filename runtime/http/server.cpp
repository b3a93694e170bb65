#include "runtime/http/server.h"

#include "runtime/http/beast_request.h"
#include "runtime/http/response_writer.h"
#include "runtime/http/tls_context.h"
#include "runtime/log/log.h"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace capstan::http {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

std::pair<std::string, std::uint16_t> split_host_port(std::string_view address) {
  auto colon = address.rfind(':');
  if (colon == std::string_view::npos) throw std::invalid_argument("address \"" + std::string(address) + "\" has no port");
  std::string host(address.substr(0, colon));
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  int port = 0;
  try {
    port = std::stoi(std::string(address.substr(colon + 1)));
  } catch (...) {
    throw std::invalid_argument("address \"" + std::string(address) + "\" has an invalid port");
  }
  if (port < 0 || port > 65535) throw std::invalid_argument("address \"" + std::string(address) + "\" has an invalid port");
  return {host, static_cast<std::uint16_t>(port)};
}

namespace {

constexpr auto kHeaderTimeout = std::chrono::seconds(32);
constexpr auto kIdleTimeout = std::chrono::seconds(90);

class SessionBase {
 public:
  virtual ~SessionBase() = default;
  // Closes the connection on its strand; `done` runs once it is closed.
  virtual void shutdown(std::function<void()> done) = 0;
};

// Live sessions, shared with the sessions themselves so that a session destroyed late (with
// the io_context) can still unregister safely.
struct SessionRegistry {
  std::mutex mu;
  std::unordered_map<SessionBase*, std::weak_ptr<SessionBase>> map;

  void add(const std::shared_ptr<SessionBase>& s) {
    std::lock_guard<std::mutex> l(mu);
    map[s.get()] = s;
  }
  void remove(SessionBase* s) {
    std::lock_guard<std::mutex> l(mu);
    map.erase(s);
  }
  std::vector<std::shared_ptr<SessionBase>> live() {
    std::vector<std::shared_ptr<SessionBase>> out;
    std::lock_guard<std::mutex> l(mu);
    for (auto& [p, w] : map)
      if (auto sp = w.lock()) out.push_back(sp);
    return out;
  }
};

}  // namespace

struct Server::Impl {
  ServerOptions opts;
  Handler handler;
  net::io_context ioc;
  // Keeps the I/O threads running while the server is up, even with no connection.
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
  tcp::acceptor acceptor{ioc};
  std::unique_ptr<net::thread_pool> pool;
  std::vector<std::thread> threads;
  std::atomic<bool> stopped{false};
  bool started = false;

  std::mutex tls_mu;
  std::shared_ptr<ssl::context> tls_ctx;
  struct timespec cert_mtime {}, key_mtime{};
  std::unique_ptr<net::steady_timer> reload_timer;

  std::shared_ptr<SessionRegistry> sessions = std::make_shared<SessionRegistry>();

  log::Logger logger;

  void load_tls(bool initial);
  void schedule_reload();
  void do_accept();
  std::shared_ptr<ssl::context> current_tls() {
    std::lock_guard<std::mutex> l(tls_mu);
    return tls_ctx;
  }
};

namespace {

struct timespec file_mtime(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return st.st_mtim;
}

bool same_time(const struct timespec& a, const struct timespec& b) { return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec; }

template <bool Tls>
class Session;

// The chunked stream of a session. Thread-safe: every mutation happens on the session strand.
// It refers to its session weakly: the session's pending reads and writes keep it alive while
// the connection is open, and a handler may hold its Stream after the server is gone. A strong
// reference made the session, and its socket, outlive the server's io_context, and destroying
// them then used freed memory (found by `make sanitize`, HttpServer.StopEndsOpenStreams).
template <bool Tls>
class StreamImpl final : public Stream, public std::enable_shared_from_this<StreamImpl<Tls>> {
 public:
  explicit StreamImpl(const std::shared_ptr<Session<Tls>>& s, std::size_t limit)
      : session_(s), server_name_(s->server_name()), limit_(limit) {}

  bool write(std::string chunk) override {
    return queue(chunk.size(), [&](std::string& batch) {
      if (batch.empty()) batch = std::move(chunk);
      else batch.append(chunk);
    });
  }

  bool write(std::initializer_list<std::string_view> pieces) override {
    std::size_t size = 0;
    for (auto p : pieces) size += p.size();
    return queue(size, [&](std::string& batch) {
      for (auto p : pieces) batch.append(p);
    });
  }

  // Writes batch up here, in buffers of about kBatchBytes (`add` appends to the last one under
  // the lock; a full one starts the next, a recycled buffer when there is one); one task per
  // round moves them to the connection's strand, which writes them without copying.
  template <class Add>
  bool queue(std::size_t size, Add&& add) {
    if (closed_.load()) return false;
    if (size == 0) return true;
    if (queued_.fetch_add(size) + size > limit_) {
      log::warn("closing slow stream: client fell too far behind", {{"server", server_name_},
                                                                     {"queuedBytes", queued_.load()}});
      close_now();
      return false;
    }
    bool schedule = false;
    {
      std::lock_guard<std::mutex> l(buf_mu_);
      if (batches_.empty() || (!batches_.back().empty() && batches_.back().size() + size > kBatchBytes)) {
        // A batch after a full one is for bulk (a backlog): full size at once. The first of a
        // round starts small, as most streams send an event now and then.
        bool bulk = !batches_.empty();
        if (!spare_.empty()) {
          batches_.push_back(std::move(spare_.back()));
          spare_.pop_back();
        } else {
          batches_.emplace_back().reserve(bulk ? kBatchBytes : std::max(size, kSmallBatchBytes));
        }
      }
      add(batches_.back());
      if (!flush_scheduled_) flush_scheduled_ = schedule = true;
    }
    if (schedule) {
      if (auto session = session_.lock()) {
        net::post(session->strand(), [self = this->shared_from_this()] {
          if (auto session = self->session_.lock()) session->enqueue_chunks(self->take_batches());
        });
      }
    }
    return true;
  }

  std::vector<std::string> take_batches() {
    std::lock_guard<std::mutex> l(buf_mu_);
    flush_scheduled_ = false;
    std::vector<std::string> out;
    out.swap(batches_);
    return out;
  }

  // Written buffers come back to be filled again (a few are kept).
  void recycle(std::vector<std::string>& written) {
    std::lock_guard<std::mutex> l(buf_mu_);
    for (auto& b : written) {
      if (spare_.size() >= kSpareBatches || b.capacity() > 2 * kBatchBytes) continue;
      b.clear();
      spare_.push_back(std::move(b));
    }
  }

  void close() override {
    if (closed_.exchange(true)) return;
    if (auto session = session_.lock()) {
      net::post(session->strand(), [self = this->shared_from_this()] {
        if (auto session = self->session_.lock()) {
          session->enqueue_chunks(self->take_batches());
          session->finish_stream();
        }
      });
    }
    fire_close();
  }

  // The client went away or the server is stopping: no terminating chunk.
  void close_now() {
    if (closed_.exchange(true)) return;
    if (auto session = session_.lock()) {
      net::post(session->strand(), [self = this->shared_from_this()] {
        if (auto session = self->session_.lock()) session->abort();
      });
    }
    fire_close();
  }

  bool closed() const override { return closed_.load(); }

  void on_close(std::function<void()> fn) override {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (!fired_) {
        callbacks_.push_back(std::move(fn));
        return;
      }
    }
    fn();
  }

  bool wait_queued_below(std::size_t bytes, std::chrono::milliseconds timeout) override {
    std::unique_lock<std::mutex> l(mu_);
    return flow_.wait_for(l, timeout, [&] { return closed_.load() || queued_.load() < bytes; }) && !closed_.load();
  }

  void sent(std::size_t n) {
    queued_.fetch_sub(n);
    std::lock_guard<std::mutex> l(mu_);
    flow_.notify_all();
  }

 private:
  void fire_close() {
    std::vector<std::function<void()>> cbs;
    {
      std::lock_guard<std::mutex> l(mu_);
      fired_ = true;
      cbs.swap(callbacks_);
      flow_.notify_all();
    }
    for (auto& cb : cbs) cb();
  }

  std::weak_ptr<Session<Tls>> session_;
  std::string server_name_;
  std::size_t limit_;
  std::atomic<bool> closed_{false};
  std::atomic<std::size_t> queued_{0};
  static constexpr std::size_t kBatchBytes = 64 * 1024;
  static constexpr std::size_t kSmallBatchBytes = 4 * 1024;
  static constexpr std::size_t kSpareBatches = 2;
  std::mutex buf_mu_;
  std::vector<std::string> batches_;
  std::vector<std::string> spare_;
  bool flush_scheduled_ = false;
  std::mutex mu_;
  std::condition_variable flow_;  // signalled as queued bytes go out, and on close
  bool fired_ = false;
  std::vector<std::function<void()>> callbacks_;
};

template <bool Tls>
class ReplyImpl final : public Reply {
 public:
  ReplyImpl(std::shared_ptr<Session<Tls>> s, bool keep_alive, unsigned version)
      : session_(std::move(s)), keep_alive_(keep_alive), version_(version) {}

  void send(Response response) override {
    if (used_.exchange(true)) throw std::logic_error("HTTP reply sent twice");
    net::post(session_->strand(), [s = session_, r = std::move(response), ka = keep_alive_, v = version_]() mutable {
      s->write_response(std::move(r), ka, v);
    });
  }

  std::shared_ptr<Stream> stream(int status, Headers headers) override {
    if (used_.exchange(true)) throw std::logic_error("HTTP reply sent twice");
    auto st = std::make_shared<StreamImpl<Tls>>(session_, session_->stream_limit());
    net::post(session_->strand(), [s = session_, st, status, h = std::move(headers), v = version_]() mutable {
      s->start_stream(st, status, std::move(h), v);
    });
    return st;
  }

  bool used() const { return used_.load(); }

 private:
  std::shared_ptr<Session<Tls>> session_;
  bool keep_alive_;
  unsigned version_;
  std::atomic<bool> used_{false};
};

template <bool Tls>
class Session final : public SessionBase, public std::enable_shared_from_this<Session<Tls>> {
 public:
  using StreamT = std::conditional_t<Tls, beast::ssl_stream<beast::tcp_stream>, beast::tcp_stream>;

  Session(Server::Impl* server, tcp::socket&& socket, std::shared_ptr<ssl::context> ctx)
      : server_(server), registry_(server->sessions), ctx_(std::move(ctx)), stream_(make_stream(std::move(socket))) {
    boost::system::error_code ec;
    auto ep = lowest().socket().remote_endpoint(ec);
    if (!ec) remote_ = ep.address().to_string() + ":" + std::to_string(ep.port());
  }

  ~Session() override {
    // A stream still open (the session destroyed with the io_context) reports itself closed.
    if (stream_state_) stream_state_->close_now();
    registry_->remove(this);
  }

  void run() {
    net::dispatch(strand(), [self = this->shared_from_this()] {
      if constexpr (Tls) {
        self->lowest().expires_after(kHeaderTimeout);
        self->stream_.async_handshake(ssl::stream_base::server, net::bind_executor(self->strand(), [self](beast::error_code ec) {
          if (ec) {
            log::debug("TLS handshake failed", {{"server", self->server_name()}, {"remote", self->remote_}, {"error", ec.message()}});
            return;
          }
          self->identity_ = detail::peer_identity(self->stream_.native_handle());
          self->do_read(kHeaderTimeout);
        }));
      } else {
        self->do_read(kHeaderTimeout);
      }
    });
  }

  void shutdown(std::function<void()> done) override {
    net::post(strand(), [self = this->shared_from_this(), done = std::move(done)] {
      self->abort();
      done();
    });
  }

  net::any_io_executor strand() { return lowest().get_executor(); }
  const std::string& server_name() const { return server_->opts.name; }
  std::size_t stream_limit() const { return server_->opts.stream_buffer_limit; }

  void write_response(Response r, bool keep_alive, unsigned version) {
    if (closed_) return;
    bool ka = keep_alive && !server_->stopped.load();
    auto wire = std::make_shared<std::string>(serialize_response(r, ka, version));
    lowest().expires_after(kIdleTimeout);
    net::async_write(stream_, net::buffer(*wire), net::bind_executor(strand(), [self = this->shared_from_this(), wire, ka](beast::error_code ec, std::size_t) {
      if (ec) return self->abort();
      if (ka) self->do_read(kIdleTimeout);
      else self->graceful_close();
    }));
  }

  void start_stream(std::shared_ptr<StreamImpl<Tls>> st, int status, Headers headers, unsigned version) {
    if (closed_) {
      st->close_now();
      return;
    }
    stream_state_ = st;
    header_ = std::make_unique<bhttp::response<bhttp::empty_body>>(static_cast<bhttp::status>(status), version);
    for (const auto& [k, v] : headers.entries()) header_->insert(k, v);
    header_->chunked(true);
    header_->keep_alive(false);  // a streamed response ends the connection
    serializer_ = std::make_unique<bhttp::response_serializer<bhttp::empty_body>>(*header_);
    lowest().expires_never();
    writing_ = true;
    bhttp::async_write_header(stream_, *serializer_, net::bind_executor(strand(), [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      self->writing_ = false;
      if (ec) return self->abort();
      self->watch_for_disconnect();
      self->pump();
    }));
  }

  void enqueue_chunks(std::vector<std::string> chunks) {
    if (closed_) return;
    for (auto& c : chunks)
      if (!c.empty()) pending_.push_back(std::move(c));  // an empty chunk would end the body
    pump();
  }

  void finish_stream() {
    finishing_ = true;
    pump();
  }

  void abort() {
    if (closed_) return;
    closed_ = true;
    // Dropping the stream here also breaks the session <-> stream reference cycle.
    if (auto st = std::move(stream_state_)) st->close_now();
    beast::error_code ec;
    lowest().socket().shutdown(tcp::socket::shutdown_both, ec);
    lowest().close();
  }

 private:
  StreamT make_stream(tcp::socket&& socket) {
    if constexpr (Tls) return StreamT(std::move(socket), *ctx_);
    else return StreamT(std::move(socket));
  }

  beast::tcp_stream& lowest() {
    if constexpr (Tls) return beast::get_lowest_layer(stream_);
    else return stream_;
  }

  void do_read(std::chrono::seconds timeout) {
    if (closed_ || server_->stopped.load()) return abort();
    parser_.emplace();
    parser_->body_limit(server_->opts.body_limit);
    lowest().expires_after(timeout);
    bhttp::async_read(stream_, buffer_, *parser_, net::bind_executor(strand(), [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      self->on_read(ec);
    }));
  }

  void on_read(beast::error_code ec) {
    if (ec) {
      if (ec == bhttp::error::body_limit) {
        Response r = server_->opts.body_too_large ? *server_->opts.body_too_large : Response(413, "request body too large", "text/plain");
        write_response(std::move(r), false, 11);
        return;
      }
      return abort();
    }
    auto msg = parser_->release();
    auto req = std::make_shared<Request>(detail::to_request(msg));
    req->remote = remote_;
    if (identity_.present) {
      req->peer_cn = identity_.cn;
      req->peer_orgs = identity_.orgs;
    }
    auto reply = std::make_shared<ReplyImpl<Tls>>(this->shared_from_this(), msg.keep_alive(), msg.version());
    auto handle = [self = this->shared_from_this(), req, reply] {
      try {
        self->server_->handler(*req, *reply);
      } catch (const std::exception& e) {
        log::error("HTTP handler threw", {{"server", self->server_name()}, {"method", req->method},
                                          {"path", std::string(req->path())}, {"error", e.what()}});
        if (!reply->used()) reply->send(Response(500, "internal error", "text/plain"));
        return;
      }
      if (!reply->used()) reply->send(Response(500, "handler sent no response", "text/plain"));
    };
    if (server_->opts.inline_handlers) handle();  // on this strand; the reply is posted after it
    else net::post(*server_->pool, std::move(handle));
  }

  void watch_for_disconnect() {
    lowest().socket().async_read_some(net::buffer(probe_), net::bind_executor(strand(), [self = this->shared_from_this()](beast::error_code, std::size_t) {
      // A streamed response owns the connection: any read completion means the client left
      // (or is misbehaving by pipelining). Either way the stream ends.
      self->abort();
    }));
  }

  void pump() {
    if (closed_ || writing_ || !serializer_) return;
    if (!pending_.empty()) {
      writing_ = true;
      // What is queued goes out as one HTTP chunk of up to 256 KiB, gathered from the batches
      // without copying them.
      auto parts = std::make_shared<std::vector<std::string>>();
      std::size_t size = 0;
      while (!pending_.empty() && (parts->empty() || size + pending_.front().size() <= 256 * 1024)) {
        size += pending_.front().size();
        parts->push_back(std::move(pending_.front()));
        pending_.pop_front();
      }
      std::vector<net::const_buffer> buffers;
      buffers.reserve(parts->size());
      for (const auto& p : *parts) buffers.emplace_back(p.data(), p.size());
      net::async_write(stream_, bhttp::make_chunk(buffers),
                       net::bind_executor(strand(), [self = this->shared_from_this(), parts, size](beast::error_code ec, std::size_t) {
                         self->writing_ = false;
                         if (const auto& st = self->stream_state_) {
                           st->sent(size);
                           st->recycle(*parts);
                         }
                         if (ec) return self->abort();
                         self->pump();
                       }));
      return;
    }
    if (finishing_) {
      writing_ = true;
      net::async_write(stream_, bhttp::make_chunk_last(), net::bind_executor(strand(), [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
        self->writing_ = false;
        self->graceful_close();
      }));
    }
  }

  void graceful_close() {
    if (closed_) return;
    if constexpr (Tls) {
      // Send close_notify without waiting for the peer's.
      lowest().expires_after(std::chrono::seconds(2));
      stream_.async_shutdown(net::bind_executor(strand(), [self = this->shared_from_this()](beast::error_code) { self->abort(); }));
    } else {
      abort();
    }
  }

  Server::Impl* server_;
  std::shared_ptr<SessionRegistry> registry_;
  std::shared_ptr<ssl::context> ctx_;
  StreamT stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  std::string remote_;
  detail::PeerIdentity identity_;
  bool closed_ = false;

  std::shared_ptr<StreamImpl<Tls>> stream_state_;
  std::unique_ptr<bhttp::response<bhttp::empty_body>> header_;
  std::unique_ptr<bhttp::response_serializer<bhttp::empty_body>> serializer_;
  std::deque<std::string> pending_;
  bool writing_ = false;
  bool finishing_ = false;
  char probe_[64];
};

}  // namespace

void Server::Impl::load_tls(bool initial) {
  const auto& t = *opts.tls;
  std::string cert = t.cert_pem, key = t.key_pem;
  struct timespec cm {}, km{};
  if (!t.cert_file.empty()) {
    cm = file_mtime(t.cert_file);
    km = file_mtime(t.key_file);
    if (!initial && same_time(cm, cert_mtime) && same_time(km, key_mtime)) return;
    cert = detail::read_file(t.cert_file);
    key = detail::read_file(t.key_file);
  }
  auto ctx = detail::make_server_context(t, cert, key);
  {
    std::lock_guard<std::mutex> l(tls_mu);
    tls_ctx = std::move(ctx);
    cert_mtime = cm;
    key_mtime = km;
  }
  if (!initial) logger.info("reloaded serving certificate", {{"certFile", t.cert_file}});
}

void Server::Impl::schedule_reload() {
  if (!opts.tls || opts.tls->cert_file.empty()) return;
  reload_timer->expires_after(opts.tls->reload_interval);
  reload_timer->async_wait([this](beast::error_code ec) {
    if (ec || stopped.load()) return;
    try {
      load_tls(false);
    } catch (const std::exception& e) {
      logger.error("reloading serving certificate failed; keeping the previous one", {{"error", e.what()}});
    }
    schedule_reload();
  });
}

void Server::Impl::do_accept() {
  // One I/O thread is already a strand: each connection gets one only when threads share them.
  net::any_io_executor connection_executor = opts.io_threads > 1 ? net::any_io_executor(net::make_strand(ioc)) : net::any_io_executor(ioc.get_executor());
  acceptor.async_accept(connection_executor, [this](beast::error_code ec, tcp::socket socket) {
    if (stopped.load()) return;
    if (!ec) {
      // As Go's net/http: without it a response written as header then body waits for the
      // client's delayed ACK (40 ms) whenever the two leave as separate segments.
      beast::error_code nodelay_ec;
      socket.set_option(tcp::no_delay(true), nodelay_ec);
    }
    if (ec) {
      logger.warn("accept failed", {{"error", ec.message()}});
    } else if (opts.tls) {
      auto s = std::make_shared<Session<true>>(this, std::move(socket), current_tls());
      sessions->add(s);
      s->run();
    } else {
      auto s = std::make_shared<Session<false>>(this, std::move(socket), nullptr);
      sessions->add(s);
      s->run();
    }
    do_accept();
  });
}

Server::Server(ServerOptions options, Handler handler) : impl_(std::make_unique<Impl>()) {
  impl_->opts = std::move(options);
  impl_->handler = std::move(handler);
  impl_->logger = log::Logger({{"server", impl_->opts.name}});
}

Server::~Server() { stop(); }

void Server::start() {
  auto& s = *impl_;
  if (s.started) return;
  if (s.opts.tls) s.load_tls(true);
  boost::system::error_code ec;
  auto bind = [&](const net::ip::address& addr, bool dual_stack) {
    ec.clear();
    tcp::endpoint ep(addr, s.opts.port);
    s.acceptor.open(ep.protocol(), ec);
    if (!ec && dual_stack) s.acceptor.set_option(net::ip::v6_only(false), ec);
    if (!ec) s.acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) s.acceptor.bind(ep, ec);
    if (!ec) s.acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec && s.acceptor.is_open()) {
      boost::system::error_code ignored;
      s.acceptor.close(ignored);
    }
  };
  if (s.opts.address.empty()) {
    bind(net::ip::address_v6::any(), true);
    if (ec) bind(net::ip::address_v4::any(), false);  // no IPv6 on this host
  } else {
    auto addr = net::ip::make_address(s.opts.address, ec);
    if (ec) throw std::runtime_error("listen address \"" + s.opts.address + "\": " + ec.message());
    bind(addr, false);
  }
  if (ec) {
    throw std::runtime_error("listening on " + s.opts.address + ":" + std::to_string(s.opts.port) + " (" + s.opts.name +
                             "): " + ec.message());
  }
  s.pool = std::make_unique<net::thread_pool>(static_cast<std::size_t>(std::max(1, s.opts.handler_threads)));
  s.reload_timer = std::make_unique<net::steady_timer>(s.ioc);
  s.schedule_reload();
  s.do_accept();
  s.work.emplace(s.ioc.get_executor());
  for (int i = 0; i < std::max(1, s.opts.io_threads); ++i) s.threads.emplace_back([&s] { s.ioc.run(); });
  s.started = true;
  s.logger.debug("serving", {{"address", address()}, {"tls", s.opts.tls ? "true" : "false"}});
}

void Server::stop() {
  auto& s = *impl_;
  if (!s.started || s.stopped.exchange(true)) return;
  net::post(s.ioc, [&s] {
    beast::error_code ec;
    s.acceptor.close(ec);
    if (s.reload_timer) s.reload_timer->cancel();
  });
  // Close every connection (ending its streams) while the I/O threads still run.
  auto live = s.sessions->live();
  auto remaining = std::make_shared<std::atomic<std::size_t>>(live.size());
  auto all_closed = std::make_shared<std::promise<void>>();
  auto closed_future = all_closed->get_future();
  if (live.empty()) all_closed->set_value();
  for (auto& sp : live) {
    sp->shutdown([remaining, all_closed] {
      if (remaining->fetch_sub(1) == 1) all_closed->set_value();
    });
  }
  live.clear();
  closed_future.wait_for(std::chrono::seconds(5));
  s.pool->join();
  s.work.reset();
  s.ioc.stop();
  for (auto& t : s.threads) t.join();
  s.threads.clear();
}

std::uint16_t Server::port() const {
  boost::system::error_code ec;
  auto ep = impl_->acceptor.local_endpoint(ec);
  return ec ? impl_->opts.port : ep.port();
}

std::string Server::address() const {
  boost::system::error_code ec;
  auto ep = impl_->acceptor.local_endpoint(ec);
  if (ec) return impl_->opts.address + ":" + std::to_string(impl_->opts.port);
  auto a = ep.address().to_string();
  if (ep.address().is_v6()) a = "[" + a + "]";
  return a + ":" + std::to_string(ep.port());
}

}  // namespace capstan::http
