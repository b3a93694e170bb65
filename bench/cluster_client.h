// Benchmarks talk to a `capstan apiserver` child process through runtime/http directly, with
// the admin credentials from the kubeconfig it writes.
#pragma once

#include "testing/process.h"
#include "runtime/http/client.h"

#include <memory>
#include <string>

namespace capstan::bench {

struct ServerUnderTest {
  std::unique_ptr<e2e::TempDir> dir;
  std::unique_ptr<e2e::Process> proc;
  std::string url;                 // https://127.0.0.1:PORT
  std::string kubeconfig;          // path
  http::ClientOptions client_options;  // CA + admin client certificate
};

// Starts `capstan apiserver` (memory store) and reads its kubeconfig.
ServerUnderTest start_server(const std::string& capstan_bin, const std::vector<std::string>& extra_args = {});

// Installs every CRD `capstan crds` prints, as an installation would, and waits until the
// API server serves them.
void install_crds(const std::string& capstan_bin, const ServerUnderTest& s);

// A ConfigMap of about `bytes` bytes of JSON.
std::string configmap_json(const std::string& ns, const std::string& name, std::size_t bytes);

// Peak resident set size of this process, in bytes (VmHWM), and the current RSS (VmRSS).
std::size_t peak_rss_bytes();
std::size_t rss_bytes();
// The current RSS of another process (0 when it is gone).
std::size_t rss_bytes_of(int pid);
// The CPU time (user + system) a process has used, in seconds (0 when it is gone).
double cpu_seconds_of(int pid);

}  // namespace capstan::bench
