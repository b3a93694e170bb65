// Issuer / ClusterIssuer validation: cert-manager's ValidateIssuerConfig and the ACME, CA and
// SelfSigned checks (internal/apis/certmanager/validation/issuer.go).
#include "apis/certs/v1/validation.h"

#include "apis/certs/v1/validation_util.h"
#include "runtime/dns/message.h"
#include "runtime/dns/tsig.h"
#include "runtime/meta/base64.h"
#include "runtime/net/tcp.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/error.h"

namespace capstan::apis::certs::v1 {
namespace {

using namespace vutil;

// x509.CertPool.AppendCertsFromPEM: true when at least one CERTIFICATE block parses (the others
// are skipped, not rejected).
bool has_valid_certificate(std::string_view pem) {
  constexpr std::string_view kBegin = "-----BEGIN CERTIFICATE-----";
  constexpr std::string_view kEnd = "-----END CERTIFICATE-----";
  std::size_t pos = 0;
  while ((pos = pem.find(kBegin, pos)) != std::string_view::npos) {
    auto end = pem.find(kEnd, pos);
    if (end == std::string_view::npos) return false;
    end += kEnd.size();
    try {
      pki::Certificate::parse_pem(pem.substr(pos, end - pos));
      return true;
    } catch (const pki::PkiError&) {
    }
    pos = end;
  }
  return false;
}

void validate_http01_ingress(const json::Object& ingress, const FieldPath& path, Causes& out) {
  int specified = 0;
  if (get(ingress, "class")) ++specified;
  if (get(ingress, "ingressClassName")) ++specified;
  if (!str(ingress, "name").empty()) ++specified;
  if (specified > 1)
    out.push_back(validation::field_forbidden(path, "only one of 'ingressClassName', 'name' or 'class' should be specified"));

  // "class" used to be free text; ingressClassName names an IngressClass object.
  if (const auto* v = get(ingress, "ingressClassName"); v && v->is_string()) {
    auto errs = dns1123_subdomain_errors(v->get_string());
    if (!errs.empty()) {
      std::string joined;
      for (std::size_t i = 0; i < errs.size(); ++i) joined += (i ? ", " : "") + errs[i];
      out.push_back(validation::field_invalid(path.child("ingressClassName"), *v, "must be a valid IngressClass name: " + joined));
    }
  }

  std::string_view type = str(ingress, "serviceType");
  if (!type.empty() && type != "ClusterIP" && type != "NodePort")
    out.push_back(validation::field_invalid(path.child("serviceType"), jstr(type), R"(must be empty, "ClusterIP" or "NodePort")"));

  // cert-manager fields this solver cannot honour: refused by name, never accepted and ignored.
  // The manager answers the challenges itself (no solver pod) through an ExternalName Service,
  // routed to by an Ingress of its own or by the one `name` names (edited in place).
  if (!type.empty() && (type == "ClusterIP" || type == "NodePort"))
    out.push_back(validation::field_forbidden(path.child("serviceType"),
                                              "not supported: the challenge Service is an ExternalName Service for the manager, "
                                              "which answers HTTP-01 challenges itself; leave it empty"));
  if (get(ingress, "podTemplate"))
    out.push_back(validation::field_forbidden(path.child("podTemplate"),
                                              "not supported: the manager answers HTTP-01 challenges itself, so there is no solver "
                                              "pod to apply a template to"));
}

void validate_rfc2136(const json::Object& p, const FieldPath& path, Causes& out) {
  std::string_view nameserver = str(p, "nameserver");
  if (nameserver.empty()) {
    out.push_back(validation::field_required(path.child("nameserver"), ""));
  } else {
    try {
      net::split_host_port(nameserver, "53");
    } catch (const std::invalid_argument& e) {
      out.push_back(validation::field_invalid(path.child("nameserver"), jstr(nameserver),
                                              std::string("nameserver must be host[:port]: ") + e.what()));
    }
  }
  std::string_view algorithm = str(p, "tsigAlgorithm");
  if (!algorithm.empty() && !dns::parse_tsig_algorithm(algorithm))
    out.push_back(validation::field_not_supported(path.child("tsigAlgorithm"), jstr(algorithm),
                                                  {"HMACMD5", "HMACSHA1", "HMACSHA256", "HMACSHA512"}));
  std::string_view key_name = str(p, "tsigKeyName");
  if (!key_name.empty()) {
    try {
      dns::canonical_name(key_name);
    } catch (const dns::DnsError& e) {
      out.push_back(validation::field_invalid(path.child("tsigKeyName"), jstr(key_name), e.what()));
    }
    const auto* ref = obj(p, "tsigSecretSecretRef");
    if (!ref || str(*ref, "name").empty())
      out.push_back(validation::field_required(path.child("tsigSecretSecretRef").child("name"),
                                               "secret name is required when tsigKeyName is set"));
  }
}

// cert-manager's ValidateACMEIssuerDNS01Config for webhook: groupName and solverName required.
void validate_webhook_provider(const json::Object& p, const FieldPath& path, Causes& out) {
  std::string_view group = str(p, "groupName");
  if (group.empty()) out.push_back(validation::field_required(path.child("groupName"), "group name must be specified"));
  else if (group.find('/') != std::string_view::npos || group.find('.') == std::string_view::npos)
    out.push_back(validation::field_invalid(path.child("groupName"), jstr(group),
                                            "must be an API group name (a DNS subdomain such as acme.example.com)"));
  std::string_view solver = str(p, "solverName");
  if (solver.empty()) out.push_back(validation::field_required(path.child("solverName"), "solver name must be specified"));
  else if (solver.find('/') != std::string_view::npos)
    out.push_back(validation::field_invalid(path.child("solverName"), jstr(solver), "must be a resource name (no '/')"));
  if (const auto* config = get(p, "config"); config && !config->is_object() && !config->is_null())
    out.push_back(validation::field_invalid(path.child("config"), *config, "must be an object"));
}

void validate_dns01(const json::Object& dns01, const FieldPath& path, Causes& out) {
  std::string_view strategy = str(dns01, "cnameStrategy");
  if (!strategy.empty() && strategy != "None" && strategy != "Follow")
    out.push_back(validation::field_not_supported(path.child("cnameStrategy"), jstr(strategy), {"None", "Follow"}));
  int providers = 0;
  if (const auto* rfc2136 = obj(dns01, "rfc2136")) {
    ++providers;
    validate_rfc2136(*rfc2136, path.child("rfc2136"), out);
  }
  if (const auto* webhook = obj(dns01, "webhook")) {
    ++providers;
    validate_webhook_provider(*webhook, path.child("webhook"), out);
  }
  // cert-manager's other providers: refused by name rather than accepted and left pending.
  for (std::string_view other : {"acmeDNS", "akamai", "azureDNS", "cloudDNS", "cloudflare", "digitalocean", "route53"}) {
    if (!get(dns01, other)) continue;
    ++providers;
    out.push_back(validation::field_forbidden(path.child(other), "the " + std::string(other) +
                                                                     " DNS01 provider is not supported; use rfc2136 (any DNS "
                                                                     "server taking RFC 2136 updates) or webhook (cert-manager's "
                                                                     "webhook solvers)"));
  }
  if (providers == 0) out.push_back(validation::field_required(path, "no DNS01 provider specified"));
  if (providers > 1) out.push_back(validation::field_forbidden(path, "may not specify more than one provider type"));
}

void validate_solver(const json::Object& solver, const FieldPath& path, Causes& out) {
  int providers = 0;
  if (const auto* http01 = obj(solver, "http01")) {
    ++providers;
    FieldPath hp = path.child("http01");
    int defined = 0;
    if (const auto* ingress = obj(*http01, "ingress")) {
      ++defined;
      validate_http01_ingress(*ingress, hp.child("ingress"), out);
    }
    if (get(*http01, "gatewayHTTPRoute")) {
      ++defined;
      out.push_back(validation::field_forbidden(hp.child("gatewayHTTPRoute"),
                                                "not supported: the manager answers HTTP-01 challenges itself, through an ExternalName "
                                                "Service that Gateway API implementations do not route to; use 'ingress'"));
    }
    if (defined == 0) out.push_back(validation::field_required(hp, "no HTTP01 solver type configured"));
  }
  if (const auto* dns01 = obj(solver, "dns01")) {
    if (providers > 0) {
      out.push_back(validation::field_forbidden(path, "may not specify more than one solver type in a single solver"));
    } else {
      ++providers;
      validate_dns01(*dns01, path.child("dns01"), out);
    }
  }
  if (providers == 0) out.push_back(validation::field_required(path, "no solver type configured"));
}

void validate_acme(const json::Object& acme, const FieldPath& path, Causes& out) {
  std::string_view bundle = str(acme, "caBundle");
  bool skip_verify = truthy(acme, "skipTLSVerify");
  if (!bundle.empty() && skip_verify) {
    const char* msg = "caBundle and skipTLSVerify are mutually exclusive and cannot both be set";
    out.push_back(validation::field_invalid(path.child("caBundle"), jstr(""), msg));
    out.push_back(validation::field_invalid(path.child("skipTLSVerify"), json::Value(true), msg));
  }
  if (!bundle.empty()) {
    auto pem = meta::base64_decode(bundle);
    if (!pem || !has_valid_certificate(*pem))
      out.push_back(validation::field_invalid(path.child("caBundle"), jstr(""), "cert bundle didn't contain any valid certificates"));
  }

  const auto* key_ref = obj(acme, "privateKeySecretRef");
  if (!key_ref || str(*key_ref, "name").empty())
    out.push_back(validation::field_required(path.child("privateKeySecretRef").child("name"),
                                         "private key secret name is a required field"));
  if (str(acme, "server").empty())
    out.push_back(validation::field_required(path.child("server"), "acme server URL is a required field"));

  if (const auto* solvers = arr(acme, "solvers")) {
    for (std::size_t i = 0; i < solvers->size(); ++i) {
      static const json::Object empty;
      const auto& s = (*solvers)[i];
      validate_solver(s.is_object() ? s.get_object() : empty, path.child("solvers").index(i), out);
    }
  }
}

void validate_ca(const json::Object& ca, const FieldPath& path, Causes& out) {
  if (str(ca, "secretName").empty()) out.push_back(validation::field_required(path.child("secretName")));
  // Upstream reports these under "ocspServer[i]", a field that does not exist; we use the real
  // name.
  if (const auto* servers = arr(ca, "ocspServers"))
    for (std::size_t i = 0; i < servers->size(); ++i)
      if ((*servers)[i].is_string() && (*servers)[i].get_string().empty())
        out.push_back(validation::field_invalid(path.child("ocspServers").index(i), jstr(""),
                                            "must be a valid URL, e.g., http://ocsp.int-x3.letsencrypt.org"));
  if (const auto* urls = arr(ca, "issuingCertificateURLs"))
    for (std::size_t i = 0; i < urls->size(); ++i)
      if ((*urls)[i].is_string() && (*urls)[i].get_string().empty())
        out.push_back(validation::field_invalid(path.child("issuingCertificateURLs").index(i), jstr(""), "must be a valid URL"));
}

}  // namespace

std::vector<validation::Cause> validate_issuer_spec(const json::Value& spec_value, const validation::FieldPath& path) {
  Causes out;
  const json::Object& spec = object_or_empty(&spec_value);
  int configs = 0;
  auto one = [&](std::string_view type, auto&& validate) {
    const auto* config = obj(spec, type);
    if (!config) return;
    if (configs > 0) {
      out.push_back(validation::field_forbidden(path.child(type), "may not specify more than one issuer type"));
      return;
    }
    ++configs;
    validate(*config, path.child(type));
  };
  one("acme", [&](const json::Object& c, const FieldPath& p) { validate_acme(c, p, out); });
  one("ca", [&](const json::Object& c, const FieldPath& p) { validate_ca(c, p, out); });
  one("selfSigned", [&](const json::Object&, const FieldPath&) {});
  if (configs == 0) out.push_back(validation::field_required(path, "at least one issuer must be configured"));
  return out;
}

std::vector<validation::Cause> validate_issuer(const json::Value& obj, const json::Value* /*old*/) {
  // ValidateUpdateIssuer is ValidateIssuer.
  static const json::Value null_spec;
  const json::Value* spec = obj.is_object() ? obj.get_object().if_contains("spec") : nullptr;
  return validate_issuer_spec(spec ? *spec : null_spec, validation::FieldPath("spec"));
}

}  // namespace capstan::apis::certs::v1
