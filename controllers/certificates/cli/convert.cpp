#include "controllers/certificates/cli/convert.h"

#include "apis/certs/v1/group.h"
#include "apis/trust/v1alpha1/group.h"
#include "runtime/meta/object.h"

namespace capstan::certificates::cli {
namespace {

namespace v1 = apis::certs::v1;

constexpr std::string_view kCertManagerGroup = "cert-manager.io";
constexpr std::string_view kCertManagerPrefix = "cert-manager.io/";

bool is_cert_manager_kind(std::string_view kind) {
  return kind == v1::kCertificateKind || kind == v1::kCertificateRequestKind || kind == v1::kIssuerKind || kind == v1::kClusterIssuerKind;
}

std::string describe(const json::Value& obj) {
  std::string ns(meta::namespace_of(obj));
  return std::string(json::get_string(obj, {"kind"})) + " " + (ns.empty() ? "" : ns + "/") + std::string(meta::name_of(obj));
}

// cert-manager.io/<key> annotations as certs.capstan.dev/<key> (the ingress- and gateway-shim's
// names are cert-manager's); cainjector's, which Capstan has no counterpart for, are reported.
void convert_annotations(json::Value& obj, const std::string& what, std::vector<std::string>& notes) {
  json::Value* annotations = json::find(obj, {"metadata", "annotations"});
  if (!annotations || !annotations->is_object()) return;
  json::Object out;
  for (const auto& kv : annotations->get_object()) {
    std::string_view key = kv.key();
    if (key.starts_with(kCertManagerPrefix)) {
      std::string suffix(key.substr(kCertManagerPrefix.size()));
      if (suffix.starts_with("inject-ca-from")) {
        notes.push_back(what + ": annotation " + std::string(key) +
                        " (cainjector) has no Capstan counterpart; it is kept as is and does nothing");
        out[std::string(key)] = kv.value();
        continue;
      }
      out[std::string(v1::kAnnotationPrefix) + suffix] = kv.value();
    } else {
      out[std::string(key)] = kv.value();
    }
  }
  *annotations = std::move(out);
}

void convert_issuer_ref(json::Value& obj) {
  json::Value* group = json::find(obj, {"spec", "issuerRef", "group"});
  if (group && group->is_string() && group->get_string() == kCertManagerGroup) *group = std::string(v1::kGroup);
}

void check_issuer(const json::Value& obj, const std::string& what, std::vector<std::string>& notes) {
  for (const char* unsupported : {"vault", "venafi"})
    if (json::find(obj, {"spec", unsupported}))
      notes.push_back(what + ": spec." + unsupported + " issuers are not served by Capstan; the webhook will refuse this issuer");
  const auto* solvers = json::get_array(obj, {"spec", "acme", "solvers"});
  if (!solvers) return;
  for (std::size_t i = 0; i < solvers->size(); ++i) {
    const auto* dns01 = json::get_object((*solvers)[i], {"dns01"});
    if (!dns01) continue;
    for (const auto& kv : *dns01) {
      std::string_view provider = kv.key();
      if (provider == "rfc2136" || provider == "webhook" || provider == "cnameStrategy") continue;
      notes.push_back(what + ": spec.acme.solvers[" + std::to_string(i) + "].dns01." + std::string(provider) +
                      ": only the rfc2136 and webhook DNS-01 providers are served; the webhook will refuse this solver");
    }
  }
}

// approver-policy's CertificateRequestPolicy: its issuerRef selector's group, and what the
// subset Capstan serves leaves out (CEL validations, allowed.subject, plugins), which the API
// server would prune silently.
void convert_policy(json::Value& obj, const std::string& what, std::vector<std::string>& notes) {
  json::Value* group = json::find(obj, {"spec", "selector", "issuerRef", "group"});
  if (group && group->is_string() && group->get_string() == kCertManagerGroup) *group = std::string(v1::kGroup);
  if (json::find(obj, {"spec", "plugins"})) notes.push_back(what + ": spec.plugins are not served by Capstan; they are dropped");
  if (json::find(obj, {"spec", "allowed", "subject"}))
    notes.push_back(what + ": spec.allowed.subject is not served by Capstan; it is dropped (a request with a subject beyond its "
                           "commonName is then judged without it)");
  const auto* allowed = json::get_object(obj, {"spec", "allowed"});
  if (!allowed) return;
  for (const auto& kv : *allowed)
    if (kv.value().is_object() && kv.value().get_object().contains("validations"))
      notes.push_back(what + ": spec.allowed." + std::string(kv.key()) + ".validations (CEL) are not served by Capstan; they are dropped");
}

}  // namespace

Converted convert_from_cert_manager(const std::vector<json::Value>& documents) {
  Converted out;
  for (const auto& doc : documents) {
    if (!doc.is_object()) {
      if (!doc.is_null()) out.notes.push_back("a document that is not an object was dropped");
      continue;
    }
    json::Value obj = doc;
    const std::string api_version(json::get_string(obj, {"apiVersion"}));
    const std::string kind(json::get_string(obj, {"kind"}));
    const std::string what = describe(obj);
    const auto slash = api_version.find('/');
    const std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
    const std::string version = slash == std::string::npos ? api_version : api_version.substr(slash + 1);
    if (group == kCertManagerGroup && is_cert_manager_kind(kind)) {
      if (version != "v1") {
        out.notes.push_back(what + ": " + api_version + " is not converted (convert it to cert-manager.io/v1 first: cmctl convert)");
        out.objects.push_back(std::move(obj));
        continue;
      }
      obj.get_object()["apiVersion"] = std::string(v1::kApiVersion);
      convert_issuer_ref(obj);
      if (kind == v1::kIssuerKind || kind == v1::kClusterIssuerKind) check_issuer(obj, what, out.notes);
    } else if (group == "acme.cert-manager.io") {
      out.notes.push_back(what + ": dropped (ACME Orders and Challenges are the controller's own state; Capstan keeps them in the "
                                 "CertificateRequest)");
      continue;
    } else if (group == "policy.cert-manager.io" && kind == v1::kCertificateRequestPolicyKind) {
      obj.get_object()["apiVersion"] = std::string(v1::kApiVersion);
      convert_policy(obj, what, out.notes);
    } else if (group == "trust.cert-manager.io" && kind == apis::trust::v1alpha1::kBundleKind) {
      obj.get_object()["apiVersion"] = std::string(apis::trust::v1alpha1::kApiVersion);
    }
    convert_annotations(obj, what, out.notes);
    out.objects.push_back(std::move(obj));
  }
  return out;
}

}  // namespace capstan::certificates::cli
