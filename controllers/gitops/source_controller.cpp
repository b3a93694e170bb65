#include "controllers/gitops/source_controller.h"

#include "apis/gitops/v1/group.h"
#include "apis/gitops/v1/types.h"
#include "apis/gitops/v1/validation.h"
#include "controllers/gitops/artifact.h"
#include "controllers/gitops/artifact_archive.h"
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
  const std::int64_t generation = meta::generation_of(before);
  v1::GitRepository repo;
  // Stalled: nothing to retry until the spec changes.
  auto stalled = [&](const std::string& message) {
    set_condition(repo.status.conditions, v1::condition::kStalled, "True", "InvalidSpec", message, generation);
    set_condition(repo.status.conditions, v1::condition::kReady, "False", "InvalidSpec", message, generation);
    write_status(env.client, kGitRepositoryType, before, repo.status);
    return controller::TerminalError("GitRepository " + request.key() + ": " + message);
  };
  try {
    repo = v1::GitRepository::from_json(before);
  } catch (const apis::codec::DecodeError& e) {
    repo.status = read_status<v1::GitRepositoryStatus>(before);
    throw stalled(e.what());
  }
  const v1::GitRepositorySpec& spec = repo.spec;
  auto& status = repo.status;
  if (spec.suspend) {
    ctx.log.debug("suspended");
    return controller::Result::done();
  }
  // What the webhook refuses is refused here too: objects made before it, or in the manager's
  // own namespace (which no webhook sees), must not make the manager read its own files.
  v1::ValidationOptions vo;
  if (!env.options.url_schemes.empty()) vo.url_schemes = env.options.url_schemes;
  if (auto causes = v1::validate_git_repository(before, vo); !causes.empty()) {
    std::string message;
    for (const auto& c : causes) message += (message.empty() ? "" : "; ") + c.error();
    throw stalled(message);
  }
  const milliseconds interval = spec.interval > milliseconds::zero() ? spec.interval : milliseconds(60'000);

  const auto wanted = spec.effective_ref();
  git::Ref ref{wanted.branch, wanted.tag, wanted.commit, wanted.name, wanted.semver};
  git::Resolved resolved;
  std::optional<git::Credentials> credentials;
  try {
    credentials = env.credentials(request.ns, spec.secret_ref);
  } catch (const std::exception& e) {
    const std::string message = std::string("failed to read the credentials: ") + e.what();
    remove_condition(status.conditions, v1::condition::kReconciling);
    set_condition(status.conditions, v1::condition::kReady, "False", v1::reason::kAuthenticationFailed, message, generation);
    if (write_status(env.client, kGitRepositoryType, before, status))
      env.event(before, events::kWarning, v1::reason::kAuthenticationFailed, message);
    return controller::Result::after(std::min(interval, env.options.fetch_retry));
  }
  try {
    resolved = env.mirrors.sync(spec.url, ref, spec.timeout, credentials ? &*credentials : nullptr);
  } catch (const std::exception& e) {
    std::string message = std::string("failed to fetch from ") + git::redact_url(spec.url) + ": " + e.what();
    ctx.log.warn("fetch failed", {{"url", git::redact_url(spec.url)}, {"error", e.what()}});
    remove_condition(status.conditions, v1::condition::kReconciling);
    set_condition(status.conditions, v1::condition::kReady, "False", v1::reason::kGitOperationFailed, message, generation);
    if (write_status(env.client, kGitRepositoryType, before, status))
      env.event(before, events::kWarning, v1::reason::kGitOperationFailed, message);
    return controller::Result::after(std::min(interval, env.options.fetch_retry));
  }

  // The includes' artifacts; then the artifact is listed (paths and blob ids) and its tarball
  // digested again when its revision, an include's artifact or the spec changed (and only then:
  // an idle interval walks no tree and reads no file).
  auto not_ready = [&](std::string_view reason, const std::string& message) {
    remove_condition(status.conditions, v1::condition::kReconciling);
    set_condition(status.conditions, v1::condition::kReady, "False", reason, message, generation);
    if (write_status(env.client, kGitRepositoryType, before, status)) env.event(before, events::kWarning, reason, message);
    return controller::Result::after(std::min(interval, env.options.fetch_retry));
  };
  std::vector<v1::Artifact> included;
  for (const auto& inc : spec.include) {
    auto other = env.repositories.get(request.ns, inc.repository.name);
    std::optional<v1::Artifact> artifact;
    if (other) {
      try {
        artifact = v1::GitRepository::from_json(other->value()).status.artifact;
      } catch (const std::exception&) {
      }
    }
    if (!artifact) return not_ready(v1::reason::kIncludeUnavailable, "include '" + request.ns + "/" + inc.repository.name + "' has no artifact yet");
    included.push_back(std::move(*artifact));
  }
  const std::string old_revision = status.artifact ? status.artifact->revision : "";
  auto same_artifacts = [](const std::vector<v1::Artifact>& a, const std::vector<v1::Artifact>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].revision != b[i].revision || a[i].digest != b[i].digest) return false;
    return true;
  };
  // An artifact recorded before tarballs were digested (no size), or under another storage
  // address, is recorded again.
  auto recorded_elsewhere = [&](const v1::Artifact& a) {
    return !a.size || a.url != (env.artifact_base_url.empty() ? "" : env.artifact_base_url + "/" + a.path);
  };
  if (!status.artifact || old_revision != resolved.revision || recorded_elsewhere(*status.artifact) ||
      status.observed_generation != generation || !same_artifacts(status.included_artifacts, included)) {
    std::string path;
    ArchiveSummary archive;
    try {
      auto listing = std::make_shared<const ArtifactListing>(artifact_listing(env, request.ns, repo, resolved.commit));
      const std::string id = listing_id(*listing);
      path = artifact_path(request.ns, request.name, id);
      // The tarball is made once to digest it (the files read from the mirror), not kept: the
      // artifact server makes it again, byte for byte, when it is downloaded.
      archive = *write_artifact_archive(env.mirrors, *listing);
      env.artifacts.put(request.key() + "@" + id, std::move(listing));  // what the Kustomizations will read next
    } catch (const IncludeUnavailable& e) {
      return not_ready(v1::reason::kIncludeUnavailable, e.what());
    } catch (const std::exception& e) {
      return not_ready(v1::reason::kStorageOperationFailed, std::string("storing the artifact of revision ") + resolved.revision + ": " + e.what());
    }
    const bool new_revision = old_revision != resolved.revision || !status.artifact;
    v1::Artifact artifact;
    artifact.revision = resolved.revision;
    artifact.url = env.artifact_base_url.empty() ? "" : env.artifact_base_url + "/" + path;
    artifact.path = std::move(path);
    artifact.message = resolved.message;
    artifact.last_update_time = new_revision ? meta::Clock::now() : status.artifact->last_update_time.value_or(meta::Clock::now());
    artifact.digest = std::move(archive.digest);
    artifact.size = static_cast<std::int64_t>(archive.size);
    status.artifact = std::move(artifact);
    status.included_artifacts = std::move(included);
  }
  std::string message = "stored artifact for revision '" + resolved.revision + "'";
  remove_condition(status.conditions, v1::condition::kReconciling);
  remove_condition(status.conditions, v1::condition::kStalled);
  set_condition(status.conditions, v1::condition::kArtifactInStorage, "True", v1::reason::kSucceeded, message, generation);
  set_condition(status.conditions, v1::condition::kReady, "True", v1::reason::kSucceeded, message, generation);
  write_status(env.client, kGitRepositoryType, before, status);
  if (old_revision != resolved.revision) {
    ctx.log.info("new revision", {{"revision", resolved.revision}, {"fetched", resolved.fetched ? "true" : "false"}});
    env.event(before, events::kNormal, "NewArtifact", message);
  }
  return controller::Result::after(interval);
}

}  // namespace capstan::gitops
