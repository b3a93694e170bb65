#include "runtime/meta/base64.h"
#include "runtime/client/client.h"
#include "runtime/client/config.h"
#include "runtime/client/test_support.h"
#include "runtime/client/token_source.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace capstan::client {
namespace {
using namespace std::chrono_literals;
using testing::FakeApiServer;
using testing::TempDir;
namespace fs = std::filesystem;

// Sets (or unsets) an environment variable for the scope of a test.
class EnvVar {
 public:
  EnvVar(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value, 1);
    else ::unsetenv(name);
  }
  ~EnvVar() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::string expect_config_error(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a ConfigError";
  return {};
}

const char* kCa = "-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n";
const char* kCert = "-----BEGIN CERTIFICATE-----\nCLIENT\n-----END CERTIFICATE-----\n";
const char* kKey = "-----BEGIN EC PRIVATE KEY-----\nKEY\n-----END EC PRIVATE KEY-----\n";

TEST(Kubeconfig, DataFieldsCurrentContextAndNamespace) {
  TempDir dir;
  std::string path = dir.write("config", R"(apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: other
  cluster:
    server: https://other:6443
- name: dev-cluster
  cluster:
    server: https://127.0.0.1:6443/
    certificate-authority-data: )" + meta::base64_encode(kCa) + R"(
    tls-server-name: kubernetes.default
contexts:
- name: dev
  context:
    cluster: dev-cluster
    user: admin
    namespace: team-a
users:
- name: admin
  user:
    client-certificate-data: )" + meta::base64_encode(kCert) + R"(
    client-key-data: )" + meta::base64_encode(kKey) + R"(
)");
  Config c = load_kubeconfig(path);
  EXPECT_EQ(c.server, "https://127.0.0.1:6443");
  EXPECT_EQ(c.ca_pem, kCa);
  EXPECT_EQ(c.client_cert_pem, kCert);
  EXPECT_EQ(c.client_key_pem, kKey);
  EXPECT_EQ(c.tls_server_name, "kubernetes.default");
  EXPECT_FALSE(c.insecure_skip_tls_verify);
  EXPECT_EQ(c.default_namespace, "team-a");
  EXPECT_EQ(c.context, "dev");
  EXPECT_TRUE(c.bearer_token.empty());
  EXPECT_NE(c.source.find(path), std::string::npos);
  EXPECT_EQ(c.qps, 20);
  EXPECT_EQ(c.burst, 30);
}

TEST(Kubeconfig, FilePathsResolveAgainstTheKubeconfigDirectory) {
  TempDir dir;
  dir.write("kube/pki/ca.crt", kCa);
  dir.write("certs/client.crt", kCert);
  std::string key_path = dir.write("abs/client.key", kKey);
  std::string path = dir.write("kube/config", R"(
current-context: c
clusters:
- name: k
  cluster:
    server: https://k:443
    certificate-authority: pki/ca.crt
contexts:
- name: c
  context: {cluster: k, user: u}
users:
- name: u
  user:
    client-certificate: ../certs/client.crt
    client-key: )" + key_path + "\n");
  Config c = load_kubeconfig(path);
  EXPECT_EQ(c.ca_pem, kCa);
  EXPECT_EQ(c.client_cert_pem, kCert);
  EXPECT_EQ(c.client_key_pem, kKey);
  EXPECT_EQ(c.default_namespace, "default");
}

TEST(Kubeconfig, TokenInsecureAndNamedContext) {
  TempDir dir;
  std::string path = dir.write("config", R"(
current-context: a
clusters:
- name: ca
  cluster: {server: "https://a:6443"}
- name: cb
  cluster:
    server: https://b:6443
    insecure-skip-tls-verify: true
contexts:
- name: a
  context: {cluster: ca, user: ua}
- name: b
  context: {cluster: cb, user: ub, namespace: kube-system}
users:
- name: ua
  user: {token: token-a}
- name: ub
  user: {token: token-b}
)");
  Config a = load_kubeconfig(path);
  EXPECT_EQ(a.server, "https://a:6443");
  EXPECT_EQ(a.bearer_token, "token-a");
  EXPECT_FALSE(a.insecure_skip_tls_verify);
  Config b = load_kubeconfig(path, "b");
  EXPECT_EQ(b.server, "https://b:6443");
  EXPECT_EQ(b.bearer_token, "token-b");
  EXPECT_TRUE(b.insecure_skip_tls_verify);
  EXPECT_EQ(b.default_namespace, "kube-system");
  EXPECT_EQ(b.context, "b");
}

TEST(Kubeconfig, ImpersonationSettingsAreReadAndWrittenBack) {
  TempDir dir;
  std::string path = dir.write("config", R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://k"}}]
contexts: [{name: c, context: {cluster: k, user: u}}]
users:
- name: u
  user:
    token: t
    as: jane
    as-uid: "42"
    as-groups: [devs, ops]
    as-user-extra: {reason: [audit]}
)");
  Config c = load_kubeconfig(path);
  EXPECT_EQ(c.impersonate.user, "jane");
  EXPECT_EQ(c.impersonate.uid, "42");
  EXPECT_EQ(c.impersonate.groups, (std::vector<std::string>{"devs", "ops"}));
  EXPECT_EQ(c.impersonate.extra.at("reason"), std::vector<std::string>{"audit"});
  std::string again = dir.write("again", to_kubeconfig(c));
  Config d = load_kubeconfig(again);
  EXPECT_EQ(d.impersonate.user, "jane");
  EXPECT_EQ(d.impersonate.groups, c.impersonate.groups);
  EXPECT_EQ(d.impersonate.extra, c.impersonate.extra);

  std::string bad = dir.write("bad", R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://k"}}]
contexts: [{name: c, context: {cluster: k, user: u}}]
users: [{name: u, user: {token: t, as-groups: [devs]}}]
)");
  try {
    load_kubeconfig(bad);
    FAIL() << "as-groups without as was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("need as"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("user \"u\""), std::string::npos) << e.what();
  }
}

TEST(Kubeconfig, TokenFileIsResolvedAndKept) {
  TempDir dir;
  dir.write("tokens/sa", "file-token\n");
  std::string path = dir.write("config", R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://k"}}]
contexts: [{name: c, context: {cluster: k, user: u}}]
users: [{name: u, user: {tokenFile: tokens/sa}}]
)");
  Config c = load_kubeconfig(path);
  EXPECT_EQ(c.token_file, (dir.path() / "tokens/sa").string());
  EXPECT_EQ(c.server, "https://k");
  TokenSource ts(c.bearer_token, c.token_file);
  EXPECT_EQ(ts.token(), "file-token");
}

TEST(Kubeconfig, AnonymousContextIsAllowed) {
  TempDir dir;
  std::string path = dir.write("config", R"(
current-context: c
clusters: [{name: k, cluster: {server: "http://127.0.0.1:8080"}}]
contexts: [{name: c, context: {cluster: k}}]
)");
  Config c = load_kubeconfig(path);
  EXPECT_EQ(c.server, "http://127.0.0.1:8080");
  EXPECT_TRUE(c.bearer_token.empty());
  EXPECT_TRUE(c.client_cert_pem.empty());
}

TEST(Kubeconfig, ErrorsNameTheFileAndTheMissingPiece) {
  TempDir dir;
  auto write = [&](const std::string& body) { return dir.write("config", body); };
  const std::string base = R"(
clusters:
- name: k
  cluster: {server: "https://k:6443"}
- name: noserver
  cluster: {}
- name: both
  cluster: {server: "https://k", insecure-skip-tls-verify: true, certificate-authority-data: )" +
                           meta::base64_encode(kCa) + R"(}
- name: badca
  cluster: {server: "https://k", certificate-authority-data: "@@@"}
- name: missingca
  cluster: {server: "https://k", certificate-authority: nowhere/ca.crt}
contexts:
- {name: ok, context: {cluster: k, user: u}}
- {name: nocluster, context: {user: u}}
- {name: ghostcluster, context: {cluster: ghost, user: u}}
- {name: ghostuser, context: {cluster: k, user: ghost}}
- {name: empty, context: {cluster: k, user: nocreds}}
- {name: exec, context: {cluster: k, user: exec}}
- {name: halfcert, context: {cluster: k, user: halfcert}}
- {name: basic, context: {cluster: k, user: basic}}
- {name: noserver, context: {cluster: noserver, user: u}}
- {name: both, context: {cluster: both, user: u}}
- {name: badca, context: {cluster: badca, user: u}}
- {name: missingca, context: {cluster: missingca, user: u}}
users:
- {name: u, user: {token: t}}
- {name: nocreds, user: {}}
- {name: exec, user: {exec: {command: aws}}}
- {name: halfcert, user: {client-certificate-data: )" + meta::base64_encode(kCert) + R"(}}
- {name: basic, user: {username: a, password: b}}
)";
  std::string path = write(base);
  auto err = [&](const std::string& ctx) { return expect_config_error([&] { load_kubeconfig(path, ctx); }); };

  EXPECT_NE(err("nope").find("context \"nope\" not found in " + path), std::string::npos);
  EXPECT_NE(err("").find("no current-context set in " + path), std::string::npos);
  EXPECT_NE(err("nocluster").find("context \"nocluster\" names no cluster"), std::string::npos);
  EXPECT_NE(err("ghostcluster").find("cluster \"ghost\" of context \"ghostcluster\" not found in " + path),
            std::string::npos);
  EXPECT_NE(err("ghostuser").find("user \"ghost\" of context \"ghostuser\" not found in " + path), std::string::npos);
  EXPECT_NE(err("empty").find("user \"nocreds\" has no credentials in " + path), std::string::npos);
  EXPECT_NE(err("exec").find("exec credential plugin"), std::string::npos);
  EXPECT_NE(err("halfcert").find("client-certificate but no client-key"), std::string::npos);
  EXPECT_NE(err("basic").find("basic auth is not supported"), std::string::npos);
  EXPECT_NE(err("noserver").find("cluster \"noserver\" has no server in " + path), std::string::npos);
  EXPECT_NE(err("both").find("cannot both be set"), std::string::npos);
  EXPECT_NE(err("badca").find("certificate-authority-data is not valid base64 in " + path), std::string::npos);
  std::string missing = err("missingca");
  EXPECT_NE(missing.find("reading certificate-authority " + (dir.path() / "nowhere/ca.crt").string()),
            std::string::npos)
      << missing;
  EXPECT_NO_THROW(load_kubeconfig(path, "ok"));

  EXPECT_NE(expect_config_error([&] { load_kubeconfig((dir.path() / "absent").string()); })
                .find("reading kubeconfig " + (dir.path() / "absent").string()),
            std::string::npos);
  std::string bad = dir.write("bad", "clusters: [unterminated\n");
  EXPECT_NE(expect_config_error([&] { load_kubeconfig(bad); }).find(bad), std::string::npos);
}

TEST(Kubeconfig, MultipleFilesMergeFirstWins) {
  TempDir dir;
  std::string a = dir.write("a/config", R"(
clusters: [{name: shared, cluster: {server: "https://from-a"}}]
users: [{name: u, user: {tokenFile: token}}]
)");
  dir.write("a/token", "token-from-a-dir");
  std::string b = dir.write("b/config", R"(
current-context: ctx-b
clusters: [{name: shared, cluster: {server: "https://from-b"}}]
contexts: [{name: ctx-b, context: {cluster: shared, user: u, namespace: nb}}]
users: [{name: u, user: {token: from-b}}]
)");
  std::string c = dir.write("c/config", "current-context: ctx-c\n");
  std::string list = a + ":" + (dir.path() / "missing").string() + ":" + b + ":" + c;
  auto files = split_kubeconfig_list(list + ":");
  ASSERT_EQ(files.size(), 4u);
  Config cfg = load_kubeconfig_files(files);
  EXPECT_EQ(cfg.context, "ctx-b");
  EXPECT_EQ(cfg.server, "https://from-a");
  EXPECT_EQ(cfg.token_file, (dir.path() / "a/token").string());  // relative to the file that defined the user
  EXPECT_TRUE(cfg.bearer_token.empty());
  EXPECT_EQ(cfg.default_namespace, "nb");
  EXPECT_NE(expect_config_error([&] { load_kubeconfig_files({(dir.path() / "x").string()}); })
                .find("no kubeconfig file found"),
            std::string::npos);
}

TEST(KubeconfigLoadConfig, FlagThenEnvThenInClusterThenHome) {
  TempDir dir;
  auto kubeconfig = [&](const std::string& name, const std::string& server) {
    return dir.write(name, "current-context: c\nclusters: [{name: k, cluster: {server: \"" + server +
                               "\"}}]\ncontexts: [{name: c, context: {cluster: k}}]\n");
  };
  std::string flag = kubeconfig("flag", "https://flag");
  std::string env1 = kubeconfig("env1", "https://env");
  kubeconfig("home/.kube/config", "https://home");
  EnvVar home("HOME", (dir.path() / "home").c_str());
  {
    EnvVar k("KUBECONFIG", env1.c_str());
    EnvVar h("KUBERNETES_SERVICE_HOST", nullptr);
    EXPECT_EQ(load_config(flag).server, "https://flag");
    EXPECT_EQ(load_config("").server, "https://env");
  }
  {
    EnvVar k("KUBECONFIG", nullptr);
    EnvVar h("KUBERNETES_SERVICE_HOST", nullptr);
    EnvVar p("KUBERNETES_SERVICE_PORT", nullptr);
    EXPECT_FALSE(in_cluster_available());
    EXPECT_EQ(load_config("").server, "https://home");
  }
  {
    EnvVar k("KUBECONFIG", nullptr);
    EnvVar h("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    EnvVar p("KUBERNETES_SERVICE_PORT", "443");
    EXPECT_TRUE(in_cluster_available());
    // The default service account directory does not exist here: the in-cluster branch is
    // taken and reports the unreadable token.
    if (!fs::exists("/var/run/secrets/kubernetes.io/serviceaccount/token")) {
      EXPECT_NE(expect_config_error([] { load_config(""); }).find("service account token"), std::string::npos);
    }
  }
  {
    EnvVar k("KUBECONFIG", nullptr);
    EnvVar h("KUBERNETES_SERVICE_HOST", nullptr);
    EnvVar hm("HOME", (dir.path() / "nohome").c_str());
    EXPECT_NE(expect_config_error([] { load_config(""); }).find("no Kubernetes configuration found"),
              std::string::npos);
  }
}

TEST(InClusterConfig, ReadsTheServiceAccountDirectory) {
  TempDir dir;
  dir.write("token", "sa-token\n");
  dir.write("ca.crt", kCa);
  dir.write("namespace", "capstan-system");
  Config c = in_cluster_config({.dir = dir.path().string(), .host = "10.96.0.1", .port = "443"});
  EXPECT_EQ(c.server, "https://10.96.0.1:443");
  EXPECT_EQ(c.bearer_token, "sa-token");
  EXPECT_EQ(c.token_file, (dir.path() / "token").string());
  EXPECT_EQ(c.ca_pem, kCa);
  EXPECT_EQ(c.default_namespace, "capstan-system");
  EXPECT_EQ(c.source, "in-cluster");

  Config v6 = in_cluster_config({.dir = dir.path().string(), .host = "fd00::1", .port = "6443"});
  EXPECT_EQ(v6.server, "https://[fd00::1]:6443");
}

TEST(InClusterConfig, EnvironmentAndTokenAreRequiredButTheCaIsNot) {
  TempDir dir;
  {
    EnvVar h("KUBERNETES_SERVICE_HOST", nullptr);
    EXPECT_NE(expect_config_error([&] { in_cluster_config({.dir = dir.path().string()}); })
                  .find("KUBERNETES_SERVICE_HOST"),
              std::string::npos);
  }
  {
    EnvVar h("KUBERNETES_SERVICE_HOST", "10.0.0.1");
    EnvVar p("KUBERNETES_SERVICE_PORT", "8443");
    EXPECT_NE(expect_config_error([&] { in_cluster_config({.dir = dir.path().string()}); })
                  .find((dir.path() / "token").string()),
              std::string::npos);
    dir.write("token", "t");
    Config c = in_cluster_config({.dir = dir.path().string()});
    EXPECT_EQ(c.server, "https://10.0.0.1:8443");
    EXPECT_TRUE(c.ca_pem.empty());
    EXPECT_EQ(c.default_namespace, "default");
  }
}

TEST(InClusterConfig, RotatedTokenIsSentOnLaterRequests) {
  TempDir dir;
  std::string token = dir.write("token", "first-token");
  FakeApiServer server([](http::Request&, http::Reply& reply) {
    reply.send(testing::json_response(200, R"({"kind":"APIVersions","versions":["v1"]})"));
  });
  Config c = server.config();
  c.bearer_token = "first-token";
  c.token_file = token;
  ClientOptions o;
  o.token.stat_interval = 0ms;
  Client client(c, o);
  client.raw("GET", "/api");
  EXPECT_EQ(server.last().headers.get_or("Authorization", ""), "Bearer first-token");
  dir.write("token", "second-token-rotated");
  fs::last_write_time(token, fs::last_write_time(token) + 5s);
  client.raw("GET", "/api");
  EXPECT_EQ(server.last().headers.get_or("Authorization", ""), "Bearer second-token-rotated");
}

TEST(ClientTokenSource, RereadsOnChangeOrAgeAndFallsBack) {
  TempDir dir;
  std::string file = dir.write("token", "aaaa");
  // Checks suppressed: a changed file is not noticed until the stat interval passes.
  TokenSource slow("static", file, {.stat_interval = std::chrono::hours(1), .max_age = std::chrono::hours(1)});
  EXPECT_EQ(slow.token(), "aaaa");
  dir.write("token", "bbbbbb");
  EXPECT_EQ(slow.token(), "aaaa");

  // Same size and mtime: only max_age forces the re-read.
  TokenSource aged("", file, {.stat_interval = 0ms, .max_age = 0ms});
  EXPECT_EQ(aged.token(), "bbbbbb");
  auto mtime = fs::last_write_time(file);
  dir.write("token", "cccccc");
  fs::last_write_time(file, mtime);
  EXPECT_EQ(aged.token(), "cccccc");

  // Unreadable file: the last good token stays; with none, the static token is used.
  fs::remove(file);
  EXPECT_EQ(aged.token(), "cccccc");
  TokenSource fallback("static", (dir.path() / "absent").string());
  EXPECT_EQ(fallback.token(), "static");
  TokenSource fixed("fixed", "");
  EXPECT_EQ(fixed.token(), "fixed");
}

}  // namespace
}  // namespace capstan::client
