#include "controllers/certificates/bundles/bundle_controller.h"

#include "apis/trust/v1alpha1/bundle.h"
#include "apis/trust/v1alpha1/group.h"
#include "apis/trust/v1alpha1/validation.h"
#include "controllers/certificates/bundles/bundle_data.h"
#include "controllers/certificates/keystores.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/controller/manager.h"
#include "runtime/controller/status.h"
#include "runtime/events/recorder.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/core_types.h"
#include "runtime/meta/object.h"
#include "runtime/meta/selector.h"
#include "runtime/pki/digest.h"
#include "runtime/pki/pkcs12.h"

#include <fstream>
#include <set>
#include <sstream>

namespace capstan::certificates::bundles {
namespace {

using meta::core::kConfigMapType;
using meta::core::kNamespaceType;
using meta::core::kSecretType;
using tv1::kBundleType;

constexpr std::string_view kFieldManager = "capstan-trust";
constexpr std::string_view kDefaultJksPassword = "changeit";  // trust-manager's default
constexpr std::size_t kMaxDefaultPackageBytes = 4 << 20;
constexpr std::size_t kMaxConflictsNamed = 10;
constexpr std::size_t kMaxSelectedSources = 100;  // objects one source's selector may gather

// The text of one source, or BundleError(SourceNotFound) naming it.
class SourceReader {
 public:
  SourceReader(BundleEnv& env, std::string& default_ca_version) : env_(env), default_ca_version_(default_ca_version) {}

  std::vector<SourceText> read(const tv1::BundleSpec& spec) {
    std::vector<SourceText> out;
    for (std::size_t i = 0; i < spec.sources.size(); ++i) {
      const auto& s = spec.sources[i];
      const std::string at = "spec.sources[" + std::to_string(i) + "]";
      if (s.config_map) from_object(out, *s.config_map, at + ".configMap", false);
      if (s.secret) from_object(out, *s.secret, at + ".secret", true);
      if (s.in_line) out.push_back({at + ".inLine", *s.in_line});
      if (s.use_default_cas && *s.use_default_cas) out.push_back({at + ".useDefaultCAs", default_package(at + ".useDefaultCAs")});
    }
    return out;
  }

 private:
  void from_object(std::vector<SourceText>& out, const tv1::SourceObjectKeySelector& ref, const std::string& at, bool secret) {
    const std::string& ns = env_.options.trust_namespace;
    const std::string kind = secret ? "Secret" : "ConfigMap";
    cache::Informer& informer = secret ? env_.source_secrets : env_.source_config_maps;
    if (ref.selector.is_null()) {
      auto cached = informer.get(ns, ref.name);
      if (!cached) throw BundleError(tv1::reason::kSourceNotFound, at + ": " + kind + " \"" + ref.name + "\" not found in the trust namespace \"" + ns + "\"");
      from_one(out, *cached, ref, at, secret, kind + " \"" + ref.name + "\"");
      return;
    }
    // Label-selected: every match in name order. None is an error rather than an empty bundle
    // written to every namespace (its readers would trust nothing).
    const auto selector = meta::LabelSelector::from_json(&ref.selector);
    std::map<std::string, cache::ObjectPtr> matched;
    for (const auto& o : informer.list())
      if (o->ns() == ns && selector.matches(o->labels())) matched[std::string(o->name())] = o;
    if (matched.empty())
      throw BundleError(tv1::reason::kSourceNotFound, at + ": no " + kind + " in the trust namespace \"" + ns + "\" matches the selector");
    if (matched.size() > kMaxSelectedSources)
      throw BundleError(tv1::reason::kSourceInvalid, at + ": the selector matches " + std::to_string(matched.size()) + " " + kind +
                                                         "s, at most " + std::to_string(kMaxSelectedSources));
    for (const auto& [name, o] : matched) from_one(out, *o, ref, at, secret, kind + " \"" + name + "\"");
  }

  void from_one(std::vector<SourceText>& out, const cache::CachedObject& cached, const tv1::SourceObjectKeySelector& ref,
                const std::string& at, bool secret, const std::string& what) {
    const json::Value obj = cached.value();
    const json::Object* data = json::get_object(obj, {"data"});
    auto value = [&](const json::Value& v) {
      std::string s(v.is_string() ? v.get_string() : std::string_view());
      return secret ? meta::base64_decode(s).value_or("") : s;
    };
    if (ref.include_all_keys) {
      std::map<std::string, std::string> sorted;
      if (data)
        for (const auto& kv : *data) sorted[std::string(kv.key())] = value(kv.value());
      if (sorted.empty()) throw BundleError(tv1::reason::kSourceNotFound, at + ": " + what + " has no data");
      for (auto& [key, text] : sorted) out.push_back({at + " " + what + " key \"" + key + "\"", std::move(text)});
      return;
    }
    const json::Value* v = data ? data->if_contains(ref.key) : nullptr;
    if (!v) throw BundleError(tv1::reason::kSourceNotFound, at + ": " + what + " has no key \"" + ref.key + "\"");
    out.push_back({at + " " + what + " key \"" + ref.key + "\"", value(*v)});
  }

  std::string default_package(const std::string& at) {
    const std::string& path = env_.options.default_ca_package;
    if (path.empty()) throw BundleError(tv1::reason::kSourceNotFound, at + ": no default CA package is configured (--default-ca-package)");
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || text.str().empty())
      throw BundleError(tv1::reason::kSourceNotFound, at + ": the default CA package " + path + " cannot be read");
    if (text.str().size() > kMaxDefaultPackageBytes)
      throw BundleError(tv1::reason::kSourceInvalid, at + ": the default CA package " + path + " is larger than 4 MiB");
    default_ca_version_ = "sha256:" + pki::sha256_hex(text.str(), 8);
    return text.str();
  }

  BundleEnv& env_;
  std::string& default_ca_version_;
};

// The targets of Bundle `name` other than `wanted` ((namespace, secret?) pairs) are deleted;
// one replaced meanwhile (another UID) is left to its next reconcile.
void remove_targets(BundleEnv& env, const std::string& name, const std::set<std::pair<std::string, bool>>& wanted) {
  for (bool secret : {false, true})
    for (const auto& t : (secret ? env.target_secrets : env.target_config_maps).store().by_index(std::string(tv1::kBundleLabel), name)) {
      if (wanted.contains({std::string(t->ns()), secret})) continue;
      client::DeleteOptions o;
      o.ignore_not_found = true;
      o.precondition_uid = std::string(t->uid());
      try {
        env.client.remove(secret ? kSecretType.gvr : kConfigMapType.gvr, t->ns(), t->name(), o);
      } catch (const client::ApiError& e) {
        if (!client::is_conflict(e)) throw;
      }
    }
}

class Pass {
 public:
  Pass(BundleEnv& env, controller::Context& ctx, json::Value obj, tv1::Bundle bundle)
      : env_(env), ctx_(ctx), obj_(std::move(obj)), bundle_(std::move(bundle)), status_(bundle_.status), name_(bundle_.name()) {}

  controller::Result run() {
    std::set<std::pair<std::string, bool>> wanted;  // (namespace, secret?)
    const auto selector = meta::LabelSelector::from_json(&bundle_.spec.target.namespace_selector);
    try {
      Assembled assembled = assemble(SourceReader(env_, status_.default_ca_version).read(bundle_.spec));
      const TargetData data = stores(assembled);
      for (const auto& ns : selected_namespaces(selector))
        for (bool secret : {false, true}) {
          if (!(secret ? bundle_.spec.target.secret : bundle_.spec.target.config_map)) continue;
          wanted.insert({ns, secret});
          write_target(ns, secret, data);
        }
    } catch (const BundleError& e) {
      // Sources that cannot be read leave the targets as they are (trust-manager does too).
      ctx_.log.warn("bundle not synced", {{"bundle", name_}, {"reason", e.reason}, {"error", e.what()}});
      event("Warning", e.reason, e.what());
      return finish(e.reason, e.what(), "False");
    }
    remove_targets(env_, name_, wanted);
    if (!conflicts_.empty()) {
      std::string list;
      for (std::size_t i = 0; i < conflicts_.size() && i < kMaxConflictsNamed; ++i) list += (i ? ", " : "") + conflicts_[i];
      if (conflicts_.size() > kMaxConflictsNamed) list += " and " + std::to_string(conflicts_.size() - kMaxConflictsNamed) + " more";
      return finish("TargetConflict", "objects of this name that are not this Bundle's were left alone: " + list, "False");
    }
    return finish(tv1::reason::kSynced,
                  selector.empty() ? "Successfully synced Bundle to all namespaces"
                                   : "Successfully synced Bundle to namespaces that match this label selector: " + selector.str(),
                  "True");
  }

 private:
  void event(std::string_view type, std::string_view reason, std::string_view message) {
    if (!env_.recorder) return;
    json::Value target = obj_;
    target.as_object()["apiVersion"] = tv1::kApiVersion;
    target.as_object()["kind"] = tv1::kBundleKind;
    env_.recorder->event(target, type, reason, message);
  }

  // The binary stores, computed once for every namespace: a store already in some target that
  // still holds these certificates (and opens with the password) is reused, so no reconcile
  // rewrites the targets with a fresh salt.
  TargetData stores(const Assembled& assembled) {
    TargetData data{assembled.pem, std::nullopt, std::nullopt};
    const auto& formats = bundle_.spec.target.additional_formats;
    if (!formats) return data;
    auto existing = [&](const std::string& key) -> std::optional<std::string> {
      for (bool secret : {false, true})
        for (const auto& t : (secret ? env_.target_secrets : env_.target_config_maps).store().by_index(std::string(tv1::kBundleLabel), name_))
          if (auto bytes = target_bytes(t->value(), secret, key)) return bytes;
      return std::nullopt;
    };
    if (formats->jks) {
      auto have = existing(formats->jks->key);
      data.jks = jks_truststore(assembled.certificates, formats->jks->password.value_or(std::string(kDefaultJksPassword)), pki::TimePoint{},
                                have ? &*have : nullptr);
    }
    if (formats->pkcs12) {
      auto have = existing(formats->pkcs12->key);
      auto profile = pki::parse_pkcs12_profile(formats->pkcs12->profile.empty() ? "LegacyRC2" : formats->pkcs12->profile);
      if (!profile) throw BundleError(tv1::reason::kSourceInvalid, "spec.target.additionalFormats.pkcs12.profile: unsupported value");
      data.pkcs12 = pkcs12_truststore(assembled.certificates, formats->pkcs12->password.value_or(""), *profile, have ? &*have : nullptr);
    }
    return data;
  }

  std::vector<std::string> selected_namespaces(const meta::LabelSelector& selector) {
    std::vector<std::string> out;
    for (const auto& ns : env_.namespaces.list()) {
      const json::Value n = ns->value();
      if (json::get_string(n, {"status", "phase"}) != "Terminating" && selector.matches(n)) out.emplace_back(ns->name());
    }
    return out;
  }

  void write_target(const std::string& ns, bool secret, const TargetData& data) {
    const json::Value want = desired_target(bundle_, obj_, secret, ns, data);
    auto cached = (secret ? env_.target_secrets : env_.target_config_maps).get(ns, name_);
    if (cached && target_up_to_date(cached->value(), want)) return;
    try {
      // Without force: an object of this name whose data another manager owns conflicts (409);
      // a Secret of this name of another type cannot become ours (422, the type is immutable).
      env_.client.apply(secret ? kSecretType.gvr : kConfigMapType.gvr, ns, want, kFieldManager);
    } catch (const client::ApiError& e) {
      if (e.code() != 409 && e.code() != 422) throw;
      conflicts_.push_back(std::string(secret ? "Secret " : "ConfigMap ") + ns + "/" + name_);
      ctx_.log.warn("bundle target left alone", {{"bundle", name_}, {"namespace", ns}, {"error", e.what()}});
    }
  }

  controller::Result finish(std::string_view reason, const std::string& message, std::string_view status) {
    controller::set_condition(status_.conditions, tv1::condition::kSynced, status, reason, message, meta::generation_of(obj_));
    controller::write_status(env_.client, kBundleType.gvr, obj_, status_);
    return controller::Result::done();
  }

  BundleEnv& env_;
  controller::Context& ctx_;
  json::Value obj_;
  tv1::Bundle bundle_;
  tv1::BundleStatus status_;
  std::string name_;
  std::vector<std::string> conflicts_;
};

// The Bundles whose sources name `o` (a ConfigMap or Secret of the trust namespace).
std::vector<controller::Request> bundles_reading(BundleEnv& env, const cache::ObjectPtr& o, std::string_view member) {
  std::vector<controller::Request> out;
  if (o->ns() != env.options.trust_namespace) return out;
  for (const auto& b : env.bundles.list()) {
    const json::Value value = b->value();
    const json::Array* sources = json::get_array(value, {"spec", "sources"});
    if (!sources) continue;
    for (const auto& s : *sources) {
      const json::Value* selector = json::find(s, {member, "selector"});
      bool reads = json::get_string(s, {member, "name"}) == o->name();
      if (!reads && selector && !selector->is_null()) {
        try {
          reads = meta::LabelSelector::from_json(selector).matches(o->labels());
        } catch (const std::exception&) {
          // refused by the webhook; the Bundle's reconcile says so
        }
      }
      if (reads) {
        out.push_back({"", std::string(b->name())});
        break;
      }
    }
  }
  return out;
}

}  // namespace

controller::Result reconcile_bundle(BundleEnv& env, const controller::Request& req, controller::Context& ctx) {
  auto cached = env.bundles.get("", req.name);
  json::Value obj;
  tv1::Bundle bundle;
  if (cached && !cached->deleting()) {
    obj = cached->value();
    std::string errors;
    for (const auto& c : tv1::validate_bundle(obj, nullptr)) errors += (errors.empty() ? "" : "; ") + c.error();
    if (!errors.empty()) {
      // Written around the webhook: said on this Bundle only, its targets left as they are.
      tv1::BundleStatus status;
      try {
        status = tv1::Bundle::from_json(obj).status;
      } catch (const apis::codec::DecodeError&) {
      }
      controller::set_condition(status.conditions, tv1::condition::kSynced, "False", "InvalidBundle", errors, meta::generation_of(obj));
      controller::write_status(env.client, kBundleType.gvr, obj, status);
      return controller::Result::done();
    }
    bundle = tv1::Bundle::from_json(obj);
    return Pass(env, ctx, std::move(obj), std::move(bundle)).run();
  }
  // Gone: its targets go too (the owner references would take them as well, a little later).
  remove_targets(env, req.name, {});
  return controller::Result::done();
}

std::shared_ptr<BundleEnv> wire_bundles(controller::Manager& mgr, BundleOptions options, events::Recorder* recorder) {
  cache::InformerOptions in_trust, targets;
  in_trust.ns = options.trust_namespace;
  targets.label_selector = std::string(tv1::kBundleLabel);
  auto informer = [&](const meta::ResourceType& type, cache::InformerOptions o) -> cache::Informer& {
    o.gvr = type.gvr;
    return mgr.informers().informer(std::move(o), type.namespaced);
  };
  auto env = std::shared_ptr<BundleEnv>(new BundleEnv{mgr.client(), mgr.informer(kBundleType), informer(kConfigMapType, in_trust),
                                                      informer(kSecretType, in_trust), informer(kConfigMapType, targets),
                                                      informer(kSecretType, targets), mgr.informer(kNamespaceType), recorder,
                                                      std::move(options)});
  for (cache::Informer* i : {&env->target_config_maps, &env->target_secrets})
    i->ensure_index(std::string(tv1::kBundleLabel), [](const cache::CachedObject& o) {
      std::string bundle(meta::label(o.value(), tv1::kBundleLabel));
      return bundle.empty() ? std::vector<std::string>{} : std::vector<std::string>{bundle};
    });
  BundleEnv* e = env.get();
  auto target_owner = [](const cache::ObjectPtr& o) {
    std::string bundle(meta::label(o->value(), tv1::kBundleLabel));
    return bundle.empty() ? std::vector<controller::Request>{} : std::vector<controller::Request>{{"", bundle}};
  };
  mgr.controller("bundles")
      .for_(kBundleType, {controller::generation_changed()})
      .watches(kConfigMapType, [e](const cache::ObjectPtr& o) { return bundles_reading(*e, o, "configMap"); }, {}, in_trust)
      .watches(kSecretType, [e](const cache::ObjectPtr& o) { return bundles_reading(*e, o, "secret"); }, {}, in_trust)
      // A target edited or deleted by hand is put back.
      .watches(kConfigMapType, target_owner, {}, targets)
      .watches(kSecretType, target_owner, {}, targets)
      // A namespace appeared, went or changed labels: every Bundle may select differently.
      .watches(kNamespaceType,
               [e](const cache::ObjectPtr&) {
                 std::vector<controller::Request> out;
                 for (const auto& b : e->bundles.list()) out.push_back({"", std::string(b->name())});
                 return out;
               },
               {controller::labels_changed()})
      .with_max_concurrent(2)
      .records_faults(std::string(tv1::condition::kSynced), recorder)
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_bundle(*env, r, c); });
  return env;
}

}  // namespace capstan::certificates::bundles
