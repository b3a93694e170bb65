#include "controllers/secretcopy/secretcopy.h"

#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/controller/manager.h"
#include "runtime/events/recorder.h"
#include "runtime/log/log.h"
#include "runtime/meta/core_types.h"
#include "runtime/meta/object.h"
#include "runtime/meta/selector.h"

#include <memory>
#include <set>

namespace capstan::secretcopy {
namespace {

constexpr std::string_view kSourceSelector = "secretcopy.capstan.dev/source=true";
constexpr std::string_view kCopyLabel = "secretcopy.capstan.dev/copy";
constexpr std::string_view kCopySelector = "secretcopy.capstan.dev/copy=true";
constexpr std::string_view kNamespaceSelectorAnnotation = "secretcopy.capstan.dev/namespace-selector";
constexpr std::string_view kSourceAnnotation = "secretcopy.capstan.dev/source";  // also the copies' index
constexpr std::string_view kFieldManager = "capstan-secretcopy";
using meta::core::kNamespaceType;
using meta::core::kSecretType;

struct Env {
  client::Client& client;
  cache::Informer& sources;
  cache::Informer& copies;
  cache::Informer& namespaces;
  std::unique_ptr<events::Recorder> recorder;
};

// What the copy of `source` in `ns` holds.
json::Value desired_copy(const json::Value& source, const std::string& source_key, const std::string& ns) {
  json::Object metadata{{"name", meta::name_of(source)},
                        {"namespace", ns},
                        {"labels", json::Object{{kCopyLabel, "true"}}},
                        {"annotations", json::Object{{kSourceAnnotation, source_key}}}};
  json::Object copy{{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", std::move(metadata)}};
  copy["type"] = json::get_string(source, {"type"}, "Opaque");
  if (const auto* data = json::get_object(source, {"data"})) copy["data"] = *data;
  return copy;
}

// Whether the cached copy already holds what `desired` says (then nothing is written).
bool up_to_date(const cache::ObjectPtr& have, const json::Value& desired) {
  if (!have) return false;
  const json::Value v = have->value();
  const json::Value* data = json::find(v, {"data"});
  const json::Value* want = json::find(desired, {"data"});
  return json::get_string(v, {"type"}) == json::get_string(desired, {"type"}) && (data ? *data : json::Value()) == (want ? *want : json::Value()) &&
         meta::annotation(v, kSourceAnnotation) == meta::annotation(desired, kSourceAnnotation);
}

controller::Result reconcile(Env& e, const controller::Request& r, controller::Context&) {
  const std::string key = r.key();
  std::set<std::string> wanted;
  cache::ObjectPtr source = e.sources.get(r.ns, r.name);
  if (source && !source->deleting()) {
    const json::Value src = source->value();
    meta::LabelSelector selector;
    try {
      selector = meta::LabelSelector::parse(meta::annotation(src, kNamespaceSelectorAnnotation));
    } catch (const meta::SelectorError& err) {
      // The annotation's next change reconciles again; the copies made so far stay.
      std::string message = "annotation " + std::string(kNamespaceSelectorAnnotation) + ": " + err.what();
      log::warn("secret not copied", {{"secret", key}, {"error", message}});
      if (e.recorder) e.recorder->warning(src, "InvalidNamespaceSelector", message);
      return {};
    }
    for (const auto& ns : e.namespaces.list()) {
      const json::Value n = ns->value();
      if (ns->name() != r.ns && json::get_string(n, {"status", "phase"}) != "Terminating" && selector.matches(n))
        wanted.insert(std::string(ns->name()));
    }
    for (const auto& ns : wanted) {
      json::Value copy = desired_copy(src, key, ns);
      if (up_to_date(e.copies.get(ns, r.name), copy)) continue;
      try {
        // Without force: a Secret whose data another manager owns conflicts (409) and is left alone.
        e.client.apply(kSecretType.gvr, ns, copy, kFieldManager);
      } catch (const client::ApiError& err) {
        if (err.code() != 409) throw;
        std::string message = "namespace " + ns + " has a Secret " + r.name + " that is not a copy; it is left alone";
        log::warn("secret not copied", {{"secret", key}, {"namespace", ns}});
        if (e.recorder) e.recorder->warning(src, "NotCopied", message);
      }
    }
  }
  // Copies nobody wants any more: the source went, stopped selecting, or the namespace changed.
  for (const auto& copy : e.copies.store().by_index(kSourceAnnotation, key))
    if (!wanted.count(std::string(copy->ns()))) {
      client::DeleteOptions o;
      o.ignore_not_found = true;
      o.precondition_uid = std::string(copy->uid());
      e.client.remove(kSecretType.gvr, copy->ns(), copy->name(), o);
    }
  return {};
}

void wire(controller::Manager& mgr) {
  cache::InformerOptions sources, copies;
  sources.label_selector = kSourceSelector;
  copies.label_selector = kCopySelector;
  auto env = std::shared_ptr<Env>(new Env{mgr.client(), mgr.informer(kSecretType, kSourceSelector), mgr.informer(kSecretType, kCopySelector),
                                          mgr.informer(kNamespaceType), nullptr});
  env->recorder = std::make_unique<events::Recorder>(mgr.event_client(), events::Source{std::string(kFieldManager), ""});
  env->copies.ensure_index(std::string(kSourceAnnotation), [](const cache::CachedObject& o) {
    std::string source(meta::annotation(o.value(), kSourceAnnotation));
    return source.empty() ? std::vector<std::string>{} : std::vector<std::string>{source};
  });
  Env* e = env.get();
  mgr.controller("secretcopy")
      .for_(kSecretType, {}, sources)
      // A copy changed or deleted by hand is put back (or deleted when its source is gone).
      .watches(kSecretType,
               [](const cache::ObjectPtr& o) {
                 auto source = controller::Request::from_key(meta::annotation(o->value(), kSourceAnnotation));
                 return source.name.empty() ? std::vector<controller::Request>{} : std::vector<controller::Request>{source};
               },
               {}, copies)
      // A namespace appeared, went or changed labels: every source may select differently.
      .watches(kNamespaceType,
               [e](const cache::ObjectPtr&) {
                 std::vector<controller::Request> out;
                 for (const auto& s : e->sources.list()) out.push_back({std::string(s->ns()), std::string(s->name())});
                 return out;
               },
               {controller::labels_changed()})
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile(*env, r, c); });
  mgr.add_server("secretcopy-events", [] {}, [env] { env->recorder->stop(); });
}

}  // namespace

plugin::Plugin plugin() {
  return plugin::Plugin("secretcopy")
      .off_by_default()
      .describe("copies a Secret labelled secretcopy.capstan.dev/source=true into the namespaces its "
                "secretcopy.capstan.dev/namespace-selector annotation selects, and keeps the copies in step")
      .permits({""}, {"secrets"}, {"create", "patch", "delete"})
      .permits({""}, {"events"}, {"create", "patch"})
      .setup([](plugin::Wiring& w) { wire(w.manager); });
}

}  // namespace capstan::secretcopy
