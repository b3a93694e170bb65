#include "controllers/certificates/ingress_shim.h"

#include "apis/certs/v1/group.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/objects.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/events/recorder.h"
#include "runtime/meta/core_types.h"
#include "runtime/meta/object.h"
#include "runtime/meta/time.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>

namespace capstan::certificates {
namespace {

namespace v1 = apis::certs::v1;

constexpr std::string_view kFieldManager = "capstan-ingress-shim";
constexpr std::string_view kTlsAcme = "kubernetes.io/tls-acme";

std::string annotation(const json::Value& ingress, std::string_view key) {
  return std::string(meta::annotation(ingress, std::string(v1::kAnnotationPrefix) + std::string(key)));
}

std::vector<std::string> split_trimmed(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    auto comma = s.find(',');
    std::string_view part = s.substr(0, comma);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    if (!part.empty()) out.emplace_back(part);
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return out;
}

// The spec members the annotations set, or the errors that keep it from being made.
json::Object annotated_spec(const json::Value& ingress, std::vector<std::string>& errors) {
  json::Object spec;
  const std::string prefix(v1::kAnnotationPrefix);
  if (auto cn = annotation(ingress, "common-name"); !cn.empty()) spec["commonName"] = cn;
  for (const char* key : {"duration", "renew-before"}) {
    std::string v = annotation(ingress, key);
    if (v.empty()) continue;
    if (!meta::parse_go_duration(v)) errors.push_back("annotation " + prefix + key + ": invalid duration \"" + v + "\"");
    else spec[std::string_view(key) == "duration" ? "duration" : "renewBefore"] = v;
  }
  if (auto usages = annotation(ingress, "usages"); !usages.empty()) {
    json::Array a;
    for (const auto& u : split_trimmed(usages)) a.emplace_back(u);
    spec["usages"] = std::move(a);
  }
  if (auto limit = annotation(ingress, "revision-history-limit"); !limit.empty()) {
    int n = 0;
    auto [end, ec] = std::from_chars(limit.data(), limit.data() + limit.size(), n);
    if (ec != std::errc() || end != limit.data() + limit.size() || n < 1)
      errors.push_back("annotation " + prefix + "revision-history-limit: \"" + limit + "\" is not a whole number of at least 1");
    else spec["revisionHistoryLimit"] = n;
  }
  json::Object key;
  if (auto algorithm = annotation(ingress, "private-key-algorithm"); !algorithm.empty()) key["algorithm"] = algorithm;
  if (auto policy = annotation(ingress, "private-key-rotation-policy"); !policy.empty()) key["rotationPolicy"] = policy;
  if (auto size = annotation(ingress, "private-key-size"); !size.empty()) {
    int n = 0;
    auto [end, ec] = std::from_chars(size.data(), size.data() + size.size(), n);
    if (ec != std::errc() || end != size.data() + size.size() || n <= 0)
      errors.push_back("annotation " + prefix + "private-key-size: \"" + size + "\" is not a whole number");
    else key["size"] = n;
  }
  if (!key.empty()) spec["privateKey"] = std::move(key);
  return spec;
}

bool owned_by(const json::Value& certificate, std::string_view uid) {
  auto owner = meta::controller_of(certificate);
  return owner && owner->uid == uid;
}

// The members of `have` that `want` sets, for the comparison that spares a write.
bool same_where_set(const json::Value& want, const json::Value& have) {
  if (!want.is_object()) return want == have;
  if (!have.is_object()) return false;
  for (const auto& kv : want.get_object()) {
    const json::Value* h = have.get_object().if_contains(kv.key());
    if (!h || !same_where_set(kv.value(), *h)) return false;
  }
  return true;
}

// The issuerRef the annotations of `obj` name, and the spec members they set; nullopt (with the
// reason in out.errors) when no Certificate can be made; out.annotated says whether it asks.
std::optional<std::pair<json::Object, json::Object>> annotated_issuer(const json::Value& obj, const DefaultIssuer& default_issuer,
                                                                      ShimResult& out) {
  const std::string prefix(v1::kAnnotationPrefix);
  std::string issuer = annotation(obj, "issuer"), cluster_issuer = annotation(obj, "cluster-issuer");
  const bool acme = meta::annotation(obj, kTlsAcme) == "true";
  out.annotated = !issuer.empty() || !cluster_issuer.empty() || acme;
  if (!out.annotated) return std::nullopt;
  json::Object ref;
  if (!issuer.empty() && !cluster_issuer.empty()) {
    out.errors.push_back("both " + prefix + "issuer and " + prefix + "cluster-issuer are set: choose one");
    return std::nullopt;
  } else if (!issuer.empty() || !cluster_issuer.empty()) {
    ref["name"] = issuer.empty() ? cluster_issuer : issuer;
    std::string kind = annotation(obj, "issuer-kind");
    ref["kind"] = !kind.empty() ? kind : std::string(issuer.empty() ? v1::kClusterIssuerKind : v1::kIssuerKind);
    std::string group = annotation(obj, "issuer-group");
    ref["group"] = group.empty() ? std::string(v1::kGroup) : group;
  } else if (!default_issuer.name.empty()) {
    ref = json::Object{{"name", default_issuer.name}, {"kind", default_issuer.kind}, {"group", default_issuer.group}};
  } else {
    out.errors.push_back(std::string(kTlsAcme) + " is set but the manager has no default issuer (--default-issuer-name)");
    return std::nullopt;
  }
  json::Object common = annotated_spec(obj, out.errors);
  if (!out.errors.empty()) return std::nullopt;
  return std::make_pair(std::move(ref), std::move(common));
}

using HostsBySecret = std::map<std::string, std::vector<std::string>>;

void add_hosts(HostsBySecret& by_secret, const std::string& secret, std::vector<std::string> hosts) {
  auto& all = by_secret[secret];
  for (auto& h : hosts)
    if (std::find(all.begin(), all.end(), h) == all.end()) all.push_back(std::move(h));
}

// One Certificate per secret, for its hosts, owned by `obj`.
void make_certificates(const json::Value& obj, const json::Object& ref, const json::Object& common, const HostsBySecret& by_secret,
                       ShimResult& out) {
  const meta::OwnerReference owner = meta::controller_reference(obj);
  for (const auto& [secret, hosts] : by_secret) {
    json::Object spec = common;
    json::Array dns;
    for (const auto& h : hosts) dns.emplace_back(h);
    spec["dnsNames"] = std::move(dns);
    spec["secretName"] = secret;
    spec["issuerRef"] = ref;
    json::Object metadata{{"name", secret},
                          {"namespace", meta::namespace_of(obj)},
                          {"ownerReferences", json::Array{owner.to_json()}}};
    out.certificates.push_back(
        json::Object{{"apiVersion", v1::kApiVersion}, {"kind", v1::kCertificateKind}, {"metadata", std::move(metadata)}, {"spec", std::move(spec)}});
  }
}

}  // namespace

ShimResult certificates_for_ingress(const json::Value& ingress, const DefaultIssuer& default_issuer) {
  ShimResult out;
  auto issuer = annotated_issuer(ingress, default_issuer, out);
  if (!issuer) return out;
  // Entries sharing a secret share its Certificate, with the hosts of all of them.
  HostsBySecret hosts_by_secret;
  const json::Array* tls = json::get_array(ingress, {"spec", "tls"});
  for (std::size_t i = 0; tls && i < tls->size(); ++i) {
    const json::Value& entry = (*tls)[i];
    std::string secret(json::get_string(entry, {"secretName"}));
    std::vector<std::string> hosts;
    if (const auto* hs = json::get_array(entry, {"hosts"}))
      for (const auto& h : *hs)
        if (h.is_string() && !h.get_string().empty()) hosts.emplace_back(h.get_string());
    if (secret.empty()) {
      out.errors.push_back("spec.tls[" + std::to_string(i) + "]: the entry has no secretName");
      continue;
    }
    if (hosts.empty()) {
      out.errors.push_back("spec.tls[" + std::to_string(i) + "] (secret " + secret + "): the entry has no hosts");
      continue;
    }
    add_hosts(hosts_by_secret, secret, std::move(hosts));
  }
  make_certificates(ingress, issuer->first, issuer->second, hosts_by_secret, out);
  return out;
}

ShimResult certificates_for_gateway(const json::Value& gateway, const DefaultIssuer& default_issuer) {
  ShimResult out;
  auto issuer = annotated_issuer(gateway, default_issuer, out);
  if (!issuer) return out;
  const std::string ns(meta::namespace_of(gateway));
  HostsBySecret hosts_by_secret;
  const json::Array* listeners = json::get_array(gateway, {"spec", "listeners"});
  for (std::size_t i = 0; listeners && i < listeners->size(); ++i) {
    const json::Value& l = (*listeners)[i];
    const std::string at = "spec.listeners[" + std::to_string(i) + "]";
    if (!json::get_object(l, {"tls"})) continue;                              // plain HTTP
    if (json::get_string(l, {"tls", "mode"}, "Terminate") == "Passthrough") continue;  // the backend's own certificate
    std::string hostname(json::get_string(l, {"hostname"}));
    const json::Array* refs = json::get_array(l, {"tls", "certificateRefs"});
    if (hostname.empty()) {
      out.errors.push_back(at + ".hostname: the listener has no hostname to put in a certificate");
      continue;
    }
    for (std::size_t j = 0; refs && j < refs->size(); ++j) {
      const json::Value& ref = (*refs)[j];
      const std::string rat = at + ".tls.certificateRefs[" + std::to_string(j) + "]";
      std::string_view group = json::get_string(ref, {"group"}), kind = json::get_string(ref, {"kind"}, "Secret");
      std::string_view ref_ns = json::get_string(ref, {"namespace"});
      std::string name(json::get_string(ref, {"name"}));
      if (!group.empty() || kind != "Secret") {
        out.errors.push_back(rat + ": only Secrets (core group) hold certificates, not " + std::string(kind) +
                             (group.empty() ? "" : "." + std::string(group)));
        continue;
      }
      if (!ref_ns.empty() && ref_ns != ns) {
        out.errors.push_back(rat + ": the Secret is in namespace " + std::string(ref_ns) +
                             "; Certificates are made in the Gateway's namespace only");
        continue;
      }
      if (name.empty()) {
        out.errors.push_back(rat + ": the reference has no name");
        continue;
      }
      add_hosts(hosts_by_secret, name, {hostname});
    }
  }
  make_certificates(gateway, issuer->first, issuer->second, hosts_by_secret, out);
  return out;
}

const ShimSource& ingress_source() {
  static const ShimSource s{"networking.k8s.io/v1", "Ingress", [](Env& e) { return e.ingresses; }, certificates_for_ingress};
  return s;
}

const ShimSource& gateway_source() {
  static const ShimSource s{"gateway.networking.k8s.io/v1", "Gateway", [](Env& e) { return e.gateways; }, certificates_for_gateway};
  return s;
}

controller::Result reconcile_shim(Env& env, const ShimSource& source, const DefaultIssuer& default_issuer, const controller::Request& req,
                                  controller::Context& ctx) {
  cache::Informer* informer = source.informer(env);
  auto cached = informer ? informer->get(req.ns, req.name) : nullptr;
  if (!cached || cached->deleting()) return controller::Result::done();  // its Certificates go with it (GC)
  const json::Value obj = cached->value();
  ShimResult want = source.certificates(obj, default_issuer);
  if (!want.annotated) return controller::Result::done();  // as cert-manager: what it made stays
  const json::Value target = event_target(source.api_version, source.kind, obj);
  for (const auto& e : want.errors) env.event(target, events::kWarning, "BadConfig", e);
  const std::string uid(meta::uid_of(obj));
  std::set<std::string> wanted;
  for (const auto& c : want.certificates) {
    const std::string name(meta::name_of(c));
    wanted.insert(name);
    auto have = env.certificates.get(req.ns, name);
    if (have) {
      const json::Value existing = have->value();
      if (!owned_by(existing, uid)) {
        env.event(target, events::kWarning, "BadConfig",
                  "Certificate " + name + " exists and is not owned by this " + std::string(source.kind) + ": it is left alone");
        continue;
      }
      if (same_where_set(c, existing)) continue;
    }
    env.client.apply(v1::kCertificateType.gvr, req.ns, c, kFieldManager, true);
    env.event(target, events::kNormal, have ? "UpdateCertificate" : "CreateCertificate",
              std::string(have ? "Successfully updated" : "Successfully created") + " Certificate \"" + name + "\"");
    ctx.log.info(have ? "updated Certificate" : "created Certificate", {{"certificate", name}});
  }
  // Certificates this object made that it no longer asks for (only when every entry could be
  // read: a typo in one entry must not delete its Certificate).
  if (want.errors.empty()) {
    for (const auto& c : env.certificates.list(req.ns)) {
      if (wanted.count(std::string(c->name())) || c->controller_uid() != uid) continue;
      client::DeleteOptions only_that_one;
      only_that_one.precondition_uid = std::string(c->uid());
      only_that_one.ignore_not_found = true;
      env.client.remove(v1::kCertificateType.gvr, req.ns, c->name(), only_that_one);
      env.event(target, events::kNormal, "DeleteCertificate", "Successfully deleted unrequired Certificate \"" + std::string(c->name()) + "\"");
      ctx.log.info("deleted Certificate", {{"certificate", std::string(c->name())}});
    }
  }
  return controller::Result::done();
}

}  // namespace capstan::certificates
