// The fields of an AlertmanagerConfig's receivers beyond webhooks (Slack, PagerDuty, Opsgenie,
// e-mail) and of its time intervals: prometheus-operator's v1alpha1 names.
#include "apis/monitoring/v1/crds.h"
#include "apis/monitoring/v1/schema_common.h"
#include "apis/monitoring/v1/types.h"

namespace capstan::apis::monitoring::v1 {
namespace {

using codec::field;
using openapi::Schema;

Schema text(std::string_view description) { return std::move(Schema::string(description).max_length(4096)); }
Schema secret(std::string_view description) { return std::move(SecretKeySelector::schema().description(description)); }
Schema send_resolved() { return Schema::boolean("Notify resolved alerts too."); }
Schema key_values(std::string_view description) { return std::move(Schema::array(KeyValue::schema(), description).max_items(64)); }

const auto& key_value_fields() {
  static const auto table = codec::table<KeyValue>("A key and its value.",
                                                   field("key", &KeyValue::key, Schema::string("The key.").min_length(1).max_length(253)).required(),
                                                   field("value", &KeyValue::value, text("The value (a template).")));
  return table;
}

const auto& slack_fields() {
  using S = SlackConfig;
  static const auto table = codec::table<S>(
      "A Slack notification through an incoming webhook.", field("sendResolved", &S::send_resolved, send_resolved()),
      field("apiURL", &S::api_url, secret("The incoming-webhook URL (default: the base configuration's global slack_api_url).")),
      field("channel", &S::channel, text("Channel or user to notify.")), field("username", &S::username, text("User name of the message.")),
      field("color", &S::color, text("Color of the attachment.")), field("title", &S::title, text("Title (a template).")),
      field("titleLink", &S::title_link, text("Link of the title.")), field("pretext", &S::pretext, text("Text before the attachment.")),
      field("text", &S::text, text("Text (a template).")), field("footer", &S::footer, text("Footer.")),
      field("fallback", &S::fallback, text("Plain-text summary.")), field("iconEmoji", &S::icon_emoji, text("Emoji icon.")),
      field("iconURL", &S::icon_url, text("Icon URL.")), field("linkNames", &S::link_names, Schema::boolean("Link channel and user names.")));
  return table;
}

const auto& pagerduty_fields() {
  using P = PagerDutyConfig;
  static const auto table = codec::table<P>(
      "A PagerDuty incident (routingKey: Events API v2; serviceKey: v1).", field("sendResolved", &P::send_resolved, send_resolved()),
      field("routingKey", &P::routing_key, secret("The integration's routing key (Events API v2).")),
      field("serviceKey", &P::service_key, secret("The integration's service key (Events API v1).")),
      field("url", &P::url, text("The Events API URL.")), field("client", &P::client, text("Client name.")),
      field("clientURL", &P::client_url, text("Client link.")), field("description", &P::description, text("Description (a template).")),
      field("severity", &P::severity, text("Severity.")), field("class", &P::class_, text("Class.")), field("group", &P::group, text("Group.")),
      field("component", &P::component, text("Component.")), field("details", &P::details, key_values("Details of the incident.")));
  return table;
}

const auto& responder_fields() {
  using R = OpsGenieConfigResponder;
  static const auto table = codec::table<R>(
      "Who the alert is for (one of id, name, username).", field("id", &R::id, text("Its id.")), field("name", &R::name, text("Its name.")),
      field("username", &R::username, text("Its user name.")),
      field("type", &R::type, Schema::string_enum({"team", "teams", "user", "escalation", "schedule"}, "Its type.")).required());
  return table;
}

const auto& opsgenie_fields() {
  using O = OpsGenieConfig;
  static const auto table = codec::table<O>(
      "An Opsgenie alert.", field("sendResolved", &O::send_resolved, send_resolved()),
      field("apiKey", &O::api_key, secret("The API key (default: the base configuration's global opsgenie_api_key).")),
      field("apiURL", &O::api_url, text("The API URL.")), field("message", &O::message, text("Message (a template).")),
      field("description", &O::description, text("Description.")), field("source", &O::source, text("Source.")),
      field("tags", &O::tags, text("Comma-separated tags.")), field("note", &O::note, text("Note.")),
      field("priority", &O::priority, text("Priority (P1..P5).")), field("entity", &O::entity, text("Entity.")),
      field("actions", &O::actions, text("Comma-separated actions.")), field("details", &O::details, key_values("Details of the alert.")),
      field("responders", &O::responders, Schema::array(OpsGenieConfigResponder::schema(), "Responders.").max_items(64)));
  return table;
}

const auto& email_fields() {
  using E = EmailConfig;
  static const auto table = codec::table<E>(
      "An e-mail through an SMTP smarthost.", field("sendResolved", &E::send_resolved, send_resolved()),
      field("to", &E::to, text("Recipients.")).required(), field("from", &E::from, text("Sender (default: the global smtp_from).")),
      field("hello", &E::hello, text("Host name for HELO.")),
      field("smarthost", &E::smarthost, text("host:port of the SMTP server (default: the global smtp_smarthost).")),
      field("authUsername", &E::auth_username, text("SMTP user name.")), field("authPassword", &E::auth_password, secret("SMTP password.")),
      field("authSecret", &E::auth_secret, secret("SMTP CRAM-MD5 secret.")), field("authIdentity", &E::auth_identity, text("SMTP identity.")),
      field("headers", &E::headers, key_values("Headers of the e-mail.")), field("html", &E::html, text("HTML body (a template).")),
      field("text", &E::text, text("Text body (a template).")), field("requireTLS", &E::require_tls, Schema::boolean("Require STARTTLS.")));
  return table;
}

const auto& time_range_fields() {
  static const auto table = codec::table<TimeRange>(
      "A range of times of day, HH:MM.",
      field("startTime", &TimeRange::start_time, Schema::string("Start.").pattern("^((([01][0-9])|(2[0-3])):[0-5][0-9])$|(^24:00$)")).required(),
      field("endTime", &TimeRange::end_time, Schema::string("End.").pattern("^((([01][0-9])|(2[0-3])):[0-5][0-9])$|(^24:00$)")).required());
  return table;
}

const auto& day_of_month_fields() {
  static const auto table = codec::table<DayOfMonthRange>(
      "A range of days of the month (negative: from the month's end).",
      field("start", &DayOfMonthRange::start, Schema::integer("First day.", "int32").range(-31, 31)),
      field("end", &DayOfMonthRange::end, Schema::integer("Last day.", "int32").range(-31, 31)));
  return table;
}

const auto& time_interval_fields() {
  using T = TimeInterval;
  static const auto table = codec::table<T>(
      "When the interval holds: every member given must match.",
      field("times", &T::times, Schema::array(TimeRange::schema(), "Times of day.").max_items(32)),
      field("weekdays", &T::weekdays, Schema::strings("Days of the week or ranges (monday:friday).").max_items(14)),
      field("daysOfMonth", &T::days_of_month, Schema::array(DayOfMonthRange::schema(), "Days of the month.").max_items(31)),
      field("months", &T::months, Schema::strings("Months or ranges (january:march, 1:3).").max_items(24)),
      field("years", &T::years, Schema::strings("Years or ranges (2024:2025).").max_items(32)));
  return table;
}

const auto& mute_time_interval_fields() {
  static const auto table = codec::table<MuteTimeInterval>(
      "A named time interval routes mute or activate by name.",
      field("name", &MuteTimeInterval::name, Schema::string("Name, unique in this object.").min_length(1).max_length(253)).required(),
      field("timeIntervals", &MuteTimeInterval::time_intervals, Schema::array(TimeInterval::schema(), "When it holds (any of them).").max_items(32)));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(KeyValue, key_value_fields)
CAPSTAN_CODEC_FROM(SlackConfig, slack_fields)
CAPSTAN_CODEC_FROM(PagerDutyConfig, pagerduty_fields)
CAPSTAN_CODEC_FROM(OpsGenieConfigResponder, responder_fields)
CAPSTAN_CODEC_FROM(OpsGenieConfig, opsgenie_fields)
CAPSTAN_CODEC_FROM(EmailConfig, email_fields)
CAPSTAN_CODEC_FROM(TimeRange, time_range_fields)
CAPSTAN_CODEC_FROM(DayOfMonthRange, day_of_month_fields)
CAPSTAN_CODEC_FROM(TimeInterval, time_interval_fields)
CAPSTAN_CODEC_FROM(MuteTimeInterval, mute_time_interval_fields)

}  // namespace capstan::apis::monitoring::v1
