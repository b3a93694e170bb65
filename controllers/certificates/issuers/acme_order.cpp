#include "controllers/certificates/issuers/acme_order.h"

#include "controllers/certificates/acme/client.h"
#include "controllers/certificates/acme/solver.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/issuers/acme_account.h"
#include "controllers/certificates/issuers/acme_dns01.h"
#include "controllers/certificates/issuers/acme_http01.h"
#include "controllers/certificates/issuers/lookup.h"
#include "controllers/certificates/issuers/solver_selection.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/meta/object.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/error.h"

#include <algorithm>

namespace capstan::certificates {
namespace {

std::map<std::string, std::string> labels_of(const json::Value& obj) {
  std::map<std::string, std::string> out;
  if (const auto* l = json::get_object(obj, {"metadata", "labels"}))
    for (const auto& kv : *l)
      if (kv.value().is_string()) out.emplace(std::string(kv.key()), std::string(kv.value().get_string()));
  return out;
}

std::vector<acme::Identifier> identifiers_of(const pki::CertificateRequest& csr) {
  std::vector<acme::Identifier> ids;
  const auto& f = csr.fields();
  auto add_dns = [&](const std::string& n) {
    if (n.empty()) return;
    for (const auto& i : ids)
      if (i.type == "dns" && i.value == n) return;
    ids.push_back(acme::Identifier::dns(n));
  };
  add_dns(f.subject.common_name);
  for (const auto& n : f.dns_names) add_dns(n);
  for (const auto& ip : f.ip_addresses) ids.push_back(acme::Identifier::ip(ip));
  return ids;
}

struct Ctx {
  Env& env;
  const v1::CertificateRequest& cr;
  json::Value& obj;
  const v1::AcmeIssuer& acme;
  const log::Logger& log;
  acme::Client& client;
  acme::Account account;
  std::string secrets_namespace;  // the issuer's Secrets (DNS-01 TSIG keys)
};

std::vector<std::string> offered_types(const acme::Authorization& authz) {
  std::vector<std::string> out;
  for (const auto& ch : authz.challenges) out.push_back(ch.type);
  return out;
}

// The authorization's name as solver selectors see it ("*.example.com" for a wildcard one).
std::string selector_name(const acme::Authorization& authz) {
  return authz.wildcard ? "*." + authz.identifier.value : authz.identifier.value;
}

struct Chosen {
  v1::AcmeChallengeSolver solver;
  const acme::Challenge* challenge;
};

std::optional<Chosen> choose(const Ctx& c, const acme::Authorization& authz) {
  auto solver = select_solver(c.acme, selector_name(authz), labels_of(c.obj), offered_types(authz));
  if (!solver) return std::nullopt;
  const acme::Challenge* ch = authz.find_challenge(solver_type(*solver));
  if (!ch) return std::nullopt;
  return Chosen{std::move(*solver), ch};
}

Dns01Record dns01_record(const Ctx& c, const Chosen& chosen, const acme::Authorization& authz) {
  return Dns01Record{*chosen.solver.dns01, c.secrets_namespace, selector_name(authz),
                     acme::dns01_txt_value(acme::key_authorization(chosen.challenge->token, c.account.key.jwk()))};
}

// Serves the token here and, with an ingress solver, makes the challenge's Service and Ingress.
acme::Http01Solver::Published present_http01(Ctx& c, const Chosen& chosen, const acme::Authorization& authz) {
  const std::string& domain = authz.identifier.value;
  const acme::Challenge& ch = *chosen.challenge;
  acme::Http01Solver::Published token{ch.token, acme::key_authorization(ch.token, c.account.key.jwk()), domain};
  if (c.env.solver) c.env.solver->add(token.token, token.key_authorization, domain);
  if (chosen.solver.http01->ingress) {
    SolverObjectsInput in;
    in.ns = std::string(c.cr.namespace_());
    in.request_name = std::string(c.cr.name());
    in.request_uid = std::string(meta::uid_of(c.obj));
    in.domain = domain;
    in.token = ch.token;
    in.ingress = *chosen.solver.http01->ingress;
    in.target_host = c.env.options.acme_solver_service + "." + c.env.options.cluster_resource_namespace + ".svc.cluster.local";
    in.target_port = c.env.options.acme_solver_service_port;
    ensure_solver_objects(c.env, in);
  }
  return token;
}

// Presents every pending authorization's challenge with the solver selected for it and accepts
// it once the CA can see it: a DNS-01 record answered by its nameserver, an HTTP-01 token
// published for every replica and answered to the self check. A Failed outcome when no solver
// fits; a Pending one while something is not visible yet or cannot be published (the message
// says why; the next reconcile retries).
std::optional<SignOutcome> present_challenges(Ctx& c, const acme::Order& order) {
  // The outcome of the first name (in name order) still waiting, so that the status message
  // does not change with the order the CA lists the authorizations in.
  std::optional<std::pair<std::string, SignOutcome>> waiting;
  auto wait = [&](const std::string& name, SignOutcome outcome) {
    if (!waiting || name < waiting->first) waiting.emplace(name, std::move(outcome));
  };
  struct Ready {
    std::string name;
    acme::Challenge challenge;
    std::optional<acme::Http01Solver::Published> http01;  // to self-check first
  };
  std::vector<Ready> ready;
  std::vector<acme::Http01Solver::Published> published;
  for (const auto& url : order.authorizations) {
    const auto authz = c.client.get_authorization(c.account, url);
    if (authz.status != acme::status::kPending) continue;
    const std::string name = selector_name(authz);
    const auto chosen = choose(c, authz);
    if (!chosen)
      return SignOutcome::failed("SolverNotFound",
                                 "Failed to determine a valid solver configuration for the set of domains on the Order: "
                                 "no configured challenge solvers can be used for this challenge (" + name + ")");
    if (chosen->solver.dns01) {
      try {
        if (!present_dns01(c.env, dns01_record(c, *chosen, authz))) {
          const auto& dns01 = *chosen->solver.dns01;
          const std::string by = dns01.rfc2136 ? dns01.rfc2136->nameserver : std::string("the recursive nameservers");
          wait(name, SignOutcome::pending("DNS01Propagating",
                                          "Waiting for the DNS-01 TXT record " + dns01_record_name(name) + " to be answered by " + by,
                                          c.env.options.acme_requeue));
          continue;
        }
      } catch (const std::exception& e) {
        c.log.warn("could not present a DNS-01 challenge", {{"domain", name}, {"error", e.what()}});
        wait(name, SignOutcome::pending("DNS01Error", e.what(), c.env.options.issuer_retry_interval));
        continue;
      }
      ready.push_back({name, *chosen->challenge, std::nullopt});
    } else {
      try {
        published.push_back(present_http01(c, *chosen, authz));
      } catch (const client::ApiError& e) {
        throw;  // the API server's own trouble: the reconcile's error and backoff
      } catch (const std::exception& e) {
        c.log.warn("could not present an HTTP-01 challenge", {{"domain", name}, {"error", e.what()}});
        wait(name, SignOutcome::pending("HTTP01Error", e.what(), c.env.options.issuer_retry_interval));
        continue;
      }
      ready.push_back({name, *chosen->challenge, published.back()});
    }
  }
  if (!published.empty()) publish_tokens(c.env, c.obj, published);
  for (const auto& r : ready) {
    if (r.challenge.status != acme::status::kPending) continue;  // accepted already
    if (r.http01 && c.env.options.acme_http01_self_check) {
      const auto& t = *r.http01;
      if (auto why = http01_self_check(c.env.options.acme_http01_self_check_address, t.domain, t.token, t.key_authorization)) {
        wait(r.name, SignOutcome::pending("HTTP01Propagating", "Waiting for HTTP-01 challenge propagation: " + *why,
                                          c.env.options.acme_requeue));
        continue;
      }
    }
    c.client.accept_challenge(c.account, r.challenge.url);
    c.log.info("accepted challenge", {{"domain", r.name}, {"type", r.challenge.type}});
  }
  if (!waiting) return std::nullopt;
  return std::move(waiting->second);
}

// Stops serving the order's tokens, withdraws its DNS-01 records and removes the solver objects.
void clean_up(Ctx& c, const acme::Order& order) {
  bool edited_in_place = false;  // a challenge path went into an Ingress of the user's
  for (const auto& url : order.authorizations) {
    try {
      auto authz = c.client.get_authorization(c.account, url);
      if (c.env.solver)
        for (const auto& ch : authz.challenges)
          if (ch.type == acme::kHttp01) c.env.solver->remove(ch.token);
      auto chosen = choose(c, authz);
      if (chosen && chosen->solver.http01 && chosen->solver.http01->ingress && !chosen->solver.http01->ingress->name.empty())
        edited_in_place = true;
      if (chosen && chosen->solver.dns01) clean_up_dns01(c.env, dns01_record(c, *chosen, authz));
    } catch (const std::exception& e) {
      edited_in_place = true;  // its solver is not known: look through the Ingresses too
      c.log.warn("could not clean up an authorization's challenge", {{"authorization", url}, {"error", e.what()}});
    }
  }
  delete_solver_objects(c.env, c.cr.namespace_(), meta::uid_of(c.obj), edited_in_place);
  try {
    publish_tokens(c.env, c.obj, {});
  } catch (const std::exception& e) {
    c.log.warn("could not remove the published HTTP-01 tokens", {{"error", e.what()}});
  }
}

acme::PollOptions short_poll(const Env& env) {
  acme::PollOptions p;
  p.timeout = env.options.acme_poll_timeout;
  p.interval = std::chrono::milliseconds(100);
  p.max_interval = std::chrono::milliseconds(500);
  return p;
}

}  // namespace

SignOutcome sign_acme(Env& env, const v1::CertificateRequest& cr, json::Value& cr_obj, const v1::Issuer& issuer,
                      const log::Logger& log) {
  const auto& acme_spec = *issuer.spec.acme;
  std::string why;
  auto account = load_account(env, issuer, &why);
  if (!account) return SignOutcome::pending("AccountNotReady", "Waiting for the ACME account: " + why, env.options.issuer_retry_interval);
  pki::CertificateRequest csr;
  try {
    csr = pki::CertificateRequest::parse(cr.spec.request);
  } catch (const pki::PkiError& e) {
    return SignOutcome::failed("InvalidCSR", std::string("Failed to decode CSR in spec.request: ") + e.what());
  }
  auto ids = identifiers_of(csr);
  if (ids.empty()) return SignOutcome::failed("InvalidOrder", "The CSR names no DNS name or IP address to order a certificate for");

  auto client = env.acme_clients.get(acme_spec.server, acme_spec.ca_bundle, acme_spec.skip_tls_verify);
  Ctx c{env, cr, cr_obj, acme_spec, log, *client, *account, resource_namespace(env, issuer)};
  std::string order_url(meta::annotation(cr_obj, annotation::kAcmeOrderUrl));
  acme::Order order;
  try {
    if (order_url.empty()) {
      order = client->new_order(*account, ids);
      json::Value patch = json::Object{
          {"metadata", json::Object{{"annotations", json::Object{{annotation::kAcmeOrderUrl, order.url}}}}}};
      json::Value patched =
          env.client.patch(kCertificateRequestType.gvr, cr.namespace_(), cr.name(), client::PatchType::Merge, json::serialize(patch));
      if (const auto* md = json::get_object(patched, {"metadata"})) cr_obj.get_object()["metadata"] = *md;
      log.info("created ACME order", {{"order", order.url}});
    } else {
      order = client->get_order(*account, order_url);
    }
    if (order.status == acme::status::kPending) {
      if (auto outcome = present_challenges(c, order)) {
        if (outcome->kind == SignOutcome::Kind::Failed) clean_up(c, order);
        return *outcome;
      }
      order = client->poll_order(*account, order.url, short_poll(env));
    }
    if (order.status == acme::status::kReady) {
      order = client->finalize(*account, order, csr.to_der());
      if (order.status == acme::status::kProcessing) order = client->poll_order(*account, order.url, short_poll(env));
    }
    if (order.status == acme::status::kValid) {
      std::string pem = client->download_certificate(*account, order.certificate, acme_spec.preferred_chain);
      clean_up(c, order);
      log.info("ACME order valid; certificate downloaded", {{"order", order.url}});
      return SignOutcome::issued(pem, "");
    }
    if (order.status == acme::status::kInvalid) {
      auto err = client->order_failure(*account, order);
      clean_up(c, order);
      return SignOutcome::failed("OrderFailed", "Failed to wait for order resource \"" + order.url +
                                                    "\" to become ready: order is in \"invalid\" state: " + err.what());
    }
  } catch (const acme::PollTimeout&) {
    // Still pending/processing: look again soon.
  } catch (const acme::AcmeError& e) {
    if (e.status() == 404 && !order_url.empty())
      return SignOutcome::failed("OrderNotFound", "The ACME order " + order_url + " no longer exists: " + e.what());
    if (auto ra = e.retry_after())
      return SignOutcome::pending("ACMEError", e.what(), std::chrono::duration_cast<std::chrono::milliseconds>(*ra));
    if (e.is(acme::errors::kRateLimited) || e.status() >= 500) return SignOutcome::pending("ACMEError", e.what(), 30s);
    return SignOutcome::failed("ACMEError", e.what());
  }
  return SignOutcome::pending("OrderPending",
                              "Waiting on certificate issuance from order " + order.url + ": \"" + order.status + "\"",
                              env.options.acme_requeue);
}

}  // namespace capstan::certificates
