// Capstan's side of bench/webhook_bench: the manager's webhook server (runtime/webhook over
// runtime/http) with the certificates API's admission webhooks, serving HTTPS from the
// directory given (tls.crt, tls.key) on a free loopback port. Prints "listening <port>" once it
// serves, then runs until it is stopped.
#include "webhooks/certificates/webhooks.h"
#include "runtime/log/log.h"
#include "runtime/webhook/server.h"

#include <csignal>
#include <cstdio>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: webhook_peer CERT_DIR\n");
    return 2;
  }
  capstan::log::init(capstan::log::Format::Text, 0);
  capstan::webhook::ServerOptions o;
  o.host = "127.0.0.1";
  o.port = 0;
  o.cert_dir = argv[1];
  capstan::webhook::Server server(o);
  capstan::webhooks::certificates::register_webhooks(server);
  server.start();
  std::printf("listening %u\n", static_cast<unsigned>(server.port()));
  std::fflush(stdout);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigprocmask(SIG_BLOCK, &set, nullptr);
  int sig = 0;
  sigwait(&set, &sig);
  server.stop();
  return 0;
}
