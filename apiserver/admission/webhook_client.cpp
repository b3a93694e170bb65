#include "apiserver/admission/webhook_client.h"

#include "apiserver/service_endpoint.h"
#include "runtime/http/client.h"
#include "runtime/json/json.h"

#include <algorithm>
#include <cctype>

namespace capstan::apiserver::admission {
namespace {

constexpr std::size_t kMaxUnstructuredResponseText = 2048;  // client-go's maxUnstructuredResponseTextBytes

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string lower_first(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

std::string join_host_port(std::string_view host, int port) {
  std::string h(host);
  if (h.find(':') != std::string::npos) h = "[" + h + "]";
  return h + ":" + std::to_string(port);
}

// The request path as client-go builds it (path.Join("/", p)): rooted, no trailing slash.
std::string clean_path(std::string_view p) {
  std::string out;
  out.reserve(p.size() + 1);
  if (p.empty() || p.front() != '/') out.push_back('/');
  out.append(p);
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.append(1, '"').append(s).append(1, '"');
  return out;
}

CallError resolve_error(const std::string& display, const std::string& why) {
  return CallError(CallError::Kind::Transport, "Post " + quoted(display) + ": " + why);
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

bool is_text(const http::Response& r) {
  auto ct = r.headers.get("Content-Type");
  return ct && starts_with(*ct, "text/");
}

}  // namespace

std::string go_duration(std::chrono::seconds s) {
  auto n = s.count();
  if (n == 0) return "0s";
  std::string out;
  if (n >= 3600) {
    out += std::to_string(n / 3600) + "h";
    n %= 3600;
    out += std::to_string(n / 60) + "m";
    n %= 60;
  } else if (n >= 60) {
    out += std::to_string(n / 60) + "m";
    n %= 60;
  }
  return out + std::to_string(n) + "s";
}

std::string generic_server_response_message(int code, std::string_view server_message) {
  switch (code) {
    case 409: return "the server reported a conflict";
    case 404: return "the server could not find the requested resource";
    case 400: return "the server rejected our request for an unknown reason";
    case 401: return "the server has asked for the client to provide credentials";
    case 403: return std::string(server_message);
    case 406:
      if (server_message.empty() || server_message == "unknown")
        return "the server was unable to respond with a content type that the client supports";
      return std::string(server_message);
    case 415: return std::string(server_message);
    case 405: return "the server does not allow this method on the requested resource";
    case 422: return "the server rejected our request due to an error in our request";
    case 503: return "the server is currently unable to handle the request";
    case 504: return "the server was unable to return a response in the time allotted, but may still be processing the request";
    case 429: return "the server has received too many requests and has asked us to try again later";
    default: break;
  }
  if (code >= 500)
    return "an error on the server (" + quoted(server_message) + ") has prevented the request from succeeding";
  return "the server responded with the status code " + std::to_string(code) + " but did not return more information";
}

std::string go_transport_error(std::string_view te, std::string_view dialed_url, std::string_view display_url) {
  std::string prefix = "POST " + std::string(dialed_url) + ": ";
  std::string_view rest = te;
  if (starts_with(rest, prefix)) rest.remove_prefix(prefix.size());
  std::string host_port;
  try {
    auto u = http::Url::parse(dialed_url);
    host_port = join_host_port(u.host, u.port);
  } catch (const std::exception&) {
  }
  std::string why;
  auto timed_out = [](std::string_view s) { return s.find("timed out") != std::string_view::npos; };
  if (starts_with(rest, "resolving ")) {
    std::string_view r = rest.substr(10);
    auto colon = r.find(": ");
    std::string host(r.substr(0, colon));
    why = "dial tcp: lookup " + host + ": no such host";
  } else if (starts_with(rest, "dial tcp ")) {
    auto colon = rest.find(": ", 9);
    std::string_view detail = colon == std::string_view::npos ? rest : rest.substr(colon + 2);
    if (timed_out(detail)) why = "context deadline exceeded";
    else why = "dial tcp " + host_port + ": connect: " + lower_first(std::string(detail));
  } else if (starts_with(rest, "TLS handshake with ")) {
    auto colon = rest.find(": ", 19);
    std::string_view detail = colon == std::string_view::npos ? rest : rest.substr(colon + 2);
    if (timed_out(detail)) why = "context deadline exceeded";
    else if (detail.find("certificate verify failed") != std::string_view::npos)
      why = "tls: failed to verify certificate: " + std::string(detail);
    else why = "remote error: tls: " + std::string(detail);
  } else if (timed_out(rest)) {
    why = "context deadline exceeded";
  } else if (rest.find("end of stream") != std::string_view::npos || rest.find("End of file") != std::string_view::npos ||
             rest.find("stream truncated") != std::string_view::npos) {
    why = "EOF";
  } else {
    why = std::string(rest);
  }
  return "Post " + quoted(display_url) + ": " + why;
}

WebhookClient::WebhookClient(storage::Store& store) : store_(store) {}
WebhookClient::~WebhookClient() = default;

CallTarget WebhookClient::resolve(const ClientConfig& cc, std::chrono::seconds timeout) const {
  CallTarget t;
  std::string query = "?timeout=" + go_duration(timeout);
  if (cc.service) {
    const auto& s = *cc.service;
    std::string path = clean_path(s.path);
    t.server_name = s.name + "." + s.ns + ".svc";
    t.host_header = join_host_port(t.server_name, s.port);
    t.display_url = "https://" + t.host_header + path + query;

    auto svc = store_.get("services", s.ns, s.name);
    if (!svc) throw resolve_error(t.display_url, "service " + quoted(s.name) + " not found");
    const json::Value& sv = *svc.value;
    const json::Value* svc_port = service_port(sv, s.port);
    if (!svc_port)
      throw resolve_error(t.display_url, "no service port " + std::to_string(s.port) + " found for service " + quoted(s.name));
    std::string type(json::get_string(sv, {"spec", "type"}, "ClusterIP"));
    if (type == "ExternalName") {
      // No cluster network here: an ExternalName service is dialled at its external name, as
      // kube-apiserver's cluster-IP resolver does.
      t.dial_url = "https://" + join_host_port(json::get_string(sv, {"spec", "externalName"}), s.port) + path + query;
      return t;
    }
    if (type != "ClusterIP" && type != "NodePort" && type != "LoadBalancer")
      throw resolve_error(t.display_url, "unsupported service type " + quoted(type));
    auto eps = store_.get("endpoints", s.ns, s.name);
    if (!eps) throw resolve_error(t.display_url, "endpoints " + quoted(s.name) + " not found");
    std::string_view port_name = json::get_string(*svc_port, {"name"});
    if (auto addresses = endpoint_addresses(*eps.value, port_name); !addresses.empty()) {
      const auto& e = addresses.front();
      t.dial_url = "https://" + join_host_port(e.ip, static_cast<int>(e.port)) + path + query;
      return t;
    }
    throw resolve_error(t.display_url, "no endpoints available for service " + quoted(s.name));
  }
  if (cc.url.empty()) throw CallError(CallError::Kind::Config, "webhook configuration must have either service or URL");
  // Query and fragment are not part of a webhook URL (the API rejects them); the path is cleaned.
  std::string base = cc.url.substr(0, cc.url.find_first_of("?#"));
  try {
    auto u = http::Url::parse(base);
    if (u.scheme != "https" && u.scheme != "http") throw std::invalid_argument("unsupported scheme " + quoted(u.scheme));
  } catch (const std::exception& e) {
    throw CallError(CallError::Kind::Config, "Unparsable URL: " + std::string(e.what()));
  }
  auto authority_end = base.find('/', base.find("://") + 3);
  std::string origin = base.substr(0, authority_end);
  std::string path = authority_end == std::string::npos ? std::string() : base.substr(authority_end);
  t.display_url = origin + clean_path(path) + query;
  t.dial_url = t.display_url;
  return t;
}

std::shared_ptr<http::Client> WebhookClient::client_for(const std::string& ca_pem, const std::string& server_name,
                                                        std::chrono::seconds timeout) {
  auto make = [&] {
    http::ClientOptions o;
    o.tls.ca_pem = ca_pem;
    o.tls.server_name = server_name;
    o.connect_timeout = timeout;
    o.max_idle_per_host = 4;
    o.body_limit = 64 * 1024 * 1024;
    try {
      return std::make_shared<http::Client>(o);
    } catch (const std::exception&) {
      throw CallError(CallError::Kind::Config, "unable to load root certificates: unable to parse bytes as PEM block");
    }
  };
  // The client builds its TLS context lazily when it trusts the system roots; such clients are
  // not shared between threads.
  if (ca_pem.empty()) return make();
  std::string key = ca_pem + '\x1f' + server_name + '\x1f' + std::to_string(timeout.count());
  std::lock_guard<std::mutex> l(mu_);
  auto it = clients_.find(key);
  if (it != clients_.end()) return it->second;
  auto c = make();
  clients_.emplace(std::move(key), c);
  return c;
}

std::string WebhookClient::post(const ClientConfig& cc, std::string_view body, std::chrono::seconds timeout) {
  if (!cc.ca_error.empty()) throw CallError(CallError::Kind::Config, cc.ca_error);
  CallTarget t = resolve(cc, timeout);
  auto client = client_for(cc.ca_pem, t.server_name, timeout);
  http::Headers h{{"Content-Type", "application/json"}, {"Accept", "application/json, */*"}};
  if (!t.host_header.empty()) h.set("Host", t.host_header);
  http::Response r;
  try {
    r = client->request("POST", t.dial_url, h, body, timeout);
  } catch (const http::TransportError& e) {
    throw CallError(CallError::Kind::Transport, go_transport_error(e.what(), t.dial_url, t.display_url));
  } catch (const std::exception& e) {
    throw CallError(CallError::Kind::Transport, "Post " + quoted(t.display_url) + ": " + e.what());
  }
  if (r.status < 200 || r.status > 206) {
    // A Status body (kind Status, status Failure) is the error; anything else gets the generic text.
    if (auto v = json::try_parse(r.body); v && v->is_object() && json::get_string(*v, {"kind"}) == "Status" &&
                                           json::get_string(*v, {"status"}) == "Failure") {
      throw CallError(CallError::Kind::Transport, std::string(json::get_string(*v, {"message"})));
    }
    std::string server_message = "unknown";
    if (is_text(r)) server_message = trim(std::string_view(r.body).substr(0, kMaxUnstructuredResponseText));
    throw CallError(CallError::Kind::Transport, generic_server_response_message(r.status, server_message));
  }
  if (r.body.empty()) {
    throw CallError(CallError::Kind::Transport, "0-length response with status code: " + std::to_string(r.status) +
                                                    " and content type: " +
                                                    std::string(r.headers.get_or("Content-Type", "")));
  }
  return std::move(r.body);
}

}  // namespace capstan::apiserver::admission
