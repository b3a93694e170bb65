#include "controllers/certificates/issuers/acme_http01.h"

#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/group.h"
#include "controllers/certificates/acme/solver.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/issuers/lookup.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/http/client.h"
#include "runtime/meta/hash.h"
#include "runtime/meta/object.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace capstan::certificates {
namespace {

json::Object solver_labels(const SolverObjectsInput& in) {
  return json::Object{{kHttp01SolverLabel, "true"},
                      {kHttp01RequestLabel, in.request_uid},
                      {kHttp01TokenLabel, token_label_value(in.token)}};
}

json::Array owner_refs(const SolverObjectsInput& in) {
  return json::Array{json::Object{{"apiVersion", apis::certs::v1::kApiVersion},
                                  {"kind", apis::certs::v1::kCertificateRequestKind},
                                  {"name", in.request_name},
                                  {"uid", in.request_uid},
                                  {"controller", true},
                                  {"blockOwnerDeletion", true}}};
}

std::string selector_for(const SolverObjectsInput& in) {
  return std::string(kHttp01SolverLabel) + "=true," + std::string(kHttp01RequestLabel) + "=" + in.request_uid + "," +
         std::string(kHttp01TokenLabel) + "=" + token_label_value(in.token);
}

}  // namespace

std::vector<acme::Http01Solver::Published> published_tokens(const json::Value& request) {
  constexpr std::size_t kMaxTokens = 100, kMaxField = 1024;
  std::vector<acme::Http01Solver::Published> out;
  std::string_view text = meta::annotation(request, annotation::kAcmeHttp01Tokens);
  if (text.empty() || text.size() > kMaxTokens * 3 * kMaxField) return out;
  json::Value v;
  try {
    v = json::parse(text, "annotation " + std::string(annotation::kAcmeHttp01Tokens));
  } catch (const std::exception&) {
    return out;
  }
  if (!v.is_object() || v.get_object().size() > kMaxTokens) return out;
  for (const auto& kv : v.get_object()) {
    std::string_view ka = json::get_string(kv.value(), {"keyAuthorization"});
    std::string_view domain = json::get_string(kv.value(), {"domain"});
    if (kv.key().size() > kMaxField || ka.empty() || ka.size() > kMaxField || domain.size() > kMaxField) return {};
    out.push_back({std::string(kv.key()), std::string(ka), std::string(domain)});
  }
  return out;
}

std::vector<acme::Http01Solver::Published> tokens_of_account(std::vector<acme::Http01Solver::Published> tokens,
                                                             std::string_view thumbprint) {
  if (thumbprint.empty()) return {};
  std::erase_if(tokens, [&](const acme::Http01Solver::Published& t) {
    return t.key_authorization.size() != t.token.size() + 1 + thumbprint.size() || !t.key_authorization.starts_with(t.token + ".") ||
           !t.key_authorization.ends_with(thumbprint);
  });
  return tokens;
}

std::vector<acme::Http01Solver::Published> trusted_published_tokens(const Env& env, const json::Value& request) {
  auto tokens = published_tokens(request);
  if (tokens.empty()) return tokens;
  try {
    const auto cr = v1::CertificateRequest::from_json(request);
    auto issuer = find_issuer(env, cr.spec.issuer_ref, cr.namespace_());
    if (!issuer || !issuer->issuer.spec.acme || !issuer->issuer.status.acme) return {};
    return tokens_of_account(std::move(tokens), issuer->issuer.status.acme->last_private_key_hash);
  } catch (const std::exception&) {
    return {};
  }
}

void publish_tokens(Env& env, json::Value& cr_obj, const std::vector<acme::Http01Solver::Published>& tokens) {
  json::Object map;
  for (const auto& t : tokens) map[t.token] = json::Object{{"keyAuthorization", t.key_authorization}, {"domain", t.domain}};
  std::string text = tokens.empty() ? std::string() : json::serialize(json::Value(std::move(map)));
  if (meta::annotation(cr_obj, annotation::kAcmeHttp01Tokens) == text) return;
  json::Value value = text.empty() ? json::Value(nullptr) : json::Value(text);
  json::Value patch = json::Object{{"metadata", json::Object{{"annotations", json::Object{{annotation::kAcmeHttp01Tokens, value}}}}}};
  json::Value patched = env.client.patch(kCertificateRequestType.gvr, meta::namespace_of(cr_obj), meta::name_of(cr_obj),
                                         client::PatchType::Merge, json::serialize(patch));
  if (const auto* md = json::get_object(patched, {"metadata"})) cr_obj.get_object()["metadata"] = *md;
}

std::optional<std::string> http01_self_check(std::string_view address, std::string_view domain, std::string_view token,
                                             std::string_view key_authorization) {
  static http::Client client([] {
    http::ClientOptions o;
    o.connect_timeout = std::chrono::seconds(5);
    o.max_idle_per_host = 0;
    o.body_limit = 64 * 1024;
    return o;
  }());
  std::string host = std::string(domain);
  std::string url = "http://" + (address.empty() ? host : std::string(address)) + acme::Http01Solver::path_for(token);
  try {
    auto r = client.request("GET", url, {{"Host", host}}, {}, std::chrono::seconds(10));
    if (r.status != 200)
      return "wrong status code '" + std::to_string(r.status) + "', expected '200' (GET http://" + host +
             acme::Http01Solver::path_for(token) + ")";
    std::string_view body = r.body;
    while (!body.empty() && (body.back() == '\n' || body.back() == '\r' || body.back() == ' ')) body.remove_suffix(1);
    if (body != key_authorization)
      return "did not get expected response when querying endpoint, expected \"" + std::string(key_authorization) + "\" but got: " +
             std::string(body.substr(0, 128));
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string("GET http://") + host + acme::Http01Solver::path_for(token) + ": " + e.what();
  }
}

std::string token_label_value(std::string_view token) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(meta::fnv1a64(token)));
  return buf;
}

json::Value solver_service(const SolverObjectsInput& in) {
  json::Object meta{{"generateName", "cm-acme-http-solver-"},
                    {"namespace", in.ns},
                    {"labels", solver_labels(in)},
                    {"annotations", json::Object{{"acme.certs.capstan.dev/http-domain", in.domain}}},
                    {"ownerReferences", owner_refs(in)}};
  std::string type = "ExternalName";
  return json::Object{{"apiVersion", "v1"},
                      {"kind", "Service"},
                      {"metadata", std::move(meta)},
                      {"spec", json::Object{{"type", type},
                                            {"externalName", in.target_host},
                                            {"ports", json::Array{json::Object{{"name", "http"},
                                                                               {"port", in.target_port},
                                                                               {"protocol", "TCP"},
                                                                               {"targetPort", in.target_port}}}}}}};
}

json::Value solver_ingress(const SolverObjectsInput& in, std::string_view service_name) {
  json::Object annotations{{"nginx.ingress.kubernetes.io/whitelist-source-range", "0.0.0.0/0,::/0"},
                           {"acme.certs.capstan.dev/http-domain", in.domain}};
  if (in.ingress.class_ && !in.ingress.class_->empty()) annotations["kubernetes.io/ingress.class"] = *in.ingress.class_;
  json::Object labels = solver_labels(in);
  if (in.ingress.ingress_template) {
    if (const auto* l = json::get_object(*in.ingress.ingress_template, {"metadata", "labels"}))
      for (const auto& kv : *l) labels[kv.key()] = kv.value();
    if (const auto* a = json::get_object(*in.ingress.ingress_template, {"metadata", "annotations"}))
      for (const auto& kv : *a) annotations[kv.key()] = kv.value();
  }
  json::Object path{{"path", acme::Http01Solver::path_for(in.token)},
                    {"pathType", "ImplementationSpecific"},
                    {"backend", json::Object{{"service", json::Object{{"name", service_name},
                                                                      {"port", json::Object{{"number", in.target_port}}}}}}}};
  json::Object spec{{"rules", json::Array{json::Object{{"host", in.domain},
                                                        {"http", json::Object{{"paths", json::Array{std::move(path)}}}}}}}};
  if (in.ingress.ingress_class_name && !in.ingress.ingress_class_name->empty()) spec["ingressClassName"] = *in.ingress.ingress_class_name;
  return json::Object{{"apiVersion", "networking.k8s.io/v1"},
                      {"kind", "Ingress"},
                      {"metadata", json::Object{{"generateName", "cm-acme-http-solver-"},
                                                {"namespace", in.ns},
                                                {"labels", std::move(labels)},
                                                {"annotations", std::move(annotations)},
                                                {"ownerReferences", owner_refs(in)}}},
                      {"spec", std::move(spec)}};
}

json::Value with_challenge_path(json::Value ingress, const SolverObjectsInput& in, std::string_view service_name) {
  const std::string path = acme::Http01Solver::path_for(in.token);
  json::Object entry{{"path", path},
                     {"pathType", "ImplementationSpecific"},
                     {"backend", json::Object{{"service", json::Object{{"name", service_name},
                                                                       {"port", json::Object{{"number", in.target_port}}}}}}}};
  json::Value& rules = json::ensure_object(ingress, {"spec"})["rules"];
  if (!rules.is_array()) rules = json::Array{};
  for (auto& rule : rules.get_array()) {
    if (json::get_string(rule, {"host"}) != in.domain) continue;
    json::Value& paths = json::ensure_object(rule, {"http"})["paths"];
    if (!paths.is_array()) paths = json::Array{};
    for (const auto& p : paths.get_array())
      if (json::get_string(p, {"path"}) == path) return ingress;  // there already
    paths.get_array().push_back(std::move(entry));
    return ingress;
  }
  rules.get_array().push_back(json::Object{{"host", in.domain}, {"http", json::Object{{"paths", json::Array{std::move(entry)}}}}});
  return ingress;
}

bool remove_solver_paths(json::Value& ingress, const std::set<std::string, std::less<>>& services) {
  json::Value* rules = json::find(ingress, {"spec", "rules"});
  if (!rules || !rules->is_array()) return false;
  bool changed = false;
  auto& list = rules->get_array();
  for (std::size_t i = list.size(); i-- > 0;) {
    json::Value* paths = json::find(list[i], {"http", "paths"});
    if (!paths || !paths->is_array()) continue;
    auto& p = paths->get_array();
    const std::size_t before = p.size();
    p.erase(std::remove_if(p.begin(), p.end(),
                           [&](const json::Value& v) {
                             return json::get_string(v, {"path"}).starts_with(acme::Http01Solver::kPathPrefix) &&
                                    services.contains(json::get_string(v, {"backend", "service", "name"}));
                           }),
            p.end());
    if (p.size() == before) continue;
    changed = true;
    if (p.empty()) list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));  // a rule that held only challenges
  }
  return changed;
}

namespace {

// Reads, changes and writes an Ingress, again on a conflict (someone else edited it meanwhile).
template <typename Change>
void edit_ingress(Env& env, std::string_view ns, std::string_view name, Change&& change) {
  for (int attempt = 0;; ++attempt) {
    json::Value live = env.client.get(kIngressType.gvr, ns, name);
    if (!change(live)) return;
    try {
      env.client.update(kIngressType.gvr, ns, live);
      return;
    } catch (const client::ApiError& e) {
      if (!client::is_conflict(e) || attempt == 4) throw;
    }
  }
}

}  // namespace

void ensure_solver_objects(Env& env, const SolverObjectsInput& in) {
  client::ListOptions lo;
  lo.label_selector = selector_for(in);
  std::string service_name;
  auto services = env.client.list(kServiceType.gvr, in.ns, lo);
  if (!services.items.empty()) {
    service_name = std::string(json::get_string(services.items.front(), {"metadata", "name"}));
  } else {
    auto created = env.client.create(kServiceType.gvr, in.ns, solver_service(in));
    service_name = std::string(json::get_string(created, {"metadata", "name"}));
  }
  if (!in.ingress.name.empty()) {
    // Edit in place: the challenge path goes into the user's Ingress (its controller, address and
    // annotations stay as they are) and is taken out when the order ends.
    try {
      edit_ingress(env, in.ns, in.ingress.name, [&](json::Value& live) {
        json::Value edited = with_challenge_path(live, in, service_name);
        if (edited == live) return false;
        live = std::move(edited);
        return true;
      });
    } catch (const client::ApiError& e) {
      if (!client::is_not_found(e)) throw;
      throw std::runtime_error("the Ingress \"" + in.ingress.name + "\" named by http01.ingress.name does not exist in namespace \"" +
                               in.ns + "\"");
    }
    return;
  }
  auto ingresses = env.client.list(kIngressType.gvr, in.ns, lo);
  if (ingresses.items.empty()) env.client.create(kIngressType.gvr, in.ns, solver_ingress(in, service_name));
}

void delete_solver_objects(Env& env, std::string_view ns, std::string_view request_uid, bool edited_in_place) {
  client::ListOptions lo;
  lo.label_selector = std::string(kHttp01SolverLabel) + "=true," + std::string(kHttp01RequestLabel) + "=" + std::string(request_uid);
  client::DeleteOptions d;
  d.ignore_not_found = true;
  // Challenge paths edited into Ingresses of the namespace (http01.ingress.name) go first: they
  // route to the Services deleted below.
  std::set<std::string, std::less<>> services;
  for (const auto& item : env.client.list(kServiceType.gvr, ns, lo).items) services.emplace(json::get_string(item, {"metadata", "name"}));
  if (edited_in_place && !services.empty())
    for (const auto& ingress : env.client.list(kIngressType.gvr, ns, {}).items) {
      if (meta::label(ingress, kHttp01SolverLabel) == "true") continue;  // ours: deleted whole below
      json::Value copy = ingress;
      if (!remove_solver_paths(copy, services)) continue;
      try {
        edit_ingress(env, ns, meta::name_of(ingress), [&](json::Value& live) { return remove_solver_paths(live, services); });
      } catch (const client::ApiError& e) {
        if (!client::is_not_found(e)) throw;
      }
    }
  for (const auto* gvr : {&kIngressType.gvr, &kServiceType.gvr})
    for (const auto& item : env.client.list(*gvr, ns, lo).items)
      env.client.remove(*gvr, ns, json::get_string(item, {"metadata", "name"}), d);
}

}  // namespace capstan::certificates
