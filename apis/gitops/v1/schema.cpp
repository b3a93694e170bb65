// The OpenAPI v3 schemas of GitRepository and Kustomization: Flux's field names, required
// members and duration pattern, limited to what Capstan implements (types.h).
#include "apis/common/openapi.h"
#include "apis/gitops/v1/crds.h"
#include "apis/gitops/v1/group.h"

namespace capstan::apis::gitops::v1 {
namespace {

using openapi::Schema;

// Flux's pattern for metav1.Duration fields.
constexpr std::string_view kDurationPattern = R"(^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$)";

Schema duration(std::string_view description) { return std::move(Schema::string(description).pattern(kDurationPattern).max_length(64)); }

Schema reconcile_request_status() {
  return Schema::string("The last value of the reconcile.gitops.capstan.dev/requestedAt annotation that was handled.");
}

Schema git_repository_spec() {
  return std::move(
      Schema::object("What to fetch and how often.")
          .property("url", Schema::string("The repository URL: http(s)://, git:// or file://.")
                               .pattern(R"(^(http|https|git|file)://.*$)")
                               .max_length(2048))
          .property("interval", duration("How often to look for new commits on the ref, e.g. 1m."))
          .property("timeout", duration("Bound of one Git operation (ls-remote, fetch). Default 60s."))
          .property("ref",
                    Schema::object("The Git reference to follow; precedence commit > name > tag > branch. Default: branch master.")
                        .property("branch", Schema::string("Branch to follow.").max_length(255))
                        .property("tag", Schema::string("Tag to check out.").max_length(255))
                        .property("commit", Schema::string("Commit SHA-1 to check out (40 hex digits).")
                                                .pattern("^[0-9a-f]{40}$"))
                        .property("name", Schema::string("Full reference name to follow, e.g. refs/pull/420/head.").max_length(255)))
          .property("suspend", Schema::boolean("Stop reconciling this repository (the last artifact stays available)."))
          .required({"url", "interval"}));
}

Schema git_repository_status() {
  return std::move(
      Schema::object("What was last fetched.")
          .property("observedGeneration", openapi::observed_generation())
          .property("conditions", openapi::conditions("Conditions: Ready, Reconciling, Stalled, ArtifactInStorage.",
                                                      "Ready, Reconciling, Stalled, ArtifactInStorage", true))
          .property("artifact",
                    Schema::object("The commit the ref resolved to, kept in the manager's local mirror.")
                        .property("revision", Schema::string("<ref>@sha1:<commit>, or sha1:<commit> for a commit ref."))
                        .property("path", Schema::string("Where the commit lives: the mirror of url at that commit."))
                        .property("url", Schema::string("The repository URL the artifact was fetched from."))
                        .property("message", Schema::string("The first line of the commit message."))
                        .property("lastUpdateTime", Schema::date_time("When the revision last changed.")))
          .property("lastHandledReconcileAt", reconcile_request_status()));
}

Schema object_ref(std::string_view description) {
  return std::move(Schema::object(description)
                       .property("name", openapi::object_name("Name of the object."))
                       .property("namespace", openapi::namespace_name("Namespace of the object; defaults to the referrer's."))
                       .required({"name"}));
}

Schema kustomization_spec() {
  return std::move(
      Schema::object("What to apply from which source, and how.")
          .property("sourceRef", Schema::object("The source of the manifests.")
                                     .property("kind", Schema::string_enum({"GitRepository"}, "Kind of the source."))
                                     .property("name", openapi::object_name("Name of the source."))
                                     .property("namespace", openapi::namespace_name("Namespace of the source; defaults to the Kustomization's."))
                                     .required({"kind", "name"}))
          .property("interval", duration("How often to re-apply (and so undo drift), e.g. 10m."))
          .property("retryInterval", duration("How soon to retry after a failure. Default: interval."))
          .property("timeout", duration("Bound of one build and apply. Default: interval."))
          .property("path", Schema::string("Directory in the source holding the manifests (a kustomization.yaml or plain "
                                           "YAML files, read recursively). Default: the repository root.")
                                .max_length(4096))
          .property("prune", Schema::boolean("Delete the objects this Kustomization applied before and no longer finds in the "
                                             "source, and every object it applied when it is deleted."))
          .property("targetNamespace", openapi::namespace_name("Namespace set on every namespaced object (overrides the manifests')."))
          .property("suspend", Schema::boolean("Stop applying (objects already applied stay as they are)."))
          .property("dependsOn", Schema::array(object_ref("A Kustomization that must be Ready first."),
                                               "Kustomizations that must be Ready before this one applies.")
                                 .max_items(64))
          .property("commonMetadata",
                    Schema::object("Labels and annotations added to every object applied.")
                        .property("labels", Schema::string_map("Labels added to every object.").max_properties(64))
                        .property("annotations", Schema::string_map("Annotations added to every object.").max_properties(64)))
          .property("namePrefix", Schema::string("Prefix added to every object's name.").min_length(1).max_length(200))
          .property("nameSuffix", Schema::string("Suffix added to every object's name.").min_length(1).max_length(200))
          .property("serviceAccountName",
                    openapi::object_name("ServiceAccount of this namespace that applies and prunes (by impersonation), so "
                                         "what Git may change is what that account may. Default: the manager's "
                                         "--gitops-default-service-account, or the manager itself when that is empty."))
          .required({"sourceRef", "interval", "prune"}));
}

Schema kustomization_status() {
  auto entry = Schema::object("An applied object.")
                   .property("id", Schema::string("<namespace>_<name>_<group>_<kind>."))
                   .property("v", Schema::string("Its API version."))
                   .required({"id", "v"});
  return std::move(
      Schema::object("What was last applied.")
          .property("observedGeneration", openapi::observed_generation())
          .property("conditions",
                    openapi::conditions("Conditions: Ready, Reconciling, Stalled.", "Ready, Reconciling, Stalled", true))
          .property("lastAppliedRevision", Schema::string("The source revision last applied successfully."))
          .property("lastAttemptedRevision", Schema::string("The source revision last tried."))
          .property("inventory", Schema::object("The objects applied by the last successful reconcile (what prune compares with).")
                                     .property("entries", Schema::array(entry, "The applied objects.")))
          .property("lastHandledReconcileAt", reconcile_request_status()));
}

}  // namespace

json::Value git_repository_schema() {
  return openapi::root(kApiVersion,
                       "A GitRepository follows a Git reference and keeps its latest commit in the manager's local mirror for "
                       "Kustomizations to apply (Flux's source.toolkit.fluxcd.io/v1 GitRepository).",
                       git_repository_spec(), git_repository_status())
      .json();
}

json::Value kustomization_schema() {
  return openapi::root(kApiVersion,
                       "A Kustomization applies the manifests of a directory of a source with server-side apply, keeps them "
                       "as in Git every interval and prunes what left Git (Flux's kustomize.toolkit.fluxcd.io/v1 "
                       "Kustomization).",
                       kustomization_spec(), kustomization_status())
      .json();
}

}  // namespace capstan::apis::gitops::v1
