// The fields of GitRepository: Flux's names, required members and duration pattern, limited to
// what Capstan implements.
#include "apis/gitops/v1/crds.h"
#include "apis/gitops/v1/group.h"
#include "apis/gitops/v1/schema_common.h"
#include "apis/gitops/v1/types.h"

namespace capstan::apis::gitops::v1 {
namespace {

using codec::field;
using openapi::Schema;

const auto& ref_fields() {
  static const auto table = codec::table<GitRepositoryRef>(
      "The Git reference to follow; precedence commit > name > tag > branch. Default: branch master.",
      field("branch", &GitRepositoryRef::branch, Schema::string("Branch to follow.").max_length(255)),
      field("tag", &GitRepositoryRef::tag, Schema::string("Tag to check out.").max_length(255)),
      field("commit", &GitRepositoryRef::commit, Schema::string("Commit SHA-1 to check out (40 hex digits).").pattern("^[0-9a-f]{40}$")),
      field("name", &GitRepositoryRef::name, Schema::string("Full reference name to follow, e.g. refs/pull/420/head.").max_length(255)),
      field("semver", &GitRepositoryRef::semver,
            Schema::string("A semver range, e.g. \">=1.0.0 <2.0.0\" or ^1.2: the highest tag whose name is a version in it.").max_length(1024)));
  return table;
}

const auto& secret_ref_fields() {
  static const auto table = codec::table<SecretReference>(
      "A Secret of the GitRepository's namespace.", field("name", &SecretReference::name, openapi::object_name("Its name.")).required());
  return table;
}

const auto& include_fields() {
  static const auto table = codec::table<GitRepositoryInclude>(
      "Another GitRepository of this namespace whose artifact is copied into this one's.",
      field("repository", &GitRepositoryInclude::repository,
            SecretReference::schema().description("The GitRepository to include (of this namespace).")).required(),
      field("fromPath", &GitRepositoryInclude::from_path,
            Schema::string("Directory of the included artifact to copy. Default: its root.").max_length(4096)),
      field("toPath", &GitRepositoryInclude::to_path,
            Schema::string("Directory of this artifact to copy it to (what was there is replaced). Default: the included repository's name.")
                .max_length(4096)));
  return table;
}

const auto& spec_fields() {
  static const auto table = codec::table<GitRepositorySpec>(
      "What to fetch and how often.",
      field("url", &GitRepositorySpec::url,
            Schema::string("The repository URL: http(s)://, ssh://, git:// or file://.").pattern(R"(^(http|https|git|ssh|file)://.*$)").max_length(2048))
          .required(),
      field("secretRef", &GitRepositorySpec::secret_ref,
            SecretReference::schema().description(
                "Secret with the credentials: username and password (http(s) basic), bearerToken (http(s)), identity (SSH "
                "private key; password is its passphrase), known_hosts (required for ssh://: an unknown host key is refused) and ca.crt "
                "(CA certificates an https server's certificate may chain to, besides the system's).")),
      field("interval", &GitRepositorySpec::interval, duration("How often to look for new commits on the ref, e.g. 1m.")).required(),
      field("timeout", &GitRepositorySpec::timeout, duration("Bound of one Git operation (ls-remote, fetch). Default 60s.")),
      field("ref", &GitRepositorySpec::ref, GitRepositoryRef::schema()),
      field("suspend", &GitRepositorySpec::suspend, Schema::boolean("Stop reconciling this repository (the last artifact stays available).")),
      field("ignore", &GitRepositorySpec::ignore,
            Schema::string("Files to leave out, in .gitignore syntax, after the defaults (.git/, CI configs, images, archives) and the "
                           "repository's .sourceignore files; '!pattern' brings a file back.")
                .max_length(65536)),
      field("include", &GitRepositorySpec::include,
            Schema::array(GitRepositoryInclude::schema(), "Other GitRepositories whose artifacts are copied into this one's.")
                .max_items(static_cast<std::int64_t>(kMaxIncludes))));
  return table;
}

const auto& artifact_fields() {
  static const auto table = codec::table<Artifact>(
      "The commit the ref resolved to, kept in the manager's local mirror.",
      field("revision", &Artifact::revision, Schema::string("<ref>@sha1:<commit>, or sha1:<commit> for a commit ref.")),
      field("path", &Artifact::path,
            Schema::string("gitrepository/<namespace>/<name>/<id>.tar.gz; id is the SHA-256 over the artifact's paths and blob ids.")),
      field("url", &Artifact::url,
            Schema::string("Where the manager serves the artifact's tarball (--gitops-storage-addr); empty when it serves none.")),
      field("message", &Artifact::message, Schema::string("The first line of the commit message.")),
      field("lastUpdateTime", &Artifact::last_update_time, Schema::date_time("When the revision last changed.")),
      field("digest", &Artifact::digest,
            Schema::string("sha256:<hex> of the artifact's tarball: the files after ignore rules and includes.")),
      field("size", &Artifact::size, Schema::integer("Bytes of the artifact's tarball.", "int64").minimum(0)));
  return table;
}

const auto& status_fields() {
  static const auto table = codec::table<GitRepositoryStatus>(
      "What was last fetched.", field("observedGeneration", &GitRepositoryStatus::observed_generation, openapi::observed_generation()),
      field("conditions", &GitRepositoryStatus::conditions,
            openapi::conditions("Conditions: Ready, Reconciling, Stalled, ArtifactInStorage.", "Ready, Reconciling, Stalled, ArtifactInStorage",
                                true)),
      field("artifact", &GitRepositoryStatus::artifact, Artifact::schema()),
      field("includedArtifacts", &GitRepositoryStatus::included_artifacts,
            Schema::array(Artifact::schema(), "The artifacts of spec.include, in its order.")),
      field("lastHandledReconcileAt", &GitRepositoryStatus::last_handled_reconcile_at, reconcile_request_status()));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(SecretReference, secret_ref_fields)
CAPSTAN_CODEC_FROM(GitRepositoryInclude, include_fields)
CAPSTAN_CODEC_FROM(GitRepositoryRef, ref_fields)
CAPSTAN_CODEC_FROM(GitRepositorySpec, spec_fields)
CAPSTAN_CODEC_FROM(Artifact, artifact_fields)
CAPSTAN_CODEC_FROM(GitRepositoryStatus, status_fields)

GitRepositoryRef GitRepositorySpec::effective_ref() const {
  if (!ref.branch.empty() || !ref.tag.empty() || !ref.commit.empty() || !ref.name.empty() || !ref.semver.empty()) return ref;
  GitRepositoryRef r;
  r.branch = std::string(kDefaultBranch);
  return r;
}

std::string ref_label(const GitRepositoryRef& ref) {
  if (!ref.commit.empty()) return "";
  if (!ref.name.empty()) return ref.name;
  if (!ref.semver.empty()) return "";  // the tag the range resolves to, known only from the remote
  if (!ref.tag.empty()) return ref.tag;
  return ref.branch.empty() ? std::string(kDefaultBranch) : ref.branch;
}

json::Value git_repository_schema() {
  return openapi::root(kApiVersion,
                       "A GitRepository follows a Git reference and keeps its latest commit in the manager's local mirror for "
                       "Kustomizations to apply (Flux's source.toolkit.fluxcd.io/v1 GitRepository).",
                       GitRepositorySpec::schema(), GitRepositoryStatus::schema())
      .json();
}

}  // namespace capstan::apis::gitops::v1
