// The fields of Kustomization: Flux's names, required members and duration pattern, limited to
// what Capstan implements.
#include "apis/gitops/v1/crds.h"
#include "apis/gitops/v1/group.h"
#include "apis/gitops/v1/schema_common.h"
#include "apis/gitops/v1/types.h"

namespace capstan::apis::gitops::v1 {
namespace {

using codec::field;
using openapi::Schema;

const auto& source_ref_fields() {
  static const auto table = codec::table<CrossNamespaceSourceReference>(
      "The source of the manifests.",
      field("kind", &CrossNamespaceSourceReference::kind, Schema::string_enum({"GitRepository"}, "Kind of the source.")).required(),
      field("name", &CrossNamespaceSourceReference::name, openapi::object_name("Name of the source.")).required(),
      field("namespace", &CrossNamespaceSourceReference::ns,
            openapi::namespace_name("Namespace of the source; defaults to the Kustomization's.")));
  return table;
}

const auto& dependency_fields() {
  static const auto table = codec::table<DependencyReference>(
      "A Kustomization that must be Ready first.",
      field("name", &DependencyReference::name, openapi::object_name("Name of the object.")).required(),
      field("namespace", &DependencyReference::ns, openapi::namespace_name("Namespace of the object; defaults to the referrer's.")));
  return table;
}

const auto& common_metadata_fields() {
  static const auto table = codec::table<CommonMetadata>(
      "Labels and annotations added to every object applied.",
      field("labels", &CommonMetadata::labels, Schema::string_map("Labels added to every object.").max_properties(64)),
      field("annotations", &CommonMetadata::annotations, Schema::string_map("Annotations added to every object.").max_properties(64)));
  return table;
}

const auto& image_fields() {
  static const auto table = codec::table<Image>(
      "An image override: containers whose image is `name` get the new name, tag or digest.",
      field("name", &Image::name, Schema::string("Image name to match, without tag or digest.").max_length(1024)).required(),
      field("newName", &Image::new_name, Schema::string("New image name.").max_length(1024)),
      field("newTag", &Image::new_tag, Schema::string("New tag.").max_length(128)),
      field("digest", &Image::digest, Schema::string("New digest (wins over newTag).").max_length(256)));
  return table;
}

const auto& selector_fields() {
  static const auto table = codec::table<PatchSelector>(
      "The objects a patch applies to: regular expressions each matched against the whole value, and label and "
      "annotation selectors.",
      field("group", &PatchSelector::group, Schema::string("API group.").max_length(253)),
      field("version", &PatchSelector::version, Schema::string("API version.").max_length(64)),
      field("kind", &PatchSelector::kind, Schema::string("Kind.").max_length(253)),
      field("name", &PatchSelector::name, Schema::string("Name.").max_length(253)),
      field("namespace", &PatchSelector::ns, Schema::string("Namespace.").max_length(253)),
      field("labelSelector", &PatchSelector::label_selector, Schema::string("Label selector.").max_length(4096)),
      field("annotationSelector", &PatchSelector::annotation_selector, Schema::string("Annotation selector.").max_length(4096)));
  return table;
}

const auto& patch_fields() {
  static const auto table = codec::table<Patch>(
      "A patch and the objects it applies to: JSON 6902 (a list of operations, in YAML or JSON) or strategic merge (a map).",
      field("patch", &Patch::patch, Schema::string("The operations, or the strategic-merge patch.").max_length(256 * 1024)).required(),
      field("target", &Patch::target, PatchSelector::schema()));
  return table;
}

const auto& health_check_fields() {
  static const auto table = codec::table<HealthCheckReference>(
      "An object whose health the Kustomization waits for.",
      field("apiVersion", &HealthCheckReference::api_version, Schema::string("API version of the object, e.g. apps/v1.").max_length(317)),
      field("kind", &HealthCheckReference::kind, Schema::string("Kind of the object.").min_length(1).max_length(63)).required(),
      field("name", &HealthCheckReference::name, openapi::object_name("Name of the object.")).required(),
      field("namespace", &HealthCheckReference::ns, openapi::namespace_name("Namespace of the object; defaults to the Kustomization's.")));
  return table;
}

const auto& substitute_reference_fields() {
  static const auto table = codec::table<SubstituteReference>(
      "A ConfigMap or Secret of the Kustomization's namespace whose keys are variables.",
      field("kind", &SubstituteReference::kind, Schema::string_enum({"ConfigMap", "Secret"}, "ConfigMap or Secret.")).required(),
      field("name", &SubstituteReference::name, openapi::object_name("Its name.")).required(),
      field("optional", &SubstituteReference::optional, Schema::boolean("When it does not exist, go on without its variables.")));
  return table;
}

const auto& post_build_fields() {
  static const auto table = codec::table<PostBuild>(
      "Variables substituted into the built objects: ${VAR}, ${VAR:=default}; quoted values stay strings.",
      field("substitute", &PostBuild::substitute, Schema::string_map("Variables by name (they win over substituteFrom).").max_properties(1000)),
      field("substituteFrom", &PostBuild::substitute_from,
            Schema::array(SubstituteReference::schema(), "ConfigMaps and Secrets holding variables, later ones winning.").max_items(64)));
  return table;
}

const auto& decryption_fields() {
  static const auto table = codec::table<Decryption>(
      "Decrypt SOPS-encrypted objects, Secret values and secretGenerator sources before applying them.",
      field("provider", &Decryption::provider, Schema::string_enum({"sops"}, "The decryption provider: sops.")).required(),
      field("secretRef", &Decryption::secret_ref,
            SecretReference::schema().description(
                "A Secret of the Kustomization's namespace whose *.agekey entries hold age identities "
                "(AGE-SECRET-KEY-1...), read as the Kustomization's ServiceAccount.")));
  return table;
}

const auto& spec_fields() {
  static const auto table = codec::table<KustomizationSpec>(
      "What to apply from which source, and how.",
      field("sourceRef", &KustomizationSpec::source_ref, CrossNamespaceSourceReference::schema()).required(),
      field("interval", &KustomizationSpec::interval, duration("How often to re-apply (and so undo drift), e.g. 10m.")).required(),
      field("retryInterval", &KustomizationSpec::retry_interval, duration("How soon to retry after a failure. Default: interval.")),
      field("timeout", &KustomizationSpec::timeout, duration("Bound of one build and apply. Default: interval.")),
      field("path", &KustomizationSpec::path,
            Schema::string("Directory in the source holding the manifests (a kustomization.yaml or plain "
                           "YAML files, read recursively). Default: the repository root.")
                .max_length(4096)),
      field("prune", &KustomizationSpec::prune,
            Schema::boolean("Delete the objects this Kustomization applied before and no longer finds in the "
                            "source, and every object it applied when it is deleted."))
          .required(),
      field("targetNamespace", &KustomizationSpec::target_namespace,
            openapi::namespace_name("Namespace set on every namespaced object (overrides the manifests').")),
      field("suspend", &KustomizationSpec::suspend, Schema::boolean("Stop applying (objects already applied stay as they are).")),
      field("dependsOn", &KustomizationSpec::depends_on,
            Schema::array(DependencyReference::schema(), "Kustomizations that must be Ready before this one applies.").max_items(64)),
      field("commonMetadata", &KustomizationSpec::common_metadata, CommonMetadata::schema()),
      field("namePrefix", &KustomizationSpec::name_prefix, Schema::string("Prefix added to every object's name.").min_length(1).max_length(200)),
      field("nameSuffix", &KustomizationSpec::name_suffix, Schema::string("Suffix added to every object's name.").min_length(1).max_length(200)),
      field("patches", &KustomizationSpec::patches,
            Schema::array(Patch::schema(), "Patches (JSON 6902 or strategic merge) applied to the built objects (before namePrefix and nameSuffix).")
                .max_items(256)),
      field("images", &KustomizationSpec::images,
            Schema::array(Image::schema(), "Image overrides applied to the built objects' containers.").max_items(256)),
      field("serviceAccountName", &KustomizationSpec::service_account_name,
            openapi::object_name("ServiceAccount of this namespace that applies and prunes (by impersonation), so "
                                 "what Git may change is what that account may. Default: the manager's "
                                 "--gitops-default-service-account, or the manager itself when that is empty.")),
      field("postBuild", &KustomizationSpec::post_build, PostBuild::schema()),
      field("force", &KustomizationSpec::force,
            Schema::boolean("Recreate objects whose changes the API server refuses as immutable (a Deployment's selector, a "
                            "Job's template, ...).")),
      field("wait", &KustomizationSpec::wait,
            Schema::boolean("Wait, up to timeout, until every applied object is ready (kstatus) before the Kustomization is "
                            "Ready; healthChecks is then ignored.")),
      field("healthChecks", &KustomizationSpec::health_checks,
            Schema::array(HealthCheckReference::schema(), "Objects to wait for, up to timeout, before the Kustomization is Ready.")
                .max_items(256)),
      field("decryption", &KustomizationSpec::decryption, Decryption::schema()));
  return table;
}

const auto& resource_ref_fields() {
  static const auto table = codec::table<ResourceRef>("An applied object.",
                                                      field("id", &ResourceRef::id, Schema::string("<namespace>_<name>_<group>_<kind>.")).required(),
                                                      field("v", &ResourceRef::v, Schema::string("Its API version.")).required());
  return table;
}

const auto& inventory_fields() {
  static const auto table = codec::table<ResourceInventory>(
      "The objects applied by the last successful reconcile (what prune compares with).",
      field("entries", &ResourceInventory::entries, Schema::array(ResourceRef::schema(), "The applied objects.")));
  return table;
}

const auto& status_fields() {
  static const auto table = codec::table<KustomizationStatus>(
      "What was last applied.", field("observedGeneration", &KustomizationStatus::observed_generation, openapi::observed_generation()),
      field("conditions", &KustomizationStatus::conditions,
            openapi::conditions("Conditions: Ready, Reconciling, Stalled, Healthy.", "Ready, Reconciling, Stalled, Healthy", true)),
      field("lastAppliedRevision", &KustomizationStatus::last_applied_revision, Schema::string("The source revision last applied successfully.")),
      field("lastAttemptedRevision", &KustomizationStatus::last_attempted_revision, Schema::string("The source revision last tried.")),
      field("inventory", &KustomizationStatus::inventory, ResourceInventory::schema()),
      field("lastHandledReconcileAt", &KustomizationStatus::last_handled_reconcile_at, reconcile_request_status()));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(CrossNamespaceSourceReference, source_ref_fields)
CAPSTAN_CODEC_FROM(DependencyReference, dependency_fields)
CAPSTAN_CODEC_FROM(CommonMetadata, common_metadata_fields)
CAPSTAN_CODEC_FROM(Image, image_fields)
CAPSTAN_CODEC_FROM(PatchSelector, selector_fields)
CAPSTAN_CODEC_FROM(Patch, patch_fields)
CAPSTAN_CODEC_FROM(HealthCheckReference, health_check_fields)
CAPSTAN_CODEC_FROM(SubstituteReference, substitute_reference_fields)
CAPSTAN_CODEC_FROM(PostBuild, post_build_fields)
CAPSTAN_CODEC_FROM(Decryption, decryption_fields)
CAPSTAN_CODEC_FROM(KustomizationSpec, spec_fields)
CAPSTAN_CODEC_FROM(ResourceRef, resource_ref_fields)
CAPSTAN_CODEC_FROM(ResourceInventory, inventory_fields)
CAPSTAN_CODEC_FROM(KustomizationStatus, status_fields)

json::Value kustomization_schema() {
  return openapi::root(kApiVersion,
                       "A Kustomization applies the manifests of a directory of a source with server-side apply, keeps them "
                       "as in Git every interval and prunes what left Git (Flux's kustomize.toolkit.fluxcd.io/v1 "
                       "Kustomization).",
                       KustomizationSpec::schema(), KustomizationStatus::schema())
      .json();
}

}  // namespace capstan::apis::gitops::v1
