#include "controllers/gitops/plugin.h"

#include "apis/gitops/v1/crds.h"
#include "apis/gitops/v1/group.h"
#include "apis/gitops/v1/validation.h"
#include "controllers/gitops/artifact_server.h"
#include "controllers/gitops/kustomization_controller.h"
#include "controllers/gitops/mirror_gc.h"
#include "controllers/gitops/source_controller.h"
#include "runtime/cache/factory.h"
#include "runtime/cache/informer.h"
#include "runtime/controller/manager.h"
#include "runtime/events/recorder.h"
#include "runtime/meta/object.h"
#include "webhooks/gitops/webhooks.h"

#include <algorithm>

namespace capstan::gitops {
namespace {

namespace v1 = apis::gitops::v1;

constexpr std::string_view kSourceIndex = "gitops.capstan.dev/source";         // "ns/name" of the GitRepository
constexpr std::string_view kDependsOnIndex = "gitops.capstan.dev/depends-on";  // "ns/name" of each dependency
constexpr std::string_view kIncludeIndex = "gitops.capstan.dev/include";        // "ns/name" of each included GitRepository

// Reconciles when the spec changes, a reconcile is requested, or deletion starts: not on the
// controller's own status and finalizer writes.
controller::Predicate spec_or_request_changed() {
  controller::Predicate p;
  p.update = [](const cache::ObjectPtr& a, const cache::ObjectPtr& b) {
    if (a->generation() != b->generation() || a->deleting() != b->deleting()) return true;
    return meta::annotation(a->value(), v1::kRequestedAtAnnotation) != meta::annotation(b->value(), v1::kRequestedAtAnnotation);
  };
  return p;
}

// Updates pass when the member at `path` changed.
controller::Predicate member_changed(std::initializer_list<std::string_view> path) {
  std::vector<std::string> keys(path.begin(), path.end());
  controller::Predicate p;
  p.update = [keys](const cache::ObjectPtr& a, const cache::ObjectPtr& b) {
    const json::Value va = a->value(), vb = b->value();
    const json::Value* x = &va;
    const json::Value* y = &vb;
    for (const auto& k : keys) {
      x = x && x->is_object() ? x->as_object().if_contains(k) : nullptr;
      y = y && y->is_object() ? y->as_object().if_contains(k) : nullptr;
    }
    if (!x || !y) return x != y;
    return *x != *y;
  };
  return p;
}

std::string ref_key(const cache::CachedObject& o, std::string_view ns) {
  return std::string(ns.empty() ? o.ns() : ns);
}

}  // namespace

std::shared_ptr<Env> wire_gitops(controller::Manager& mgr, GitopsOptions options) {
  auto env = std::make_shared<Env>(mgr.client(), mgr.informer(kGitRepositoryType), mgr.informer(kKustomizationType), std::move(options));
  if (env->options.record_events)
    env->recorder = std::make_unique<events::Recorder>(mgr.event_client(), events::Source{std::string(kEventComponent), ""});

  env->kustomizations.ensure_index(std::string(kSourceIndex), [](const cache::CachedObject& o) {
    std::string name(json::get_string(o.value(), {"spec", "sourceRef", "name"}));
    if (name.empty()) return std::vector<std::string>{};
    return std::vector<std::string>{ref_key(o, json::get_string(o.value(), {"spec", "sourceRef", "namespace"})) + "/" + name};
  });
  env->kustomizations.ensure_index(std::string(kDependsOnIndex), [](const cache::CachedObject& o) {
    std::vector<std::string> out;
    const json::Value v = o.value();  // value() parses: keep it while reading into it
    if (const auto* deps = json::get_array(v, {"spec", "dependsOn"}))
      for (const auto& d : *deps)
        out.push_back(ref_key(o, json::get_string(d, {"namespace"})) + "/" + std::string(json::get_string(d, {"name"})));
    return out;
  });

  const int workers = env->options.max_concurrent_reconciles;
  Env* e = env.get();
  env->repositories.ensure_index(std::string(kIncludeIndex), [](const cache::CachedObject& o) {
    std::vector<std::string> out;
    const json::Value v = o.value();
    if (const auto* includes = json::get_array(v, {"spec", "include"}))
      for (const auto& inc : *includes) out.push_back(std::string(o.ns()) + "/" + std::string(json::get_string(inc, {"repository", "name"})));
    return out;
  });
  mgr.controller("gitrepositories")
      .for_(kGitRepositoryType, {spec_or_request_changed()})
      // An included repository's new artifact.
      .watches(kGitRepositoryType,
               [e](const cache::ObjectPtr& o) {
                 return controller::requests_by_index(e->repositories, kIncludeIndex, std::string(o->ns()) + "/" + std::string(o->name()));
               },
               {member_changed({"status", "artifact"})})
      .with_max_concurrent(workers)
      .records_faults("Ready", env->recorder.get())
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_git_repository(*env, r, c); });

  mgr.controller("kustomizations")
      .for_(kKustomizationType, {spec_or_request_changed()})
      // A new revision of the source.
      .watches(kGitRepositoryType,
               [e](const cache::ObjectPtr& o) {
                 return controller::requests_by_index(e->kustomizations, kSourceIndex, std::string(o->ns()) + "/" + std::string(o->name()));
               },
               {member_changed({"status", "artifact"})})
      // A dependency became Ready (or stopped being).
      .watches(kKustomizationType,
               [e](const cache::ObjectPtr& o) {
                 return controller::requests_by_index(e->kustomizations, kDependsOnIndex, std::string(o->ns()) + "/" + std::string(o->name()));
               },
               {member_changed({"status", "conditions"})})
      .with_max_concurrent(workers)
      .records_faults("Ready", env->recorder.get())
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_kustomization(*env, r, c); });

  if (env->recorder) mgr.add_server("gitops-events", [] {}, [env] { env->recorder->stop(); });
  if (env->options.storage_addr != "0") {
    auto server = std::make_shared<ArtifactServer>(*env, env->options.storage_addr, env->options.storage_adv_addr);
    mgr.add_server("gitops-artifacts", [server] { server->start(); }, [server] { server->stop(); });
  }
  auto gc = std::make_shared<MirrorCollector>(*env, env->options.mirror_gc_interval);
  mgr.add_server("gitops-mirror-gc", [gc, env] { gc->start(); }, [gc] { gc->stop(); });
  return env;
}

plugin::Plugin plugin() {
  auto options = std::make_shared<GitopsOptions>();
  options->url_schemes = v1::default_url_schemes();
  return plugin::Plugin("gitops")
      .alias("flux")
      .describe("GitOps sync (Flux's GitRepository and Kustomization under gitops.capstan.dev): follows Git refs, applies "
                "manifests with server-side apply every interval, prunes what left Git")
      .flags([options](flags::FlagSet& fs) {
        fs.add_custom(
            "gitops-storage-path", [options](const std::string& v) { options->storage_path = v; },
            "where the gitops controller keeps its Git mirrors (a cache: an emptyDir is enough)", options->storage_path.string());
        fs.add_string("gitops-storage-addr", &options->storage_addr,
                      "address where GitRepository artifacts are served as .tar.gz, at the URL of their status.artifact.url "
                      "(Flux's --storage-addr): host:port, :port for every interface, \"0\" none");
        fs.add_string("gitops-storage-adv-addr", &options->storage_adv_addr,
                      "host[:port] that status.artifact.url names (Flux's --storage-adv-addr), e.g. the Service in front of "
                      "--gitops-storage-addr; empty: the bound address");
        fs.add_string("gitops-default-service-account", &options->default_service_account,
                      "ServiceAccount that Kustomizations without spec.serviceAccountName apply and prune as (impersonation, "
                      "as Flux's --default-service-account): NAME in the Kustomization's namespace, or NAMESPACE/NAME; empty: "
                      "the manager's own identity");
        fs.add_bool("gitops-no-cross-namespace-refs", &options->no_cross_namespace_refs,
                    "refuse Kustomizations whose sourceRef or dependsOn names another namespace (Flux's --no-cross-namespace-refs)");
        fs.add_custom(
            "gitops-url-schemes",
            [options](const std::string& v) {
              auto schemes = flags::split_csv(v);
              const auto& known = v1::known_url_schemes();
              for (const auto& scheme : schemes)
                if (std::find(known.begin(), known.end(), scheme) == known.end())
                  throw flags::UsageError("unknown scheme \"" + scheme + "\" in --gitops-url-schemes (known: http, https, git, ssh, file)");
              if (schemes.empty()) throw flags::UsageError("--gitops-url-schemes needs at least one scheme");
              options->url_schemes = std::move(schemes);
            },
            "URL schemes GitRepositories may use, comma-separated, of http, https, git, ssh and file (file:// reads the "
            "manager's own file system: add it only where that is intended); the gitops webhook refuses the others",
            "http,https,git,ssh");
      })
      .dev_defaults([](flags::FlagSet& fs, const plugin::DevEnvironment& dev) {
        // The Git mirrors in the dev data directory.
        if (!fs.changed("gitops-storage-path")) fs.set("gitops-storage-path", dev.data_dir + "/gitops");
        // Artifacts served on a loopback port kept across restarts.
        if (fs.changed("gitops-storage-addr")) return std::vector<std::string>{};
        std::string address = "127.0.0.1:" + std::to_string(dev.loopback_port("gitops-artifacts"));
        fs.set("gitops-storage-addr", address);
        return std::vector<std::string>{"GitRepository artifacts: http://" + address + "/gitrepository/<namespace>/<name>/"};
      })
      .crds(v1::crds)
      .permits({"gitops.capstan.dev"}, {"gitrepositories", "kustomizations"}, {"update", "patch"})
      .permits({"gitops.capstan.dev"}, {"gitrepositories/status", "kustomizations/status"}, {"get", "update", "patch"})
      .permits({""}, {"events"}, {"create", "patch"})
      // A GitRepository's spec.secretRef (credentials and known_hosts), in its own namespace.
      .permits({""}, {"secrets"}, {"get"})
      // What a repository holds is applied as the Kustomization's ServiceAccount (or the
      // --gitops-default-service-account), never with the manager's own rights.
      .permits({""}, {"serviceaccounts"}, {"impersonate"})
      .webhooks({webhooks::gitops::configurations,
                 [options](plugin::Wiring& w) {
                   webhooks::gitops::Options o;
                   o.url_schemes = options->url_schemes;
                   // The controller's own informer: dependsOn cycles are looked up in it.
                   o.kustomizations = &w.manager.informer(kKustomizationType);
                   webhooks::gitops::register_webhooks(w.webhooks, o);
                 }})
      .setup([options](plugin::Wiring& w) { wire_gitops(w.manager, *options); });
}

}  // namespace capstan::gitops
