// gitops.capstan.dev/v1 GitRepository and Kustomization as C++ types. Each struct's fields are
// listed once, in git_repository.cpp and kustomization.cpp, and give its decoder, encoder and
// CRD schema (apis/common/codec.h).
//
// Implemented from Flux (the rest of Flux's spec is not in the CRD schema, so `kubectl apply`,
// which asks for strict field validation, refuses a manifest using it instead of half-applying it):
//   GitRepository  url, interval, timeout (60s), ref{branch|tag|commit|name|semver} (default
//                  branch master), suspend, secretRef, ignore, include
//   Kustomization  sourceRef{kind: GitRepository, name, namespace}, interval, retryInterval
//                  (= interval), path (repository root), prune, targetNamespace, suspend,
//                  timeout (= interval), dependsOn[{name, namespace}], commonMetadata{labels,
//                  annotations}, namePrefix, nameSuffix, serviceAccountName (applied and pruned
//                  as that ServiceAccount of the Kustomization's namespace, by impersonation),
//                  decryption{provider: sops, secretRef} (SOPS with age keys)
// The CRD schema checks types, required members and duration syntax; decoding throws
// codec::DecodeError naming the field for what it cannot check (durations that overflow).
#pragma once

#include "apis/common/codec.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capstan::apis::gitops::v1 {

using Duration = std::chrono::milliseconds;

inline constexpr Duration kDefaultGitTimeout{60'000};
inline constexpr std::string_view kDefaultBranch = "master";

struct GitRepositoryRef {
  std::string branch, tag, commit, name;  // precedence: commit > name > semver > tag > branch; all empty = branch master
  std::string semver;                     // a range: the highest tag in it (semver.h)
  CAPSTAN_CODEC(GitRepositoryRef);
};

// A Secret of the same namespace (Flux's LocalObjectReference).
struct SecretReference {
  std::string name;
  CAPSTAN_CODEC(SecretReference);
};

// Another GitRepository of the same namespace whose artifact is copied into this one's (Flux's
// GitRepositoryInclude): its `fromPath` directory to `toPath` (default: its name), replacing what
// this repository has there.
struct GitRepositoryInclude {
  SecretReference repository;  // a LocalObjectReference: {name}
  std::string from_path;       // "" = its root
  std::string to_path;         // "" = the included repository's name
  std::string effective_to_path() const { return to_path.empty() ? repository.name : to_path; }
  CAPSTAN_CODEC(GitRepositoryInclude);
};

inline constexpr std::size_t kMaxIncludes = 16;

struct GitRepositorySpec {
  std::string url;
  // Credentials (username/password, bearerToken, identity + known_hosts), as Flux's secretRef.
  std::optional<SecretReference> secret_ref;
  Duration interval{};
  Duration timeout = kDefaultGitTimeout;
  GitRepositoryRef ref;
  bool suspend = false;
  // Files left out of what the Kustomizations read (.gitignore syntax, after the defaults and
  // the repository's .sourceignore files: controllers/gitops/git/source_ignore.h).
  std::optional<std::string> ignore;
  std::vector<GitRepositoryInclude> include;

  // ref, or branch master when it names nothing.
  GitRepositoryRef effective_ref() const;
  CAPSTAN_CODEC(GitRepositorySpec);
};

// The commit the ref resolved to, in the manager's mirror.
struct Artifact {
  std::string revision;  // "<ref>@sha1:<commit>", or "sha1:<commit>" for a commit ref
  // "gitrepository/<ns>/<name>/<id>.tar.gz", id the hex SHA-256 over the artifact's paths and
  // blob ids (controllers/gitops/artifact.h): it names the files the Kustomizations read.
  std::string path;
  std::string url;  // http://<storage address>/<path> when the manager serves artifacts, else ""
  std::string message;
  std::optional<meta::TimePoint> last_update_time;
  // "sha256:<hex>" of the .tar.gz of those files (controllers/gitops/artifact_archive.h), as Flux
  // records it: what a download of url receives.
  std::string digest;
  std::optional<std::int64_t> size;  // bytes of the .tar.gz
  CAPSTAN_CODEC(Artifact);
};

struct GitRepositoryStatus {
  std::int64_t observed_generation = 0;
  std::vector<meta::Condition> conditions;  // Ready, Reconciling, Stalled, Healthy, ArtifactInStorage
  std::optional<Artifact> artifact;
  std::vector<Artifact> included_artifacts;  // the includes' artifacts, in spec.include's order
  std::string last_handled_reconcile_at;
  CAPSTAN_CODEC(GitRepositoryStatus);
};

// A Kustomization's dependency: a Kustomization, by default in the referrer's namespace.
struct DependencyReference {
  std::string name;
  std::string ns;  // empty = the referring object's namespace
  CAPSTAN_CODEC(DependencyReference);
};

struct CrossNamespaceSourceReference {
  std::string kind = "GitRepository";
  std::string name;
  std::string ns;  // empty = the referring object's namespace
  CAPSTAN_CODEC(CrossNamespaceSourceReference);
};

struct CommonMetadata {
  std::map<std::string, std::string> labels, annotations;
  CAPSTAN_CODEC(CommonMetadata);
};

// kustomize's image override (Flux's spec.images).
struct Image {
  std::string name, new_name, new_tag, digest;
  CAPSTAN_CODEC(Image);
};

// Which objects a patch applies to (kustomize's Selector: regular expressions matched whole).
struct PatchSelector {
  std::string group, version, kind, name, ns, label_selector, annotation_selector;
  CAPSTAN_CODEC(PatchSelector);
};

// A patch and its target (Flux's spec.patches): JSON 6902 or strategic merge; without a target, a
// strategic-merge patch applies to the object it names.
struct Patch {
  std::string patch;
  std::optional<PatchSelector> target;
  CAPSTAN_CODEC(Patch);
};

// An object whose health a Kustomization waits for (Flux's NamespacedObjectKindReference).
struct HealthCheckReference {
  std::string api_version, kind, name, ns;  // ns "": the Kustomization's (for namespaced kinds)
  CAPSTAN_CODEC(HealthCheckReference);
};

// Where post-build variables come from (Flux's SubstituteReference): a ConfigMap or Secret of the
// Kustomization's namespace, its keys the variables' names.
struct SubstituteReference {
  std::string kind;  // ConfigMap or Secret
  std::string name;
  bool optional = false;  // missing: no variables from it (else the build fails)
  CAPSTAN_CODEC(SubstituteReference);
};

// Variables substituted into the built objects (Flux's spec.postBuild): substituteFrom in order,
// then substitute, each later one winning.
struct PostBuild {
  std::map<std::string, std::string> substitute;
  std::vector<SubstituteReference> substitute_from;
  CAPSTAN_CODEC(PostBuild);
};

// How to decrypt SOPS-encrypted manifests (Flux's spec.decryption): the age identities are the
// `*.agekey` entries of a Secret of the Kustomization's namespace.
struct Decryption {
  std::string provider = "sops";  // the only provider
  std::optional<SecretReference> secret_ref;
  CAPSTAN_CODEC(Decryption);
};

struct KustomizationSpec {
  CrossNamespaceSourceReference source_ref;
  Duration interval{};
  Duration retry_interval{};  // 0 = interval
  Duration timeout{};         // 0 = interval
  std::string path;           // "" = the repository root
  bool prune = false;
  std::string target_namespace;
  bool suspend = false;
  std::vector<DependencyReference> depends_on;
  CommonMetadata common_metadata;
  std::string name_prefix, name_suffix;
  std::vector<Patch> patches;
  std::vector<Image> images;
  std::string service_account_name;  // "" = the controller's default (--gitops-default-service-account)
  std::optional<PostBuild> post_build;
  bool force = false;                 // recreate objects whose changes are refused as immutable
  bool wait = false;                  // every applied object must become ready (kstatus)
  std::vector<HealthCheckReference> health_checks;
  std::optional<Decryption> decryption;

  Duration effective_retry_interval() const { return retry_interval.count() > 0 ? retry_interval : interval; }
  Duration effective_timeout() const { return timeout.count() > 0 ? timeout : interval; }
  CAPSTAN_CODEC(KustomizationSpec);
};

// An applied object, as Flux's inventory names it: id "<namespace>_<name>_<group>_<kind>", v its version.
struct ResourceRef {
  std::string id;
  std::string v;
  CAPSTAN_CODEC(ResourceRef);
};

struct ResourceInventory {
  std::vector<ResourceRef> entries;
  CAPSTAN_CODEC(ResourceInventory);
};

struct KustomizationStatus {
  std::int64_t observed_generation = 0;
  std::vector<meta::Condition> conditions;  // Ready, Reconciling, Stalled, Healthy
  std::string last_applied_revision;
  std::string last_attempted_revision;
  std::optional<ResourceInventory> inventory;
  std::string last_handled_reconcile_at;
  CAPSTAN_CODEC(KustomizationStatus);
};

using GitRepository = codec::Resource<GitRepositorySpec, GitRepositoryStatus>;
using Kustomization = codec::Resource<KustomizationSpec, KustomizationStatus>;

// The ref's display form for revisions: "main", "v1.0", "refs/pull/1/head", or "" for a commit.
std::string ref_label(const GitRepositoryRef& ref);

}  // namespace capstan::apis::gitops::v1
