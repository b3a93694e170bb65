// The gitops.capstan.dev/v1 API group: Flux's GitRepository (source.toolkit.fluxcd.io/v1) and
// Kustomization (kustomize.toolkit.fluxcd.io/v1) under one group name, so a Flux manifest ports
// by changing its apiVersion. The spec fields keep Flux's names and meanings where Capstan
// implements them (types.h lists which).
#pragma once

#include "runtime/meta/gvk.h"

#include <string_view>

namespace capstan::apis::gitops::v1 {

// The resources of this group (one declaration for the controllers, webhooks and tools).
inline const meta::ResourceType kGitRepositoryType{{"gitops.capstan.dev", "v1", "gitrepositories"}, "GitRepository", true};
inline const meta::ResourceType kKustomizationType{{"gitops.capstan.dev", "v1", "kustomizations"}, "Kustomization", true};

inline constexpr std::string_view kGroup = "gitops.capstan.dev";
inline constexpr std::string_view kVersion = "v1";
inline constexpr std::string_view kApiVersion = "gitops.capstan.dev/v1";

inline constexpr std::string_view kGitRepositoryKind = "GitRepository";
inline constexpr std::string_view kKustomizationKind = "Kustomization";

// Labels put on every object a Kustomization applies (Flux's kustomize.toolkit.fluxcd.io/name
// and /namespace): who owns it, for `kubectl get -l` and for the prune safety check.
inline constexpr std::string_view kNameLabel = "gitops.capstan.dev/name";
inline constexpr std::string_view kNamespaceLabel = "gitops.capstan.dev/namespace";
// Per-object opt-outs, on the manifests in Git (Flux's kustomize.toolkit.fluxcd.io/prune and
// /reconcile): "disabled" keeps an object when it leaves Git / leaves it alone once it exists.
inline constexpr std::string_view kPruneAnnotation = "gitops.capstan.dev/prune";
inline constexpr std::string_view kReconcileAnnotation = "gitops.capstan.dev/reconcile";
inline constexpr std::string_view kDisabled = "disabled";
// Asks for a reconcile now whatever the interval (Flux's reconcile.fluxcd.io/requestedAt); the
// value handled last is kept in status.lastHandledReconcileAt.
inline constexpr std::string_view kRequestedAtAnnotation = "reconcile.gitops.capstan.dev/requestedAt";
// Held by a Kustomization with prune enabled until the objects it applied are deleted.
inline constexpr std::string_view kFinalizer = "finalizers.gitops.capstan.dev";
// The field manager of every server-side apply (Flux's "kustomize-controller").
inline constexpr std::string_view kFieldManager = "capstan-gitops";

// Condition types (kstatus, as Flux's) and the reasons the controllers use.
namespace condition {
inline constexpr std::string_view kReady = "Ready";
inline constexpr std::string_view kReconciling = "Reconciling";
inline constexpr std::string_view kStalled = "Stalled";
inline constexpr std::string_view kArtifactInStorage = "ArtifactInStorage";  // GitRepository
inline constexpr std::string_view kHealthy = "Healthy";                      // Kustomization with wait or healthChecks
}  // namespace condition

namespace reason {
inline constexpr std::string_view kProgressing = "Progressing";
inline constexpr std::string_view kSucceeded = "Succeeded";                              // GitRepository Ready
inline constexpr std::string_view kGitOperationFailed = "GitOperationFailed";            // GitRepository
inline constexpr std::string_view kAuthenticationFailed = "AuthenticationFailed";        // GitRepository: its secretRef
inline constexpr std::string_view kReconciliationSucceeded = "ReconciliationSucceeded";  // Kustomization Ready
inline constexpr std::string_view kArtifactFailed = "ArtifactFailed";
inline constexpr std::string_view kBuildFailed = "BuildFailed";
inline constexpr std::string_view kReconciliationFailed = "ReconciliationFailed";
inline constexpr std::string_view kPruneFailed = "PruneFailed";
inline constexpr std::string_view kDependencyNotReady = "DependencyNotReady";
inline constexpr std::string_view kAccessDenied = "AccessDenied";  // a cross-namespace reference, refused by flag
inline constexpr std::string_view kSuspended = "Suspended";
inline constexpr std::string_view kHealthCheckFailed = "HealthCheckFailed";
inline constexpr std::string_view kIncludeUnavailable = "IncludeUnavailable";        // GitRepository: an include has no artifact
inline constexpr std::string_view kStorageOperationFailed = "StorageOperationFailed";  // GitRepository: its files cannot be read
}  // namespace reason

}  // namespace capstan::apis::gitops::v1
