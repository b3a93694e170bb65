// A manager running only the certificates controllers, for the restart test: started as a
// child process against a kubeconfig, killed with SIGKILL, started again.
//   certificates_test_manager <kubeconfig>
#include "controllers/certificates/plugin.h"
#include "runtime/client/client.h"
#include "runtime/controller/manager.h"
#include "runtime/log/log.h"

#include <csignal>
#include <iostream>
#include <thread>

int main(int argc, char** argv) {
  using namespace capstan;
  if (argc < 2) {
    std::cerr << "usage: certificates_test_manager <kubeconfig>\n";
    return 2;
  }
  log::init(log::Format::Text, 0);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);

  client::Config cfg = client::load_kubeconfig(argv[1]);
  cfg.qps = 0;
  client::Client client(cfg);
  controller::ManagerOptions mo;
  mo.metrics_bind_address = "0";
  mo.health_probe_bind_address = "0";
  controller::Manager mgr(client, mo);
  certificates::CertificatesOptions co;
  co.acme_solver = false;
  co.issuer_retry_interval = std::chrono::milliseconds(300);
  certificates::wire_certificates(mgr, co);
  std::thread signals([&] {
    int sig = 0;
    sigwait(&set, &sig);
    mgr.stop();
  });
  signals.detach();
  std::cout << "certificates test manager running" << std::endl;
  return mgr.run();
}
