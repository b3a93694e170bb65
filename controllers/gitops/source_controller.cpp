#include "controllers/gitops/source_controller.h"

#include "apis/gitops/v1/group.h"
#include "apis/gitops/v1/types.h"
#include "apis/gitops/v1/validation.h"
#include "controllers/gitops/env.h"
#include "controllers/gitops/status.h"
#include "runtime/cache/informer.h"
#include "runtime/events/event.h"
#include "runtime/meta/object.h"
#include "runtime/meta/time.h"

namespace capstan::gitops {
namespace {

namespace v1 = apis::gitops::v1;
using std::chrono::milliseconds;

}  // namespace

controller::Result reconcile_git_repository(Env& env, const controller::Request& request, controller::Context& ctx) {
  auto cached = env.repositories.get(request.ns, request.name);
  if (!cached || meta::is_deleting(cached->value())) return controller::Result::done();
  const json::Value& before = cached->value();
  json::Value obj = before;

  v1::GitRepositorySpec spec;
  try {
    spec = v1::parse_git_repository_spec(obj);
  } catch (const std::invalid_argument& e) {
    set_condition(obj, v1::condition::kStalled, "True", "InvalidSpec", e.what());
    set_condition(obj, v1::condition::kReady, "False", "InvalidSpec", e.what());
    write_status(env.client, kGitRepositoryType, before, obj);
    throw controller::TerminalError("GitRepository " + request.key() + ": " + e.what());
  }
  if (spec.suspend) {
    ctx.log.debug("suspended");
    return controller::Result::done();
  }
  // What the webhook refuses is refused here too: objects made before it, or in the manager's
  // own namespace (which no webhook sees), must not make the manager read its own files.
  v1::ValidationOptions vo;
  if (!env.options.url_schemes.empty()) vo.url_schemes = env.options.url_schemes;
  if (auto causes = v1::validate_git_repository(obj, vo); !causes.empty()) {
    std::string message;
    for (const auto& c : causes) message += (message.empty() ? "" : "; ") + c.error();
    set_condition(obj, v1::condition::kStalled, "True", "InvalidSpec", message);
    set_condition(obj, v1::condition::kReady, "False", "InvalidSpec", message);
    write_status(env.client, kGitRepositoryType, before, obj);
    throw controller::TerminalError("GitRepository " + request.key() + ": " + message);
  }
  const milliseconds interval = spec.interval > milliseconds::zero() ? spec.interval : milliseconds(60'000);

  git::Ref ref{spec.ref.branch, spec.ref.tag, spec.ref.commit, spec.ref.name};
  git::Resolved resolved;
  try {
    resolved = env.mirrors.sync(spec.url, ref, spec.timeout);
  } catch (const std::exception& e) {
    std::string message = std::string("failed to fetch from ") + git::redact_url(spec.url) + ": " + e.what();
    ctx.log.warn("fetch failed", {{"url", git::redact_url(spec.url)}, {"error", e.what()}});
    remove_condition(obj, v1::condition::kReconciling);
    set_condition(obj, v1::condition::kReady, "False", v1::reason::kGitOperationFailed, message);
    if (write_status(env.client, kGitRepositoryType, before, obj))
      env.event(obj, events::kWarning, v1::reason::kGitOperationFailed, message);
    return controller::Result::after(std::min(interval, env.options.fetch_retry));
  }

  auto& status = status_of(obj);
  const std::string old_revision(json::get_string(before, {"status", "artifact", "revision"}));
  if (old_revision != resolved.revision || !status.contains("artifact")) {
    status["artifact"] = json::Object{{"revision", resolved.revision},
                                      {"path", "gitrepository/" + request.ns + "/" + request.name + "/" + resolved.commit},
                                      {"url", git::redact_url(spec.url)},
                                      {"message", resolved.message},
                                      {"lastUpdateTime", meta::format_rfc3339(meta::Clock::now())}};
  }
  std::string message = "stored artifact for revision '" + resolved.revision + "'";
  remove_condition(obj, v1::condition::kReconciling);
  remove_condition(obj, v1::condition::kStalled);
  set_condition(obj, v1::condition::kArtifactInStorage, "True", v1::reason::kSucceeded, message);
  set_condition(obj, v1::condition::kReady, "True", v1::reason::kSucceeded, message);
  write_status(env.client, kGitRepositoryType, before, obj);
  if (old_revision != resolved.revision) {
    ctx.log.info("new revision", {{"revision", resolved.revision}, {"fetched", resolved.fetched ? "true" : "false"}});
    env.event(obj, events::kNormal, "NewArtifact", message);
  }
  return controller::Result::after(interval);
}

}  // namespace capstan::gitops
