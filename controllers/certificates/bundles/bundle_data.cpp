#include "controllers/certificates/bundles/bundle_data.h"

#include "apis/trust/v1alpha1/group.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"
#include "runtime/pki/error.h"

#include <set>

namespace capstan::certificates::bundles {

Assembled assemble(const std::vector<SourceText>& sources) {
  Assembled out;
  std::set<std::string> seen;
  for (const auto& s : sources) {
    std::vector<pki::Certificate> certs;
    try {
      certs = pki::Certificate::parse_chain(s.pem);
    } catch (const pki::PkiError& e) {
      throw BundleError(tv1::reason::kSourceInvalid, s.where + ": " + e.what());
    }
    if (certs.empty()) throw BundleError(tv1::reason::kSourceInvalid, s.where + ": no PEM certificate found");
    for (auto& c : certs) {
      if (!seen.insert(c.to_der()).second) continue;
      if (out.certificates.size() >= kMaxCertificates)
        throw BundleError(tv1::reason::kTargetTooLarge, "more than " + std::to_string(kMaxCertificates) + " distinct certificates");
      out.pem += c.to_pem();
      out.certificates.push_back(std::move(c));
    }
  }
  if (out.pem.size() > kMaxBundleBytes)
    throw BundleError(tv1::reason::kTargetTooLarge, "the bundle is " + std::to_string(out.pem.size()) + " bytes of PEM, at most " +
                                                        std::to_string(kMaxBundleBytes) + " fit in a target");
  return out;
}

json::Value desired_target(const tv1::Bundle& bundle, const json::Value& bundle_obj, bool secret, std::string_view ns,
                           const TargetData& data) {
  const auto& tmpl = secret ? *bundle.spec.target.secret : *bundle.spec.target.config_map;
  const std::string name(bundle.name());
  json::Object labels, annotations;
  if (tmpl.metadata) {
    for (const auto& [k, v] : tmpl.metadata->labels) labels[k] = v;
    for (const auto& [k, v] : tmpl.metadata->annotations) annotations[k] = v;
  }
  labels[tv1::kBundleLabel] = name;
  json::Object owner{{"apiVersion", tv1::kApiVersion},
                     {"kind", tv1::kBundleKind},
                     {"name", name},
                     {"uid", meta::uid_of(bundle_obj)},
                     {"controller", true}};
  json::Object metadata{{"name", name}, {"namespace", ns}, {"labels", std::move(labels)}, {"ownerReferences", json::Array{std::move(owner)}}};
  if (!annotations.empty()) metadata["annotations"] = std::move(annotations);
  json::Object obj{{"apiVersion", "v1"}, {"kind", secret ? "Secret" : "ConfigMap"}, {"metadata", std::move(metadata)}};
  json::Object text, binary;
  const auto& formats = bundle.spec.target.additional_formats;
  auto put_binary = [&](const std::string& key, const std::string& bytes) { (secret ? text : binary)[key] = meta::base64_encode(bytes); };
  if (secret) {
    obj["type"] = "Opaque";
    text[tmpl.key] = meta::base64_encode(data.pem);
  } else {
    text[tmpl.key] = data.pem;
  }
  if (formats && formats->jks && data.jks) put_binary(formats->jks->key, *data.jks);
  if (formats && formats->pkcs12 && data.pkcs12) put_binary(formats->pkcs12->key, *data.pkcs12);
  obj["data"] = std::move(text);
  if (!binary.empty()) obj["binaryData"] = std::move(binary);
  return obj;
}

bool target_up_to_date(const json::Value& have, const json::Value& want) {
  auto member = [](const json::Value& v, std::string_view key) {
    const json::Value* m = json::find(v, {key});
    return m ? *m : json::Value(json::Object{});
  };
  if (member(have, "data") != member(want, "data") || member(have, "binaryData") != member(want, "binaryData")) return false;
  for (std::string_view part : {"labels", "annotations"}) {
    const json::Object* w = json::get_object(want, {"metadata", part});
    if (!w) continue;
    for (const auto& kv : *w) {
      const json::Value* h = json::find(have, {"metadata", part, kv.key()});
      if (!h || *h != kv.value()) return false;
    }
  }
  auto owner = [](const json::Value& v) {
    auto c = meta::controller_of(v);
    return c ? c->uid : std::string();
  };
  return owner(have) == owner(want);
}

std::optional<std::string> target_bytes(const json::Value& target, bool secret, std::string_view key) {
  const json::Value* v = json::find(target, {secret ? "data" : "binaryData", key});
  if (!v || !v->is_string()) return std::nullopt;
  return meta::base64_decode(v->get_string());
}

}  // namespace capstan::certificates::bundles
