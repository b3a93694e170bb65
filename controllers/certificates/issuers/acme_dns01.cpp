#include "controllers/certificates/issuers/acme_dns01.h"

#include "controllers/certificates/env.h"
#include "controllers/certificates/issuers/acme_dns01_webhook.h"
#include "controllers/certificates/issuers/dns01_resolvers.h"
#include "runtime/dns/rfc2136.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/digest.h"

#include <stdexcept>

namespace capstan::certificates {
namespace {

constexpr std::size_t kMaxTsigSecret = 512;

dns::TsigKey tsig_key(Env& env, const v1::Rfc2136Provider& p, const std::string& ns) {
  dns::TsigKey key;
  key.name = p.tsig_key_name;
  key.algorithm = dns::parse_tsig_algorithm(p.tsig_algorithm.empty() ? "HMACMD5" : p.tsig_algorithm)
                      .value_or(dns::TsigAlgorithm::kHmacMd5);
  const std::string secret_name = p.tsig_secret_secret_ref ? p.tsig_secret_secret_ref->name : std::string();
  const std::string secret_key = p.tsig_secret_secret_ref ? p.tsig_secret_secret_ref->key : std::string();
  const std::string where = "spec.acme.solvers[].dns01.rfc2136.tsigSecretSecretRef: Secret " + ns + "/" + secret_name;
  auto secret = env.secret_reader.get(ns, secret_name);
  if (!secret) throw std::runtime_error(where + " not found");
  const std::string& encoded = secret->get(secret_key);
  if (encoded.empty()) throw std::runtime_error(where + " has no key \"" + secret_key + "\"");
  if (encoded.size() > kMaxTsigSecret) throw std::runtime_error(where + ": key \"" + secret_key + "\" is over 512 bytes");
  std::string_view text = encoded;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.remove_suffix(1);
  auto raw = meta::base64_decode(text);
  if (!raw || raw->empty())
    throw std::runtime_error(where + ": key \"" + secret_key + "\" is not a base64 TSIG secret (as in BIND's key file)");
  key.secret = std::move(*raw);
  return key;
}

dns::Rfc2136 provider(Env& env, const Dns01Record& r) {
  if (!r.solver.rfc2136) throw std::runtime_error("spec.acme.solvers[].dns01: no supported provider (rfc2136, webhook) configured");
  const auto& p = *r.solver.rfc2136;
  dns::Rfc2136Options o;
  try {
    o.server = net::split_host_port(p.nameserver, "53");
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error("spec.acme.solvers[].dns01.rfc2136.nameserver: " + std::string(e.what()));
  }
  if (!p.tsig_key_name.empty()) o.key = tsig_key(env, p, r.secrets_namespace);
  o.timeout = env.options.dns01_timeout;
  return dns::Rfc2136(std::move(o));
}

// Where the record goes: _acme-challenge.<domain>, or with cnameStrategy Follow the end of its
// CNAME chain (a zone delegated for challenges only).
std::string record_name(const dns::Rfc2136& ns, const Dns01Record& r) {
  std::string name = dns01_record_name(r.domain);
  return r.solver.cname_strategy == "Follow" ? ns.follow_cnames(name) : name;
}

// The recursive nameservers a webhook solver's records are looked up on. Building them reads
// /etc/resolv.conf when none are configured: once per Present or CleanUp.
Dns01Resolvers webhook_resolvers(Env& env) {
  return Dns01Resolvers(env.options.dns01_recursive_nameservers, env.options.dns01_timeout);
}

// The ChallengeRequest of a webhook solver: the record's name and zone as the recursive
// nameservers see them (with cnameStrategy Follow, the end of the CNAME chain). The uid is
// derived from the name and value, so Present and CleanUp of one challenge share it.
WebhookChallenge webhook_challenge(const Dns01Resolvers& resolvers, const Dns01Record& r, std::string action) {
  std::string name = dns01_record_name(r.domain);
  if (r.solver.cname_strategy == "Follow") name = resolvers.follow_cnames(name);
  WebhookChallenge c;
  std::string h = pki::sha256_hex(name + "\n" + r.value, 16);
  c.uid = h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20, 12);
  c.action = std::move(action);
  std::string_view domain = r.domain;
  if (domain.starts_with("*.")) domain.remove_prefix(2);
  c.dns_name = std::string(domain);
  c.key = r.value;
  c.resource_namespace = r.secrets_namespace;
  c.resolved_fqdn = name + ".";
  c.resolved_zone = resolvers.find_zone(name, std::string(domain)) + ".";
  return c;
}

}  // namespace

std::string dns01_record_name(std::string_view domain) {
  if (domain.starts_with("*.")) domain.remove_prefix(2);
  return "_acme-challenge." + dns::canonical_name(domain);
}

bool present_dns01(Env& env, const Dns01Record& r) {
  if (r.solver.webhook) {
    try {
      Dns01Resolvers resolvers = webhook_resolvers(env);
      auto c = webhook_challenge(resolvers, r, "Present");
      call_webhook_solver(env.client, *r.solver.webhook, c);
      return resolvers.answers(c.resolved_fqdn.substr(0, c.resolved_fqdn.size() - 1), r.value);
    } catch (const dns::DnsError& e) {
      throw std::runtime_error("DNS-01 for \"" + r.domain + "\": " + e.what());
    }
  }
  try {
    auto ns = provider(env, r);
    std::string name = record_name(ns, r);
    std::string zone = ns.find_zone(name);
    ns.add_txt(zone, name, r.value);
    for (const auto& v : ns.txt(name))
      if (v == r.value) return true;
    return false;
  } catch (const dns::DnsError& e) {
    throw std::runtime_error("DNS-01 for \"" + r.domain + "\": " + e.what());
  }
}

void clean_up_dns01(Env& env, const Dns01Record& r) {
  if (r.solver.webhook) {
    try {
      call_webhook_solver(env.client, *r.solver.webhook, webhook_challenge(webhook_resolvers(env), r, "CleanUp"));
    } catch (const dns::DnsError& e) {
      throw std::runtime_error("DNS-01 clean-up for \"" + r.domain + "\": " + e.what());
    }
    return;
  }
  try {
    auto ns = provider(env, r);
    std::string name = record_name(ns, r);
    ns.remove_txt(ns.find_zone(name), name, r.value);
  } catch (const dns::DnsError& e) {
    throw std::runtime_error("DNS-01 clean-up for \"" + r.domain + "\": " + e.what());
  }
}

}  // namespace capstan::certificates
