// The fields of Alertmanager and AlertmanagerConfig: prometheus-operator's names, limited to what
// Capstan implements.
#include "apis/monitoring/v1/crds.h"
#include "apis/monitoring/v1/group.h"
#include "apis/monitoring/v1/schema_common.h"
#include "apis/monitoring/v1/types.h"

namespace capstan::apis::monitoring::v1 {
namespace {

using codec::field;
using openapi::Schema;

const auto& strategy_fields() {
  static const auto table = codec::table<MatcherStrategy>(
      "How the selected AlertmanagerConfigs are confined to their namespaces.",
      field("type", &MatcherStrategy::type,
            Schema::string_enum({"OnNamespace", "None"},
                                "OnNamespace (default): their routes and inhibit rules match only alerts with namespace=<their "
                                "namespace>; None: no matcher is added.")
                .default_value("OnNamespace"))
          .always());
  return table;
}

const auto& spec_fields() {
  using S = AlertmanagerSpec;
  static const auto table = codec::table<S>(
      "The desired Alertmanager cluster and the AlertmanagerConfigs it selects.",
      std::tuple_cat(std::make_tuple(
      field<S>("version", &S::version, Schema::string("Alertmanager version, e.g. v0.28.1; used for the image tag.")),
      field("image", &S::image, Schema::string("Container image (overrides version).")),
      field("replicas", &S::replicas, Schema::integer("Pods of the cluster (default 1); they gossip as peers.", "int32").range(0, 32)).always(),
      field<S>("paused", &S::paused, Schema::boolean("Stop reconciling the objects of this Alertmanager."))),
      pod_fields<S>("alertmanager"),
      std::make_tuple(
      field("podMetadata", &S::pod_metadata, EmbeddedObjectMetadata::schema()),
      field("storage", &S::storage, StorageSpec::schema()),
      field("persistentVolumeClaimRetentionPolicy", &S::persistent_volume_claim_retention_policy,
            Schema::open_object("When the StatefulSet's claims are deleted (whenDeleted, whenScaled: Retain or Delete).")),
      field("retention", &S::retention, duration("How long to keep silences and notification logs (default 120h).")),
      field("externalUrl", &S::external_url, Schema::string("URL Alertmanager is reachable at from outside.")),
      field("routePrefix", &S::route_prefix, Schema::string("Prefix of the web routes.")),
      field("logLevel", &S::log_level, Schema::string_enum({"", "debug", "info", "warn", "error"}, "Log level of Alertmanager.")),
      field("logFormat", &S::log_format, Schema::string_enum({"", "logfmt", "json"}, "Log format of Alertmanager.")),
      field("configSecret", &S::config_secret,
            openapi::object_name("Secret whose alertmanager.yaml is the base configuration (default alertmanager-<name>; "
                                 "missing: everything goes to the receiver \"null\").")),
      field("alertmanagerConfigSelector", &S::alertmanager_config_selector,
            openapi::label_selector("AlertmanagerConfigs merged into the configuration: {} all, absent none.")),
      field("alertmanagerConfigNamespaceSelector", &S::alertmanager_config_namespace_selector,
            openapi::label_selector("Namespaces of the AlertmanagerConfigs: {} all, absent own.")),
      field("alertmanagerConfigMatcherStrategy", &S::alertmanager_config_matcher_strategy, MatcherStrategy::schema()),
      field<S>("portName", &S::port_name, Schema::string("Name of the web port (default web).")))));
  return table;
}

const auto& status_fields() {
  using S = AlertmanagerStatus;
  static const auto table = codec::table<S>(
      "The observed state of the Alertmanager cluster.", field("paused", &S::paused, Schema::boolean("Whether reconciliation is paused.")).always(),
      field("replicas", &S::replicas, Schema::integer("Pods of the StatefulSet.", "int32")).always(),
      field("updatedReplicas", &S::updated_replicas, Schema::integer("Pods at the current revision.", "int32")).always(),
      field("availableReplicas", &S::available_replicas, Schema::integer("Ready pods.", "int32")).always(),
      field("unavailableReplicas", &S::unavailable_replicas, Schema::integer("Pods not ready.", "int32")).always(),
      field("conditions", &S::conditions,
            openapi::conditions("Conditions: Available (Degraded while some pods are not ready), Reconciled.", "Available, Reconciled", true,
                                /*degraded=*/true)));
  return table;
}

Schema label_name(std::string_view description) { return std::move(Schema::string(description).min_length(1).max_length(256)); }

const auto& matcher_fields() {
  static const auto table = codec::table<Matcher>(
      "A label matcher.", field("name", &Matcher::name, label_name("Label to match.")).required(),
      field("value", &Matcher::value, Schema::string("Value or regular expression to match.").max_length(4096)),
      field("matchType", &Matcher::match_type, Schema::string_enum({"", "=", "!=", "=~", "!~"}, "How the value matches (default =).")));
  return table;
}

const auto& webhook_fields() {
  using W = WebhookConfig;
  static const auto table = codec::table<W>(
      "A webhook receiver: alerts are POSTed as JSON.",
      field("url", &W::url, Schema::string("URL to send to (or urlSecret).").max_length(2048)),
      field("urlSecret", &W::url_secret, SecretKeySelector::schema()),
      field("sendResolved", &W::send_resolved, Schema::boolean("Notify resolved alerts too (default true).")),
      field("maxAlerts", &W::max_alerts, Schema::integer("Alerts per message at most (0: all).", "int32").minimum(0)));
  return table;
}

const auto& receiver_fields() {
  static const auto table = codec::table<Receiver>(
      "A receiver: where notifications go.", field("name", &Receiver::name, Schema::string("Name, unique in this object.").min_length(1).max_length(253)).required(),
      field("webhookConfigs", &Receiver::webhook_configs, Schema::array(WebhookConfig::schema(), "Webhooks.").max_items(32)),
      field("slackConfigs", &Receiver::slack_configs, Schema::array(SlackConfig::schema(), "Slack notifications.").max_items(32)),
      field("pagerdutyConfigs", &Receiver::pagerduty_configs, Schema::array(PagerDutyConfig::schema(), "PagerDuty incidents.").max_items(32)),
      field("opsgenieConfigs", &Receiver::opsgenie_configs, Schema::array(OpsGenieConfig::schema(), "Opsgenie alerts.").max_items(32)),
      field("emailConfigs", &Receiver::email_configs, Schema::array(EmailConfig::schema(), "E-mails.").max_items(32)));
  return table;
}

const auto& inhibit_fields() {
  using I = InhibitRule;
  static const auto table = codec::table<I>(
      "Mutes the alerts matching targetMatch while an alert matching sourceMatch fires, when the labels in equal are the same.",
      field("sourceMatch", &I::source_match, Schema::array(Matcher::schema(), "Matchers of the muting alert.").max_items(64)),
      field("targetMatch", &I::target_match, Schema::array(Matcher::schema(), "Matchers of the muted alerts.").max_items(64)),
      field("equal", &I::equal, Schema::strings("Labels that must be equal in both.").max_items(64)));
  return table;
}

const auto& route_fields() {
  using R = Route;
  static const auto table = codec::table<R>(
      "The route of this object's alerts (under the Alertmanager's top-level route).",
      field("receiver", &R::receiver, Schema::string("Receiver of the alerts this route matches (one of receivers).").max_length(253)),
      field("groupBy", &R::group_by, Schema::strings("Labels alerts are grouped by ('...': every label).").max_items(64)),
      field("groupWait", &R::group_wait, duration("Wait before the first notification of a group.")),
      field("groupInterval", &R::group_interval, duration("Wait before notifying of alerts added to a group.")),
      field("repeatInterval", &R::repeat_interval, duration("Wait before sending a notification again.")),
      field("matchers", &R::matchers, Schema::array(Matcher::schema(), "Matchers alerts must satisfy.").max_items(64)),
      field("continue", &R::continue_, Schema::boolean("Keep matching the routes after this one (always true at the top).")),
      field("routes", &R::routes,
            Schema::array(Schema::open_object("A child route, of the same fields."), "Child routes (at most 8 levels deep).").max_items(256)),
      field("muteTimeIntervals", &R::mute_time_intervals, Schema::strings("Names of this object's muteTimeIntervals when the route is muted.").max_items(32)),
      field("activeTimeIntervals", &R::active_time_intervals,
            Schema::strings("Names of this object's muteTimeIntervals outside of which the route is muted.").max_items(32)));
  return table;
}

const auto& config_spec_fields() {
  using S = AlertmanagerConfigSpec;
  static const auto table = codec::table<S>(
      "Routes, receivers and inhibit rules merged into the configuration of the Alertmanagers that select this object.",
      field("route", &S::route, Route::schema()),
      field("receivers", &S::receivers, Schema::array(Receiver::schema(), "Receivers.").max_items(256)),
      field("inhibitRules", &S::inhibit_rules, Schema::array(InhibitRule::schema(), "Inhibit rules.").max_items(256)),
      field("muteTimeIntervals", &S::mute_time_intervals,
            Schema::array(MuteTimeInterval::schema(), "Named time intervals the routes mute or activate by.").max_items(64)));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(MatcherStrategy, strategy_fields)
CAPSTAN_CODEC_FROM(AlertmanagerSpec, spec_fields)
CAPSTAN_CODEC_FROM(AlertmanagerStatus, status_fields)
CAPSTAN_CODEC_FROM(Matcher, matcher_fields)
CAPSTAN_CODEC_FROM(WebhookConfig, webhook_fields)
CAPSTAN_CODEC_FROM(Receiver, receiver_fields)
CAPSTAN_CODEC_FROM(InhibitRule, inhibit_fields)
CAPSTAN_CODEC_FROM(Route, route_fields)
CAPSTAN_CODEC_FROM(AlertmanagerConfigSpec, config_spec_fields)

std::string AlertmanagerSpec::effective_image() const {
  if (!image.empty()) return image;
  return std::string(kDefaultAlertmanagerBaseImage) + ":" + (version.empty() ? std::string(kDefaultAlertmanagerVersion) : version);
}

json::Value alertmanager_schema() {
  return openapi::root(kApiVersion, "An Alertmanager runs an Alertmanager cluster with the configuration assembled from its Secret and the AlertmanagerConfigs it selects.",
                       AlertmanagerSpec::schema(), AlertmanagerStatus::schema())
      .json();
}

json::Value alertmanager_config_schema() {
  return openapi::root(kApiVersion, "An AlertmanagerConfig adds routes, receivers and inhibit rules, confined to its namespace, to the Alertmanagers selecting it.",
                       AlertmanagerConfigSpec::schema(), ConfigResourceStatus::schema())
      .json();
}

}  // namespace capstan::apis::monitoring::v1
