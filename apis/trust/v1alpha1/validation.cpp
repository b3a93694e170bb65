#include "apis/trust/v1alpha1/validation.h"

#include "apis/trust/v1alpha1/bundle.h"
#include "runtime/meta/names.h"
#include "runtime/meta/selector.h"

#include <set>

namespace capstan::apis::trust::v1alpha1 {
namespace {

using validation::FieldPath;
using Causes = std::vector<validation::Cause>;

json::Value text(std::string_view s) { return json::Value(s); }

void validate_object_key(const SourceObjectKeySelector& ref, const FieldPath& p, Causes& out) {
  if (!ref.name.empty() && !ref.selector.is_null()) {
    out.push_back(validation::field_invalid(p.child("selector"), ref.selector, "name and selector are mutually exclusive; set only one"));
  } else if (!ref.selector.is_null()) {
    try {
      (void)meta::LabelSelector::from_json(&ref.selector);
    } catch (const std::exception& e) {
      out.push_back(validation::field_invalid(p.child("selector"), ref.selector, e.what()));
    }
  } else if (ref.name.empty()) {
    out.push_back(validation::field_required(p.child("name"), "source name or selector must be defined"));
  } else {
    for (const auto& m : meta::names::dns1123_subdomain(ref.name)) out.push_back(validation::field_invalid(p.child("name"), text(ref.name), m));
  }
  if (ref.include_all_keys && !ref.key.empty()) {
    out.push_back(validation::field_invalid(p.child("key"), text(ref.key), "key and includeAllKeys are mutually exclusive; set only one"));
  } else if (!ref.include_all_keys && ref.key.empty()) {
    out.push_back(validation::field_required(p.child("key"), "source key must be defined unless includeAllKeys is true"));
  } else if (!ref.key.empty()) {
    for (const auto& m : meta::names::config_map_key(ref.key)) out.push_back(validation::field_invalid(p.child("key"), text(ref.key), m));
  }
}

void validate_sources(const BundleSpec& spec, const FieldPath& p, Causes& out) {
  if (spec.sources.empty()) out.push_back(validation::field_required(p, "must define at least one source"));
  if (spec.sources.size() > kMaxSources)
    out.push_back(validation::field_too_many(p, static_cast<std::int64_t>(spec.sources.size()), static_cast<std::int64_t>(kMaxSources)));
  bool default_cas = false;
  for (std::size_t i = 0; i < spec.sources.size(); ++i) {
    const auto& s = spec.sources[i];
    FieldPath sp = p.index(i);
    int kinds = (s.config_map ? 1 : 0) + (s.secret ? 1 : 0) + (s.in_line ? 1 : 0) + (s.use_default_cas ? 1 : 0);
    if (kinds != 1) {
      out.push_back(validation::field_forbidden(sp, "must define exactly one of configMap, secret, inLine and useDefaultCAs"));
      continue;
    }
    if (s.config_map) validate_object_key(*s.config_map, sp.child("configMap"), out);
    if (s.secret) validate_object_key(*s.secret, sp.child("secret"), out);
    if (s.in_line && s.in_line->size() > kMaxInLineBytes)
      out.push_back(validation::field_too_long(sp.child("inLine"), static_cast<std::int64_t>(kMaxInLineBytes)));
    if (s.use_default_cas && *s.use_default_cas) {
      if (default_cas) out.push_back(validation::field_forbidden(sp.child("useDefaultCAs"), "must request the default CAs at most once"));
      default_cas = true;
    }
  }
}

// A data key; `taken` holds the keys the same targets already use (a repeat is a duplicate).
void validate_key(const std::string& key, const FieldPath& p, std::set<std::string>& taken, Causes& out) {
  if (key.empty()) {
    out.push_back(validation::field_required(p, "must be defined"));
    return;
  }
  for (const auto& m : meta::names::config_map_key(key)) out.push_back(validation::field_invalid(p, text(key), m));
  if (!taken.insert(key).second) out.push_back(validation::field_duplicate(p, text(key)));
}

void validate_target(const BundleTarget& t, const FieldPath& p, Causes& out) {
  if (!t.config_map && !t.secret) out.push_back(validation::field_required(p, "must define at least one of configMap and secret"));
  // Each target holds its PEM key and the format keys: those must differ from both PEM keys and
  // from each other (the two PEM keys may be equal: they are in different objects).
  std::set<std::string> cm_keys, secret_keys, taken;
  if (t.config_map) validate_key(t.config_map->key, p.child("configMap").child("key"), cm_keys, out);
  if (t.secret) validate_key(t.secret->key, p.child("secret").child("key"), secret_keys, out);
  taken.insert(cm_keys.begin(), cm_keys.end());
  taken.insert(secret_keys.begin(), secret_keys.end());
  if (t.additional_formats) {
    FieldPath fp = p.child("additionalFormats");
    if (t.additional_formats->jks) validate_key(t.additional_formats->jks->key, fp.child("jks").child("key"), taken, out);
    if (const auto& p12 = t.additional_formats->pkcs12) {
      validate_key(p12->key, fp.child("pkcs12").child("key"), taken, out);
      if (!p12->profile.empty() && p12->profile != "LegacyRC2" && p12->profile != "LegacyDES" && p12->profile != "Modern2023")
        out.push_back(validation::field_not_supported(fp.child("pkcs12").child("profile"), text(p12->profile),
                                                      {"LegacyRC2", "LegacyDES", "Modern2023"}));
    }
  }
  if (!t.namespace_selector.is_null()) {
    try {
      (void)meta::LabelSelector::from_json(&t.namespace_selector);
    } catch (const meta::SelectorError& e) {
      out.push_back(validation::field_invalid(p.child("namespaceSelector"), t.namespace_selector, e.what()));
    }
  }
}

}  // namespace

std::vector<validation::Cause> validate_bundle(const json::Value& obj, const json::Value* /*old*/) {
  Causes out;
  Bundle b;
  try {
    b = Bundle::from_json(obj);
  } catch (const codec::DecodeError& e) {
    out.push_back(validation::field_invalid(FieldPath("spec"), json::Value(), e.what()));
    return out;
  }
  validate_sources(b.spec, FieldPath("spec").child("sources"), out);
  validate_target(b.spec.target, FieldPath("spec").child("target"), out);
  return out;
}

}  // namespace capstan::apis::trust::v1alpha1
