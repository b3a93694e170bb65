#include "runtime/http/client.h"
#include "runtime/http/server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace capstan::http {
namespace {
using namespace std::chrono_literals;
namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Certificates made by the real openssl CLI: a CA, a server cert for 127.0.0.1 and a client cert.
class Pki {
 public:
  explicit Pki(const std::string& tag) : dir_(fs::temp_directory_path() / ("capstan-http-" + tag + "-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
  }
  ~Pki() { fs::remove_all(dir_); }

  void make_ca(const std::string& name) {
    run("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout " + p(name + ".key") + " -out " +
        p(name + ".crt") + " -days 1 -subj /CN=" + name);
  }
  void make_cert(const std::string& ca, const std::string& name, const std::string& subj, const std::string& san) {
    run("openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout " + p(name + ".key") + " -out " + p(name + ".csr") +
        " -subj " + subj);
    std::ofstream(dir_ / (name + ".ext")) << (san.empty() ? "basicConstraints=CA:FALSE\n" : "subjectAltName=" + san + "\n");
    run("openssl x509 -req -in " + p(name + ".csr") + " -CA " + p(ca + ".crt") + " -CAkey " + p(ca + ".key") +
        " -CAcreateserial -days 1 -out " + p(name + ".crt") + " -extfile " + p(name + ".ext"));
  }
  std::string pem(const std::string& file) const { return slurp(dir_ / file); }
  std::string p(const std::string& file) const { return (dir_ / file).string(); }

 private:
  void run(const std::string& cmd) {
    int rc = std::system((cmd + " >/dev/null 2>&1").c_str());
    ASSERT_EQ(rc, 0) << cmd;
  }
  fs::path dir_;
};

std::string base(const Server& s, const char* scheme = "http") { return std::string(scheme) + "://" + s.address(); }

TEST(HttpServer, RequestResponseAndKeepAlive) {
  std::atomic<int> calls{0};
  std::string first_remote, second_remote;
  Server server({.name = "test"}, [&](Request& req, Reply& reply) {
    int n = ++calls;
    (n == 1 ? first_remote : second_remote) = req.remote;
    Response r(201, "{\"path\":\"" + std::string(req.path()) + "\",\"body\":\"" + req.body + "\"}");
    r.headers.set("X-Method", req.method);
    reply.send(std::move(r));
  });
  server.start();
  ASSERT_NE(server.port(), 0);
  Client client;
  auto r = client.request("POST", base(server) + "/a/b?x=1", {{"Content-Type", "text/plain"}}, "hello");
  EXPECT_EQ(r.status, 201);
  EXPECT_EQ(r.body, "{\"path\":\"/a/b\",\"body\":\"hello\"}");
  EXPECT_EQ(r.headers.get("x-method").value(), "POST");
  auto r2 = client.request("GET", base(server) + "/c");
  EXPECT_EQ(r2.status, 201);
  EXPECT_EQ(first_remote, second_remote) << "the pooled connection should be reused";
  server.stop();
}

TEST(HttpServer, InlineHandlersRunOnTheIoThreadsAndAnswerEveryConnection) {
  std::mutex mu;
  std::set<std::thread::id> handler_threads;
  Server server({.name = "inline", .io_threads = 2, .inline_handlers = true}, [&](Request& req, Reply& reply) {
    {
      std::lock_guard lock(mu);
      handler_threads.insert(std::this_thread::get_id());
    }
    reply.send(Response(200, req.body));
  });
  server.start();
  std::vector<std::thread> clients;
  std::atomic<int> ok{0};
  for (int c = 0; c < 4; ++c)
    clients.emplace_back([&, c] {
      Client client;
      for (int i = 0; i < 50; ++i) {
        std::string body = std::to_string(c) + "-" + std::to_string(i);
        if (client.request("POST", base(server) + "/echo", {}, body).body == body) ++ok;
      }
    });
  for (auto& t : clients) t.join();
  server.stop();
  EXPECT_EQ(ok, 200);
  EXPECT_LE(handler_threads.size(), 2u) << "handlers ran beside the two I/O threads";
}

TEST(HttpClient, HeadResponsesHaveNoBody) {
  Server server({}, [](Request& req, Reply& reply) {
    Response r(200, req.method == "HEAD" ? "" : "body", "text/plain");
    r.headers.set("Replay-Nonce", "abc");
    reply.send(std::move(r));
  });
  server.start();
  Client client;
  auto h = client.request("HEAD", base(server) + "/nonce", {}, {}, std::chrono::seconds(2));
  EXPECT_EQ(h.status, 200);
  EXPECT_EQ(h.headers.get("replay-nonce").value(), "abc");
  EXPECT_EQ(client.request("GET", base(server) + "/nonce").body, "body") << "the connection is still usable after a HEAD";
}

TEST(HttpServer, HandlerWithoutReplyGets500AndThrowingHandlerToo) {
  Server server({}, [](Request& req, Reply& reply) {
    if (req.path() == "/throw") throw std::runtime_error("boom");
  });
  server.start();
  Client client;
  EXPECT_EQ(client.request("GET", base(server) + "/none").status, 500);
  EXPECT_EQ(client.request("GET", base(server) + "/throw").status, 500);
}

TEST(HttpServer, StreamsChunksInOrder) {
  Server server({}, [](Request&, Reply& reply) {
    auto st = reply.stream(200, {{"Content-Type", "application/json"}});
    std::thread([st] {
      for (int i = 0; i < 200; ++i) {
        if (i % 2) st->write("line " + std::to_string(i) + "\n");
        else st->write({"line ", std::to_string(i), "\n"});  // pieces: one write
      }
      st->close();
    }).detach();
  });
  server.start();
  Client client;
  std::string got;
  auto res = client.stream("GET", base(server) + "/watch", {}, {}, [](int status, const Headers&) { return status == 200; },
                           [&](std::string_view d) {
                             got.append(d);
                             return true;
                           },
                           nullptr, 5s);
  EXPECT_EQ(res.status, 200);
  EXPECT_TRUE(res.completed);
  std::string want;
  for (int i = 0; i < 200; ++i) want += "line " + std::to_string(i) + "\n";
  EXPECT_EQ(got, want);
}

TEST(HttpServer, ErrorStatusOnStreamReadsBody) {
  Server server({}, [](Request&, Reply& reply) { reply.send(Response(410, "{\"reason\":\"Expired\"}")); });
  server.start();
  Client client;
  auto res = client.stream("GET", base(server) + "/watch", {}, {}, [](int status, const Headers&) { return status == 200; },
                           [](std::string_view) { return true; }, nullptr, 5s);
  EXPECT_EQ(res.status, 410);
  EXPECT_EQ(res.error_body, "{\"reason\":\"Expired\"}");
}

TEST(HttpServer, ClientCancelClosesServerStream) {
  std::atomic<bool> server_saw_close{false};
  Server server({}, [&](Request&, Reply& reply) {
    auto st = reply.stream(200, {});
    st->on_close([&] { server_saw_close = true; });
    std::thread([st] {
      while (st->write("tick\n")) std::this_thread::sleep_for(5ms);
    }).detach();
  });
  server.start();
  Client client;
  Cancellation cancel;
  std::atomic<int> chunks{0};
  std::thread canceller([&] {
    while (chunks.load() < 3) std::this_thread::sleep_for(1ms);
    cancel.cancel();
  });
  auto t0 = std::chrono::steady_clock::now();
  try {
    client.stream("GET", base(server) + "/watch", {}, {}, [](int, const Headers&) { return true; },
                  [&](std::string_view) {
                    ++chunks;
                    return true;
                  },
                  &cancel, 30s);
  } catch (const TransportError& e) {
    ADD_FAILURE() << "a cancelled stream returns without an error: " << e.what() << " after " << chunks.load() << " chunks, " << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count() << "ms cancelled=" << cancel.cancelled();
    cancel.cancel();
  }
  canceller.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  for (int i = 0; i < 200 && !server_saw_close; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_TRUE(server_saw_close.load());
}

TEST(HttpServer, StopEndsOpenStreams) {
  std::atomic<bool> closed{false};
  std::shared_ptr<Stream> held;
  std::mutex mu;
  auto server = std::make_unique<Server>(ServerOptions{}, [&](Request&, Reply& reply) {
    auto st = reply.stream(200, {});
    st->on_close([&] { closed = true; });
    std::lock_guard<std::mutex> l(mu);
    held = st;
  });
  server->start();
  std::thread client_thread([&, url = base(*server) + "/w"] {
    Client client;
    try {
      client.stream("GET", url, {}, {}, [](int, const Headers&) { return true; }, [](std::string_view) { return true; }, nullptr, 10s);
    } catch (const TransportError&) {
    }
  });
  for (int i = 0; i < 200; ++i) {
    {
      std::lock_guard<std::mutex> l(mu);
      if (held) break;
    }
    std::this_thread::sleep_for(5ms);
  }
  server->stop();
  client_thread.join();
  EXPECT_TRUE(closed.load());
  std::lock_guard<std::mutex> l(mu);
  ASSERT_TRUE(held);
  EXPECT_FALSE(held->write("late")) << "writes after stop are refused";
  server.reset();
}

TEST(HttpClient, TimeoutAndConnectionRefused) {
  Server server({}, [](Request&, Reply& reply) {
    std::this_thread::sleep_for(1s);
    reply.send(Response(200, "late"));
  });
  server.start();
  Client client;
  try {
    client.request("GET", base(server) + "/slow", {}, {}, 100ms);
    FAIL() << "expected a timeout";
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("timed out"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("GET http://"), std::string::npos) << e.what();
  }
  auto port = server.port();
  server.stop();
  EXPECT_THROW(client.request("GET", "http://127.0.0.1:" + std::to_string(port) + "/", {}, {}, 1s), TransportError);
}

TEST(HttpTls, MutualTlsAndVerification) {
  Pki pki("mtls");
  pki.make_ca("ca");
  pki.make_ca("other");
  pki.make_cert("ca", "server", "/CN=server", "IP:127.0.0.1,DNS:localhost");
  pki.make_cert("ca", "client", "/CN=alice/O=devs/O=admins", "");
  ServerTls tls;
  tls.cert_pem = pki.pem("server.crt");
  tls.key_pem = pki.pem("server.key");
  tls.client_ca_pem = pki.pem("ca.crt");
  Server server({.tls = tls}, [](Request& req, Reply& reply) {
    std::string who = req.peer_cn ? *req.peer_cn : "anonymous";
    for (auto& o : req.peer_orgs) who += "," + o;
    reply.send(Response(200, who, "text/plain"));
  });
  server.start();
  std::string url = "https://127.0.0.1:" + std::to_string(server.port()) + "/";

  ClientOptions anon;
  anon.tls.ca_pem = pki.pem("ca.crt");
  EXPECT_EQ(Client(anon).request("GET", url).body, "anonymous");

  ClientOptions mutual = anon;
  mutual.tls.cert_pem = pki.pem("client.crt");
  mutual.tls.key_pem = pki.pem("client.key");
  EXPECT_EQ(Client(mutual).request("GET", url).body, "alice,devs,admins");

  ClientOptions wrong_ca;
  wrong_ca.tls.ca_pem = pki.pem("other.crt");
  EXPECT_THROW(Client(wrong_ca).request("GET", url), TransportError);

  ClientOptions wrong_name = anon;
  wrong_name.tls.server_name = "not-the-server.example";
  EXPECT_THROW(Client(wrong_name).request("GET", url), TransportError);

  ClientOptions by_name = anon;
  EXPECT_EQ(Client(by_name).request("GET", "https://localhost:" + std::to_string(server.port()) + "/").body, "anonymous");

  ClientOptions insecure;
  insecure.tls.insecure_skip_verify = true;
  EXPECT_EQ(Client(insecure).request("GET", url).body, "anonymous");
}

TEST(HttpTls, ServingCertificateReloadedFromFiles) {
  Pki pki("reload");
  pki.make_ca("ca1");
  pki.make_ca("ca2");
  pki.make_cert("ca1", "s1", "/CN=s1", "IP:127.0.0.1");
  pki.make_cert("ca2", "s2", "/CN=s2", "IP:127.0.0.1");
  fs::path dir = fs::path(pki.p("serving"));
  fs::create_directories(dir);
  fs::copy_file(pki.p("s1.crt"), dir / "tls.crt");
  fs::copy_file(pki.p("s1.key"), dir / "tls.key");
  ServerTls tls;
  tls.cert_file = (dir / "tls.crt").string();
  tls.key_file = (dir / "tls.key").string();
  tls.reload_interval = 1s;
  Server server({.tls = tls}, [](Request&, Reply& reply) { reply.send(Response(200, "ok", "text/plain")); });
  server.start();
  std::string url = "https://127.0.0.1:" + std::to_string(server.port()) + "/";
  ClientOptions trust1, trust2;
  trust1.tls.ca_pem = pki.pem("ca1.crt");
  trust2.tls.ca_pem = pki.pem("ca2.crt");
  EXPECT_EQ(Client(trust1).request("GET", url).status, 200);
  EXPECT_THROW(Client(trust2).request("GET", url), TransportError);
  // Rotate: write the new pair (new mtime) and wait for the reload.
  std::this_thread::sleep_for(10ms);
  fs::copy_file(pki.p("s2.crt"), dir / "tls.crt", fs::copy_options::overwrite_existing);
  fs::copy_file(pki.p("s2.key"), dir / "tls.key", fs::copy_options::overwrite_existing);
  bool rotated = false;
  for (int i = 0; i < 50 && !rotated; ++i) {
    std::this_thread::sleep_for(100ms);
    try {
      rotated = Client(trust2).request("GET", url).status == 200;
    } catch (const TransportError&) {
    }
  }
  EXPECT_TRUE(rotated) << "the server should serve the rotated certificate";
}

}  // namespace
}  // namespace capstan::http
