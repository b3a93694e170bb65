#include "runtime/client/config.h"

#include "runtime/meta/base64.h"
#include "runtime/json/json.h"
#include "runtime/json/yaml.h"
#include "runtime/log/log.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace capstan::client {
namespace fs = std::filesystem;

namespace {

// Reads a whole file; nullopt with `error` set when it cannot be read.
std::optional<std::string> read_file(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = std::strerror(errno);
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    if (error) *error = "read error";
    return std::nullopt;
  }
  return ss.str();
}

std::string trim(std::string s) {
  auto not_space = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// One named entry of clusters/users/contexts and the file that defined it.
struct Entry {
  json::Value body;  // the "cluster"/"user"/"context" object
  std::string file;
  fs::path dir;
};

struct Merged {
  std::map<std::string, Entry> clusters, users, contexts;
  std::string current_context;
  std::string files;  // for messages: "/a" or "/a:/b"
};

std::string str(const json::Value& v, std::string_view key) {
  const json::Value* m = json::find(v, {key});
  if (!m) return {};
  if (m->is_string()) return std::string(m->as_string());
  if (m->is_int64()) return std::to_string(m->as_int64());
  return {};
}

// A list of strings at `key`; ConfigError naming `what` for anything else.
std::vector<std::string> strings(const json::Value& v, std::string_view key, const std::string& what) {
  const json::Value* m = json::find(v, {key});
  std::vector<std::string> out;
  if (!m || m->is_null()) return out;
  if (!m->is_array()) throw ConfigError(what + ": " + std::string(key) + " must be a list of strings");
  for (const auto& item : m->as_array()) {
    if (!item.is_string()) throw ConfigError(what + ": " + std::string(key) + " must be a list of strings");
    out.emplace_back(item.as_string());
  }
  return out;
}

// The user's as, as-uid, as-groups and as-user-extra (kubectl's impersonation settings).
Impersonation impersonation_of(const json::Value& user, const std::string& what) {
  Impersonation imp;
  imp.user = str(user, "as");
  imp.uid = str(user, "as-uid");
  imp.groups = strings(user, "as-groups", what);
  if (const json::Value* extra = json::find(user, {"as-user-extra"}); extra && extra->is_object())
    for (const auto& member : extra->as_object())
      imp.extra[std::string(member.key())] = strings(*extra, member.key(), what + ": as-user-extra");
  if (imp.user.empty() && (!imp.uid.empty() || !imp.groups.empty() || !imp.extra.empty()))
    throw ConfigError(what + ": as-uid, as-groups and as-user-extra need as (the user to impersonate)");
  return imp;
}

bool flag(const json::Value& v, std::string_view key) {
  const json::Value* m = json::find(v, {key});
  if (!m) return false;
  if (m->is_bool()) return m->as_bool();
  if (m->is_string()) return m->as_string() == "true" || m->as_string() == "True";
  return false;
}

void collect(const json::Value& doc, std::string_view list_key, std::string_view body_key, const std::string& file,
             std::map<std::string, Entry>& into) {
  const json::Array* arr = json::get_array(doc, {list_key});
  if (!arr) return;
  for (const auto& item : *arr) {
    std::string name = str(item, "name");
    if (name.empty() || into.count(name)) continue;  // first file wins
    const json::Value* body = json::find(item, {body_key});
    Entry e;
    e.body = body && body->is_object() ? *body : json::Value(json::Object());
    e.file = file;
    e.dir = fs::absolute(fs::path(file)).parent_path();
    into.emplace(std::move(name), std::move(e));
  }
}

std::string resolve(const Entry& e, const std::string& p) {
  fs::path path(p);
  if (path.is_relative()) path = e.dir / path;
  return path.lexically_normal().string();
}

// Reads `<key>-data` (base64) or the file named by `<key>`; empty when neither is set.
std::string pem_field(const Entry& e, const std::string& what, const std::string& file_key) {
  std::string data = str(e.body, file_key + "-data");
  if (!data.empty()) {
    auto decoded = meta::base64_decode(data);
    if (!decoded) throw ConfigError(what + ": " + file_key + "-data is not valid base64 in " + e.file);
    return *decoded;
  }
  std::string file = str(e.body, file_key);
  if (file.empty()) return {};
  std::string path = resolve(e, file);
  std::string err;
  auto content = read_file(path, &err);
  if (!content) throw ConfigError(what + ": reading " + file_key + " " + path + ": " + err + " (kubeconfig " + e.file + ")");
  return *content;
}

Merged read_files(const std::vector<std::string>& paths, bool skip_missing) {
  Merged m;
  int found = 0;
  for (const auto& path : paths) {
    if (!m.files.empty()) m.files += ':';
    m.files += path;
    std::error_code ec;
    if (skip_missing && !fs::exists(path, ec)) continue;
    std::string err;
    auto text = read_file(path, &err);
    if (!text) throw ConfigError("reading kubeconfig " + path + ": " + err);
    ++found;
    json::Value doc;
    try {
      doc = json::from_yaml(*text, "kubeconfig " + path);
    } catch (const std::exception& ex) {
      throw ConfigError(ex.what());
    }
    if (doc.is_null()) continue;  // an empty file
    if (!doc.is_object()) throw ConfigError("kubeconfig " + path + " is not a YAML mapping");
    collect(doc, "clusters", "cluster", path, m.clusters);
    collect(doc, "users", "user", path, m.users);
    collect(doc, "contexts", "context", path, m.contexts);
    if (m.current_context.empty()) m.current_context = str(doc, "current-context");
  }
  if (found == 0) throw ConfigError("no kubeconfig file found among " + m.files);
  return m;
}

Config build(const Merged& m, const std::string& requested_context) {
  std::string ctx_name = requested_context.empty() ? m.current_context : requested_context;
  if (ctx_name.empty()) throw ConfigError("no current-context set in " + m.files + " and no context given");
  auto ctx_it = m.contexts.find(ctx_name);
  if (ctx_it == m.contexts.end()) throw ConfigError("context \"" + ctx_name + "\" not found in " + m.files);
  const Entry& ctx = ctx_it->second;

  Config c;
  c.context = ctx_name;
  c.source = "kubeconfig " + m.files + " (context " + ctx_name + ")";
  std::string ns = str(ctx.body, "namespace");
  if (!ns.empty()) c.default_namespace = ns;

  std::string cluster_name = str(ctx.body, "cluster");
  if (cluster_name.empty()) throw ConfigError("context \"" + ctx_name + "\" names no cluster in " + ctx.file);
  auto cl_it = m.clusters.find(cluster_name);
  if (cl_it == m.clusters.end())
    throw ConfigError("cluster \"" + cluster_name + "\" of context \"" + ctx_name + "\" not found in " + m.files);
  const Entry& cluster = cl_it->second;
  std::string what = "cluster \"" + cluster_name + "\"";
  c.server = str(cluster.body, "server");
  if (c.server.empty()) throw ConfigError(what + " has no server in " + cluster.file);
  if (c.server.find("://") == std::string::npos) c.server = "https://" + c.server;
  while (c.server.size() > 8 && c.server.back() == '/') c.server.pop_back();
  if (!str(cluster.body, "proxy-url").empty())
    log::warn("kubeconfig proxy-url is not supported; connecting to the server directly",
              {{"cluster", cluster_name}, {"kubeconfig", cluster.file}});
  c.insecure_skip_tls_verify = flag(cluster.body, "insecure-skip-tls-verify");
  c.tls_server_name = str(cluster.body, "tls-server-name");
  c.ca_pem = pem_field(cluster, what, "certificate-authority");
  if (c.insecure_skip_tls_verify && !c.ca_pem.empty())
    throw ConfigError(what + " in " + cluster.file +
                      ": certificate-authority and insecure-skip-tls-verify cannot both be set");

  std::string user_name = str(ctx.body, "user");
  if (user_name.empty()) return c;  // anonymous
  auto us_it = m.users.find(user_name);
  if (us_it == m.users.end())
    throw ConfigError("user \"" + user_name + "\" of context \"" + ctx_name + "\" not found in " + m.files);
  const Entry& user = us_it->second;
  what = "user \"" + user_name + "\"";
  if (json::find(user.body, {"exec"}))
    throw ConfigError(what + " in " + user.file + " uses an exec credential plugin, which capstan does not support");
  if (json::find(user.body, {"auth-provider"}))
    throw ConfigError(what + " in " + user.file + " uses an auth-provider plugin, which capstan does not support");
  c.client_cert_pem = pem_field(user, what, "client-certificate");
  c.client_key_pem = pem_field(user, what, "client-key");
  if (c.client_cert_pem.empty() != c.client_key_pem.empty())
    throw ConfigError(what + " in " + user.file + " has " +
                      (c.client_cert_pem.empty() ? "a client-key but no client-certificate"
                                                 : "a client-certificate but no client-key"));
  c.bearer_token = str(user.body, "token");
  c.impersonate = impersonation_of(user.body, what + " in " + user.file);
  std::string token_file = str(user.body, "tokenFile");
  if (!token_file.empty()) {
    c.token_file = resolve(user, token_file);
    std::string err;
    if (!read_file(c.token_file, &err) && c.bearer_token.empty())
      throw ConfigError(what + ": reading tokenFile " + c.token_file + ": " + err + " (kubeconfig " + user.file + ")");
  }
  if (c.client_cert_pem.empty() && c.bearer_token.empty() && c.token_file.empty()) {
    std::string why = (json::find(user.body, {"username"}) || json::find(user.body, {"password"}))
                          ? " (basic auth is not supported)"
                          : "";
    throw ConfigError(what + " has no credentials in " + user.file +
                      ": expected token, tokenFile or client-certificate and client-key" + why);
  }
  return c;
}

}  // namespace

std::vector<std::string> split_kubeconfig_list(const std::string& value) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : value) {
    if (ch == ':') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

Config load_kubeconfig(const std::string& path, const std::string& context) {
  return build(read_files({path}, false), context);
}

Config load_kubeconfig_files(const std::vector<std::string>& paths, const std::string& context) {
  if (paths.empty()) throw ConfigError("no kubeconfig files given");
  return build(read_files(paths, true), context);
}

bool in_cluster_available() {
  return !env("KUBERNETES_SERVICE_HOST").empty() && !env("KUBERNETES_SERVICE_PORT").empty();
}

Config in_cluster_config(const InClusterOptions& options) {
  std::string host = options.host ? *options.host : env("KUBERNETES_SERVICE_HOST");
  std::string port = options.port ? *options.port : env("KUBERNETES_SERVICE_PORT");
  if (host.empty() || port.empty())
    throw ConfigError("not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set");
  fs::path dir(options.dir);
  Config c;
  c.source = "in-cluster";
  c.server = "https://" + (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
  c.token_file = (dir / "token").string();
  std::string err;
  auto token = read_file(c.token_file, &err);
  if (!token) throw ConfigError("in-cluster config: reading service account token " + c.token_file + ": " + err);
  c.bearer_token = trim(*token);
  std::string ca_path = (dir / "ca.crt").string();
  if (auto ca = read_file(ca_path, &err)) {
    c.ca_pem = *ca;
  } else {
    log::error("in-cluster config: cannot read the service account CA; using the system roots",
               {{"path", ca_path}, {"error", err}});
  }
  if (auto ns = read_file((dir / "namespace").string(), nullptr)) {
    std::string n = trim(*ns);
    if (!n.empty()) c.default_namespace = n;
  }
  return c;
}

Config load_config(const std::string& kubeconfig_flag, const std::string& context) {
  if (!kubeconfig_flag.empty()) return load_kubeconfig(kubeconfig_flag, context);
  std::string list = env("KUBECONFIG");
  if (!list.empty()) return load_kubeconfig_files(split_kubeconfig_list(list), context);
  if (in_cluster_available()) return in_cluster_config();
  std::string home = env("HOME");
  if (!home.empty()) {
    fs::path p = fs::path(home) / ".kube" / "config";
    std::error_code ec;
    if (fs::exists(p, ec)) return load_kubeconfig(p.string(), context);
  }
  throw ConfigError(
      "no Kubernetes configuration found: pass --kubeconfig, set $KUBECONFIG, run in a cluster, or create "
      "$HOME/.kube/config");
}

}  // namespace capstan::client

namespace capstan::client {

Impersonation Impersonation::service_account(std::string_view ns, std::string_view name) {
  Impersonation imp;
  imp.user = "system:serviceaccount:" + std::string(ns) + ":" + std::string(name);
  return imp;
}

std::string to_kubeconfig(const Config& config, std::string_view context) {
  std::string ctx(context);
  json::Object cluster{{"server", config.server}};
  if (!config.ca_pem.empty()) cluster["certificate-authority-data"] = meta::base64_encode(config.ca_pem);
  if (config.insecure_skip_tls_verify) cluster["insecure-skip-tls-verify"] = true;
  if (!config.tls_server_name.empty()) cluster["tls-server-name"] = config.tls_server_name;
  json::Object user;
  if (!config.client_cert_pem.empty()) user["client-certificate-data"] = meta::base64_encode(config.client_cert_pem);
  if (!config.client_key_pem.empty()) user["client-key-data"] = meta::base64_encode(config.client_key_pem);
  if (!config.token_file.empty()) user["tokenFile"] = config.token_file;
  else if (!config.bearer_token.empty()) user["token"] = config.bearer_token;
  if (const auto& imp = config.impersonate; !imp.empty()) {
    user["as"] = imp.user;
    if (!imp.uid.empty()) user["as-uid"] = imp.uid;
    if (!imp.groups.empty()) user["as-groups"] = json::Array(imp.groups.begin(), imp.groups.end());
    json::Object extra;
    for (const auto& [key, values] : imp.extra) extra[key] = json::Array(values.begin(), values.end());
    if (!extra.empty()) user["as-user-extra"] = std::move(extra);
  }
  json::Object cfg;
  cfg["apiVersion"] = "v1";
  cfg["kind"] = "Config";
  cfg["clusters"] = json::Array{json::Object{{"name", ctx}, {"cluster", std::move(cluster)}}};
  cfg["users"] = json::Array{json::Object{{"name", ctx + "-admin"}, {"user", std::move(user)}}};
  cfg["contexts"] = json::Array{json::Object{
      {"name", ctx}, {"context", json::Object{{"cluster", ctx}, {"user", ctx + "-admin"}, {"namespace", config.default_namespace}}}}};
  cfg["current-context"] = ctx;
  cfg["preferences"] = json::Object{};
  return json::to_yaml(cfg);
}

}  // namespace capstan::client
