#include "e2e/differential/session.h"

#include "e2e/differential/allowlist.h"

#include <stdexcept>

namespace capstan::e2e::diff {
namespace {

std::optional<json::Value> try_json(const std::string& body) {
  if (body.empty() || (body[0] != '{' && body[0] != '[')) return std::nullopt;
  return json::try_parse(body);
}

std::string status_text(int code) { return std::to_string(code); }

}  // namespace

std::vector<Case>& cases() {
  static std::vector<Case> all;
  return all;
}

RegisterCase::RegisterCase(const char* group, const char* name, void (*fn)(Session&)) { cases().push_back({group, name, fn}); }

Session::Session(Target& embedded, Target& kube, const TempDir& dir) : embedded_(embedded), kube_(kube) {
  kubectl_[0] = std::make_unique<Kubectl>(dir, embedded.kubeconfig());
  // The second kubectl needs its own HOME (discovery caches are per server).
  static std::unique_ptr<TempDir> kube_home;
  kube_home = std::make_unique<TempDir>("diff-kubectl-home");
  kubectl_[1] = std::make_unique<Kubectl>(*kube_home, kube.kubeconfig());
}

void Session::begin(const std::string& group, const std::string& name) {
  case_id_ = group + "/" + name;
  std::string ns = "diff-" + std::to_string(++namespaces_);
  set_both("ns", ns);
  setup({.method = "POST", .path = "/api/v1/namespaces", .body = R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + ns + "\"}}"});
  // What both servers' controllers publish in every namespace, so that lists of ConfigMaps do
  // not depend on which server's controller was quicker.
  wait_for("/api/v1/namespaces/{ns}/configmaps/kube-root-ca.crt");
}

void Session::fail(const std::string& error) {
  Result r;
  r.id = case_id_;
  r.error = error;
  results_.push_back(std::move(r));
}

void Session::set(const std::string& var, std::string embedded_value, std::string kube_value) {
  vars_[0][var] = std::move(embedded_value);
  vars_[1][var] = std::move(kube_value);
}

void Session::capture(const std::string& var, const Answer& a, json::Path path) {
  auto take = [&](const std::optional<json::Value>& v, const char* which) {
    if (!v) throw std::runtime_error("capture " + var + ": the " + which + " answer is not JSON");
    auto s = json::get_string(*v, path);
    if (s.empty()) throw std::runtime_error("capture " + var + ": nothing at the path in the " + which + " answer: " + json::serialize(*v).substr(0, 300));
    return std::string(s);
  };
  set(var, take(a.embedded, "embedded"), take(a.kube, "kube"));
}

std::string Session::subst(const std::string& text, int target) const {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '{') {
      auto close = text.find('}', i);
      if (close != std::string::npos) {
        auto it = vars_[target].find(text.substr(i + 1, close - i - 1));
        if (it != vars_[target].end()) {
          out += it->second;
          i = close + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

Answer Session::setup(Request r) {
  Answer a;
  for (int t = 0; t < 2; ++t) {
    Request rt = r;
    rt.path = subst(r.path, t);
    rt.body = subst(r.body, t);
    rt.bearer = subst(r.bearer, t);
    auto res = target(t).send(rt);
    if (res.status >= 400)
      throw std::runtime_error("setup " + r.method + " " + rt.path + " on " + target(t).name() + ": " + std::to_string(res.status) + " " +
                               res.body.substr(0, 400));
    (t == 0 ? a.embedded_status : a.kube_status) = res.status;
    (t == 0 ? a.embedded : a.kube) = try_json(res.body);
    (t == 0 ? a.embedded_text : a.kube_text) = res.body;
  }
  return a;
}

void Session::wait_for(const std::string& path, std::chrono::milliseconds timeout) {
  for (int t = 0; t < 2; ++t) {
    Request r{.path = subst(path, t)};
    eventually([&] { return target(t).send(r).status == 200; }, timeout, std::chrono::milliseconds(100));
  }
}

Answer Session::send(const std::string& label, Request r, const Compare& c) {
  Answer a;
  http::Response res[2];
  for (int t = 0; t < 2; ++t) {
    Request rt = r;
    rt.path = subst(r.path, t);
    rt.body = subst(r.body, t);
    rt.bearer = subst(r.bearer, t);
    for (auto& h : rt.headers) h.second = subst(h.second, t);
    res[t] = target(t).send(rt);
  }
  a.embedded_status = res[0].status;
  a.kube_status = res[1].status;
  a.embedded_text = res[0].body;
  a.kube_text = res[1].body;
  a.embedded = try_json(res[0].body);
  a.kube = try_json(res[1].body);

  Result out;
  out.id = case_id_ + "/" + label;
  out.embedded_status = a.embedded_status;
  out.kube_status = a.kube_status;
  out.embedded_body = a.embedded_text;
  out.kube_body = a.kube_text;
  if (a.embedded_status != a.kube_status)
    out.differences.push_back("status: embedded " + status_text(a.embedded_status) + ", kube " + status_text(a.kube_status));
  for (const auto& h : c.headers) {
    std::string he = normalize_text(std::string(res[0].headers.get_or(h, "")), c.masks);
    std::string hk = normalize_text(std::string(res[1].headers.get_or(h, "")), c.masks);
    if (he != hk) out.differences.push_back("header " + h + ": embedded \"" + he + "\", kube \"" + hk + "\"");
  }
  if (c.body) {
    if (a.embedded && a.kube) {
      json::Value e = *a.embedded, k = *a.kube;
      normalize(e, c.masks);
      normalize(k, c.masks);
      for (auto& d : differences(e, k)) out.differences.push_back(std::move(d));
    } else {
      std::string e = normalize_text(a.embedded_text, c.masks), k = normalize_text(a.kube_text, c.masks);
      if (e != k) out.differences.push_back("body: embedded \"" + e.substr(0, 300) + "\", kube \"" + k.substr(0, 300) + "\"");
    }
  }
  add(std::move(out));
  return a;
}

Answer Session::watch(const std::string& label, Request r, std::chrono::milliseconds max, const Compare& c) {
  Answer a;
  json::Array events[2];
  for (int t = 0; t < 2; ++t) {
    Request rt = r;
    rt.path = subst(r.path, t);
    auto w = target(t).watch(rt, max);
    (t == 0 ? a.embedded_status : a.kube_status) = w.status;
    for (const auto& line : w.lines) {
      auto v = json::try_parse(line);
      events[t].push_back(v ? *v : json::Value(line));
    }
    if (!w.error_body.empty()) events[t].push_back(try_json(w.error_body).value_or(json::Value(w.error_body)));
  }
  a.embedded = json::Value(events[0]);
  a.kube = json::Value(events[1]);
  record(label, a.embedded_status, a.kube_status, *a.embedded, *a.kube, c);
  return a;
}

Answer Session::kubectl(const std::string& label, std::vector<std::string> args, const std::string& stdin_text, const Compare& c) {
  Answer a;
  RunResult rr[2];
  for (int t = 0; t < 2; ++t) {
    std::vector<std::string> at;
    for (const auto& x : args) at.push_back(subst(x, t));
    rr[t] = (*kubectl_[t])(at, subst(stdin_text, t));
  }
  a.embedded_status = rr[0].code;
  a.kube_status = rr[1].code;
  a.embedded_text = rr[0].out;
  a.kube_text = rr[1].out;
  Result out;
  out.id = case_id_ + "/" + label;
  out.embedded_body = rr[0].out + rr[0].err;
  out.kube_body = rr[1].out + rr[1].err;
  out.embedded_status = rr[0].code;
  out.kube_status = rr[1].code;
  if (rr[0].code != rr[1].code) out.differences.push_back("exit code: embedded " + std::to_string(rr[0].code) + ", kube " + std::to_string(rr[1].code));
  for (auto [name, e, k] : {std::tuple{"stdout", rr[0].out, rr[1].out}, std::tuple{"stderr", rr[0].err, rr[1].err}}) {
    e = normalize_text(e, c.masks);
    k = normalize_text(k, c.masks);
    if (e != k) out.differences.push_back(std::string(name) + ": embedded \"" + e.substr(0, 400) + "\", kube \"" + k.substr(0, 400) + "\"");
  }
  add(std::move(out));
  return a;
}

void Session::record(const std::string& label, int embedded_status, int kube_status, json::Value embedded, json::Value kube,
                     const Compare& c) {
  Result out;
  out.id = case_id_ + "/" + label;
  out.embedded_status = embedded_status;
  out.kube_status = kube_status;
  out.embedded_body = json::serialize(embedded);
  out.kube_body = json::serialize(kube);
  if (embedded_status != kube_status)
    out.differences.push_back("status: embedded " + status_text(embedded_status) + ", kube " + status_text(kube_status));
  normalize(embedded, c.masks);
  normalize(kube, c.masks);
  for (auto& d : differences(embedded, kube)) out.differences.push_back(std::move(d));
  add(std::move(out));
}

void Session::add(Result r) {
  if (!r.differences.empty()) r.allowed_because = allowed(r);
  if (r.differences.empty()) r.embedded_body = r.kube_body = "";
  results_.push_back(std::move(r));
}

}  // namespace capstan::e2e::diff
