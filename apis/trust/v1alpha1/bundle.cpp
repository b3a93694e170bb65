#include "apis/trust/v1alpha1/bundle.h"

#include "apis/trust/v1alpha1/group.h"

namespace capstan::apis::trust::v1alpha1 {

using openapi::Schema;

namespace {

const auto& source_object_fields() {
  using S = SourceObjectKeySelector;
  static const auto table = codec::table<S>(
      "A key of a ConfigMap or Secret in the trust namespace holding PEM certificates.",
      codec::field("name", &S::name, Schema::string("Name of the object in the trust namespace. Cannot be set with selector.").max_length(253)),
      codec::field("selector", &S::selector,
                   openapi::label_selector("Every object of the trust namespace with these labels, in name order. Cannot be set with name.")),
      codec::field("key", &S::key, Schema::string("Key of the entry in its data. Cannot be set with includeAllKeys.").max_length(253)),
      codec::field("includeAllKeys", &S::include_all_keys,
                   Schema::boolean("Use every entry of its data (in key order). Cannot be set with key.")));
  return table;
}

const auto& source_fields() {
  using S = BundleSource;
  static const auto table = codec::table<S>(
      "One source of certificates: exactly one of configMap, secret, inLine and useDefaultCAs.",
      codec::field("configMap", &S::config_map, SourceObjectKeySelector::schema()),
      codec::field("secret", &S::secret, SourceObjectKeySelector::schema()),
      codec::field("inLine", &S::in_line,
                   Schema::string("PEM certificates written in the Bundle.").max_length(static_cast<std::int64_t>(kMaxInLineBytes))),
      codec::field("useDefaultCAs", &S::use_default_cas,
                   Schema::boolean("Add the system's public CAs (the manager's --default-ca-package, Debian's "
                                   "ca-certificates by default); status.defaultCAVersion names the package read.")));
  return table;
}

const auto& target_metadata_fields() {
  using S = TargetMetadata;
  static const auto table = codec::table<S>(
      "Labels and annotations of the targets.",
      codec::field("annotations", &S::annotations, Schema::string_map("Annotations of each target.").max_properties(64)),
      codec::field("labels", &S::labels, Schema::string_map("Labels of each target.").max_properties(64)));
  return table;
}

const auto& target_template_fields() {
  using S = TargetTemplate;
  static const auto table = codec::table<S>(
      "A target object of the Bundle's name in each selected namespace.",
      codec::field("key", &S::key, Schema::string("Key of the PEM bundle in the target's data.").max_length(253)).required(),
      codec::field("metadata", &S::metadata, TargetMetadata::schema()));
  return table;
}

const auto& jks_fields() {
  using S = JksFormat;
  static const auto table = codec::table<S>(
      "A JKS trust store beside the PEM bundle.",
      codec::field("key", &S::key, Schema::string("Key of the store in the target's data.").max_length(253)).required(),
      codec::field("password", &S::password, Schema::string("Password of the store. Default \"changeit\".").max_length(128)));
  return table;
}

const auto& pkcs12_fields() {
  using S = Pkcs12Format;
  static const auto table = codec::table<S>(
      "A PKCS#12 trust store beside the PEM bundle.",
      codec::field("key", &S::key, Schema::string("Key of the store in the target's data.").max_length(253)).required(),
      codec::field("password", &S::password, Schema::string("Password of the store. Default: none (empty).").max_length(128)),
      codec::field("profile", &S::profile,
                   Schema::string_enum({"LegacyRC2", "LegacyDES", "Modern2023"},
                                       "Encryption and MAC algorithms, as for a Certificate's keystores.pkcs12.profile. "
                                       "Default LegacyRC2.")));
  return table;
}

const auto& additional_formats_fields() {
  using S = AdditionalFormats;
  static const auto table = codec::table<S>("Binary trust stores written beside the PEM bundle.",
                                            codec::field("jks", &S::jks, JksFormat::schema()),
                                            codec::field("pkcs12", &S::pkcs12, Pkcs12Format::schema()));
  return table;
}

const auto& target_fields() {
  using S = BundleTarget;
  static const auto table = codec::table<S>(
      "Where the bundle is written: a ConfigMap and/or a Secret of the Bundle's name in each selected namespace.",
      codec::field("configMap", &S::config_map, TargetTemplate::schema()),
      codec::field("secret", &S::secret, TargetTemplate::schema()),
      codec::field("additionalFormats", &S::additional_formats, AdditionalFormats::schema()),
      codec::field("namespaceSelector", &S::namespace_selector,
                   openapi::label_selector("The namespaces that get the targets (default: every namespace).")));
  return table;
}

const auto& spec_fields() {
  using S = BundleSpec;
  static const auto table = codec::table<S>(
      "Desired state of the Bundle.",
      codec::field("sources", &S::sources,
                   Schema::array(BundleSource::schema(), "The sources whose certificates are joined, deduplicated.")
                       .min_items(1)
                       .max_items(static_cast<std::int64_t>(kMaxSources)))
          .required(),
      codec::field("target", &S::target, BundleTarget::schema()).required());
  return table;
}

const auto& status_fields() {
  using S = BundleStatus;
  static const auto table = codec::table<S>(
      "Observed state of the Bundle, set by the controller.",
      codec::field("conditions", &S::conditions, openapi::conditions("Conditions of the Bundle: Synced.", "Synced", true)),
      codec::field("defaultCAVersion", &S::default_ca_version,
                   Schema::string("The default CA package used (sha256 of its content), when a source asks for it.")));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(SourceObjectKeySelector, source_object_fields)
CAPSTAN_CODEC_FROM(BundleSource, source_fields)
CAPSTAN_CODEC_FROM(TargetMetadata, target_metadata_fields)
CAPSTAN_CODEC_FROM(TargetTemplate, target_template_fields)
CAPSTAN_CODEC_FROM(JksFormat, jks_fields)
CAPSTAN_CODEC_FROM(Pkcs12Format, pkcs12_fields)
CAPSTAN_CODEC_FROM(AdditionalFormats, additional_formats_fields)
CAPSTAN_CODEC_FROM(BundleTarget, target_fields)
CAPSTAN_CODEC_FROM(BundleSpec, spec_fields)
CAPSTAN_CODEC_FROM(BundleStatus, status_fields)

json::Value Bundle::to_json() const { return Resource::to_json(kApiVersion, kBundleKind); }

Schema Bundle::schema() {
  return openapi::root(kApiVersion,
                       "A Bundle gathers CA certificates from sources in the trust namespace and writes them, deduplicated, "
                       "to a ConfigMap and/or Secret of its name in every selected namespace (trust-manager's Bundle).",
                       BundleSpec::schema(), BundleStatus::schema());
}

}  // namespace capstan::apis::trust::v1alpha1
