// Where the API server is and how to authenticate: kubeconfig files, in-cluster service
// account, and controller-runtime's lookup order (GetConfig).
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::client {

// Thrown when a kubeconfig or the in-cluster environment cannot give a usable Config; the
// message names the file and the missing or broken piece.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whom requests act as (kubectl --as, client-go's rest.ImpersonationConfig): sent as the
// Impersonate-User, Impersonate-Uid, Impersonate-Group and Impersonate-Extra-<key> headers.
// The server checks that the authenticated user may impersonate each of them.
struct Impersonation {
  std::string user;  // "" = no impersonation
  std::string uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;

  bool empty() const { return user.empty(); }
  // "system:serviceaccount:<ns>:<name>", the username kube-apiserver gives a ServiceAccount; the
  // server adds its groups (system:serviceaccounts, system:serviceaccounts:<ns>).
  static Impersonation service_account(std::string_view ns, std::string_view name);
};

struct Config {
  std::string server;                   // "https://host:port" (an optional path prefix is kept)
  std::string ca_pem;                   // trusted roots; empty = the system store
  bool insecure_skip_tls_verify = false;
  std::string client_cert_pem;
  std::string client_key_pem;
  std::string bearer_token;             // used when token_file is unset or unreadable
  std::string token_file;               // re-read as it rotates (see TokenSource)
  std::string tls_server_name;
  double qps = 20;                      // client-side rate limit; <= 0 = unlimited
  int burst = 30;
  std::string user_agent = "capstan/0.1";
  std::chrono::milliseconds timeout{30000};  // per request (watch streams excepted)
  Impersonation impersonate;            // kubeconfig user's as, as-uid, as-groups, as-user-extra

  // Informational: where this came from, and the kubeconfig context's (or the pod's) namespace.
  std::string default_namespace = "default";
  std::string context;                  // kubeconfig context used ("" in-cluster)
  std::string source;                   // "kubeconfig /path (context x)" | "in-cluster"
};

// Reads a kubeconfig file. `context` empty = its current-context. File references
// (certificate-authority, client-certificate, client-key, tokenFile) that are relative are
// resolved against the kubeconfig's directory; *-data fields are base64. Exec and
// auth-provider plugins and basic auth are not supported (a ConfigError says so).
Config load_kubeconfig(const std::string& path, const std::string& context = "");
// Several files merged as kubectl merges $KUBECONFIG: for each named cluster, user and
// context the first file defining it wins, and the first current-context set wins. Missing
// files are skipped; it is an error when none exists.
Config load_kubeconfig_files(const std::vector<std::string>& paths, const std::string& context = "");
// Splits a $KUBECONFIG value on ':' (empty entries dropped).
std::vector<std::string> split_kubeconfig_list(const std::string& value);

// A kubeconfig (YAML) with one cluster, user and context named `context`, holding the
// server, CA, client certificate and key or bearer token of `config` inline (*-data), and
// config.default_namespace as the context's namespace. load_kubeconfig reads it back.
std::string to_kubeconfig(const Config& config, std::string_view context = "capstan");

struct InClusterOptions {
  std::string dir = "/var/run/secrets/kubernetes.io/serviceaccount";  // token, ca.crt, namespace
  // Override $KUBERNETES_SERVICE_HOST / $KUBERNETES_SERVICE_PORT (tests).
  std::optional<std::string> host;
  std::optional<std::string> port;
};

// The pod's service account: https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT, the
// token file (kept as token_file so rotated tokens are picked up), ca.crt and namespace.
// Throws ConfigError when the variables are unset or the token is unreadable; a missing
// ca.crt is logged and the system roots are used, as client-go does.
Config in_cluster_config(const InClusterOptions& options = {});
// Whether the in-cluster variables are set.
bool in_cluster_available();

// controller-runtime's GetConfig order: the --kubeconfig flag, then $KUBECONFIG, then the
// in-cluster service account, then $HOME/.kube/config.
Config load_config(const std::string& kubeconfig_flag = "", const std::string& context = "");

}  // namespace capstan::client
