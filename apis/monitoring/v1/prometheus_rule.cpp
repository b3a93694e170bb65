// The fields of PrometheusRule: Prometheus's rule file format (snake_case members included), as
// prometheus-operator's CRD has it, limited to what Capstan implements.
#include "apis/monitoring/v1/crds.h"
#include "apis/monitoring/v1/group.h"
#include "apis/monitoring/v1/schema_common.h"
#include "apis/monitoring/v1/types.h"

namespace capstan::apis::monitoring::v1 {
namespace {

using codec::field;
using openapi::Schema;

const auto& rule_fields() {
  static const auto table =
      codec::table<Rule>("A recording or alerting rule.", field("record", &Rule::record, Schema::string("Name of the time series to record into.")),
                         field("alert", &Rule::alert, Schema::string("Name of the alert.")),
                         field("expr", &Rule::expr, Schema::int_or_string("PromQL expression.")).required(),
                         field("for", &Rule::for_, duration("How long the alert must hold before it fires.")),
                         field("keep_firing_for", &Rule::keep_firing_for, duration("How long the alert keeps firing after it stopped holding.")),
                         field("labels", &Rule::labels, Schema::string_map("Labels added to the series or alerts.").max_properties(64)),
                         field("annotations", &Rule::annotations, Schema::string_map("Annotations of the alerts.").max_properties(64)))
          .object([](Schema& s) {
            s.rule("has(self.record) != has(self.alert)", "a rule has either record (a recording rule) or alert (an alerting rule)");
          });
  return table;
}

const auto& group_fields() {
  static const auto table = codec::table<RuleGroup>(
      "A group of rules evaluated together.",
      field("name", &RuleGroup::name, Schema::string("Name of the group, unique in the object.").min_length(1)).required(),
      field("interval", &RuleGroup::interval, duration("Evaluation interval of the group.")),
      field("query_offset", &RuleGroup::query_offset, duration("Offset of the evaluation timestamp.")),
      field("limit", &RuleGroup::limit, Schema::integer("Series or alerts above which evaluation fails.").minimum(0)),
      field("labels", &RuleGroup::labels, Schema::string_map("Labels added to every rule of the group.").max_properties(64)),
      field("rules", &RuleGroup::rules, Schema::array(Rule::schema(), "The rules.").max_items(1024)));
  return table;
}

const auto& spec_fields() {
  static const auto table = codec::table<PrometheusRuleSpec>(
      "The rule groups.",
      field("groups", &PrometheusRuleSpec::groups, Schema::array(RuleGroup::schema(), "The rule groups.").list_map({"name"}).max_items(256))
          .always());
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(Rule, rule_fields)
CAPSTAN_CODEC_FROM(RuleGroup, group_fields)
CAPSTAN_CODEC_FROM(PrometheusRuleSpec, spec_fields)

json::Value prometheus_rule_schema() {
  return openapi::root(kApiVersion, "A PrometheusRule holds recording and alerting rules for the Prometheus servers selecting it.",
                       PrometheusRuleSpec::schema(), ConfigResourceStatus::schema())
      .json();
}

}  // namespace capstan::apis::monitoring::v1
