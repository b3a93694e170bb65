#include "e2e/differential/target.h"

#include "runtime/client/config.h"

#include <thread>

namespace capstan::e2e::diff {

Target::Target(std::string name, const std::string& kubeconfig) : name_(std::move(name)), kubeconfig_(kubeconfig) {
  auto cfg = client::load_kubeconfig(kubeconfig);
  server_ = cfg.server;
  http::ClientOptions admin;
  admin.tls.ca_pem = cfg.ca_pem;
  admin.tls.cert_pem = cfg.client_cert_pem;
  admin.tls.key_pem = cfg.client_key_pem;
  admin_ = std::make_unique<http::Client>(admin);
  http::ClientOptions anon;
  anon.tls.ca_pem = cfg.ca_pem;
  anonymous_ = std::make_unique<http::Client>(anon);
}

http::Headers Target::headers_of(const Request& r) const {
  http::Headers h;
  if (!r.accept.empty()) h.set("Accept", r.accept);
  if (!r.body.empty() || r.method == "POST" || r.method == "PUT" || r.method == "PATCH") h.set("Content-Type", r.content_type);
  if (!r.bearer.empty()) h.set("Authorization", "Bearer " + r.bearer);
  h.set("User-Agent", "capstan-differential/1.0");
  for (const auto& [k, v] : r.headers) h.add(k, v);
  return h;
}

http::Client& Target::client_for(const Request& r) { return r.bearer.empty() ? *admin_ : *anonymous_; }

http::Response Target::send(const Request& r, std::chrono::milliseconds timeout) {
  return client_for(r).request(r.method, server_ + r.path, headers_of(r), r.body, timeout);
}

Target::WatchLines Target::watch(const Request& r, std::chrono::milliseconds max) {
  WatchLines out;
  std::string pending;
  http::Cancellation cancel;
  std::thread timer([&] {
    auto until = std::chrono::steady_clock::now() + max;
    while (!cancel.cancelled() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    cancel.cancel();
  });
  try {
    auto res = client_for(r).stream(
        r.method, server_ + r.path, headers_of(r), r.body,
        [&](int status, const http::Headers&) {
          out.status = status;
          return status == 200;
        },
        [&](std::string_view data) {
          pending.append(data);
          for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
            if (nl > 0) out.lines.push_back(pending.substr(0, nl));
            pending.erase(0, nl + 1);
          }
          return true;
        },
        &cancel, max + std::chrono::seconds(5));
    out.status = res.status;
    out.error_body = res.error_body;
  } catch (const http::Cancelled&) {
    // `max` passed: what arrived so far is the answer.
  }
  cancel.cancel();
  timer.join();
  if (!pending.empty()) out.lines.push_back(pending);
  return out;
}

}  // namespace capstan::e2e::diff
