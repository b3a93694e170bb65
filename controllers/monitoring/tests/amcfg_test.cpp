// The Alertmanager configuration assembled from a base and AlertmanagerConfigs, checked by the real
// amtool (Debian's prometheus-alertmanager): `amtool check-config` loads it, and `amtool config
// routes test` says which receivers an alert's labels reach.
#include "controllers/monitoring/amcfg.h"

#include "apis/monitoring/v1/validation.h"
#include "runtime/json/yaml.h"
#include "testing/process.h"

#include <gtest/gtest.h>

namespace capstan::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;

bool have_amtool() { return e2e::run({"sh", "-c", "command -v amtool"}).code == 0; }

struct Amtool {
  e2e::TempDir dir{"amcfg"};
  std::string path;
  explicit Amtool(const json::Value& config) { path = dir.write("alertmanager.yaml", json::to_yaml(config)); }
  e2e::RunResult check() const { return e2e::run({"amtool", "check-config", path}); }
  // The receivers an alert with `labels` ("k=v" each) is routed to, comma-separated.
  std::string routes(const std::vector<std::string>& labels) const {
    std::vector<std::string> args{"amtool", "config", "routes", "test", "--config.file=" + path};
    args.insert(args.end(), labels.begin(), labels.end());
    auto r = e2e::run(args);
    std::string out = r.out;
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
  }
};

AlertmanagerConfigInput config(const std::string& ns, const std::string& name, const std::string& yaml) {
  return {ns, name, v1::AlertmanagerConfigSpec::from_json(json::from_yaml(yaml), "spec")};
}

const char* kTeamA = R"(
route:
  receiver: pager
  groupBy: [alertname]
  groupWait: 10s
  matchers: [{name: severity, value: critical}]
  routes:
  - receiver: chat
    matchers: [{name: service, value: "web|api", matchType: "=~"}]
receivers:
- name: pager
  webhookConfigs: [{urlSecret: {name: hooks, key: pager}, sendResolved: false}]
- name: chat
  webhookConfigs: [{url: "http://chat.example/hook", maxAlerts: 10}]
inhibitRules:
- sourceMatch: [{name: severity, value: critical}]
  targetMatch: [{name: severity, value: warning}]
  equal: [alertname]
)";

const char* kTeamB = R"(
route:
  receiver: all
receivers:
- name: all
  webhookConfigs: [{url: "http://b.example/hook"}]
)";

SecretValueReader secrets() {
  return [](const std::string& ns, const v1::SecretKeySelector& ref) -> std::string {
    if (ns == "team-a" && ref.name == "hooks" && ref.key == "pager") return "http://pager.example/hook\n";
    throw std::runtime_error("Secret " + ns + "/" + ref.name + " has no key " + ref.key);
  };
}

TEST(AlertmanagerConfigAssembly, AmtoolLoadsItAndRoutesEachNamespacesAlertsToItsOwnReceivers) {
  if (!have_amtool()) GTEST_SKIP() << "amtool is not installed (scripts/deps.sh installs prometheus-alertmanager)";
  json::Value base = parse_base_config("route:\n  receiver: ops\n  routes:\n  - receiver: ops\n    matchers: ['team=\"ops\"']\n"
                                       "receivers:\n- name: ops\n  webhook_configs: [{url: 'http://ops.example/'}]\n");
  auto assembled = assemble_alertmanager_config(base, {config("team-a", "routing", kTeamA), config("team-b", "routing", kTeamB)}, true, secrets());
  ASSERT_TRUE(assembled.rejected.empty());
  Amtool am(assembled.config);
  auto check = am.check();
  ASSERT_EQ(check.code, 0) << check.out << check.err << json::to_yaml(assembled.config);
  // Each namespace's alerts reach its receivers only; the others fall through to the base's.
  EXPECT_EQ(am.routes({"namespace=team-a", "severity=critical", "service=api"}), "team-a/routing/chat");
  EXPECT_EQ(am.routes({"namespace=team-a", "severity=critical", "service=db"}), "team-a/routing/pager");
  EXPECT_EQ(am.routes({"namespace=team-a", "severity=warning"}), "ops");
  EXPECT_EQ(am.routes({"namespace=team-b"}), "team-b/routing/all");
  EXPECT_EQ(am.routes({"namespace=team-c", "team=ops"}), "ops");
  // The Secret's value is the webhook's URL; inhibit rules carry the namespace on both sides.
  const auto* receivers = json::get_array(assembled.config, {"receivers"});
  ASSERT_TRUE(receivers);
  ASSERT_EQ(receivers->size(), 4u);
  EXPECT_EQ(json::serialize((*receivers)[1]),
            R"({"name":"team-a/routing/pager","webhook_configs":[{"url":"http://pager.example/hook","send_resolved":false}]})");
  EXPECT_EQ(json::serialize(*json::find(assembled.config, {"inhibit_rules"})),
            R"([{"source_matchers":["namespace=\"team-a\"","severity=\"critical\""],"target_matchers":["namespace=\"team-a\"","severity=\"warning\""],"equal":["alertname"]}])");
}

TEST(AlertmanagerConfigAssembly, WithoutTheNamespaceMatcherAConfigSeesEveryNamespace) {
  if (!have_amtool()) GTEST_SKIP() << "amtool is not installed";
  auto assembled = assemble_alertmanager_config(default_alertmanager_config(), {config("team-b", "routing", kTeamB)}, false, secrets());
  Amtool am(assembled.config);
  ASSERT_EQ(am.check().code, 0) << am.check().out;
  EXPECT_EQ(am.routes({"namespace=elsewhere"}), "team-b/routing/all");
  // The default base alone: everything to "null".
  Amtool plain(default_alertmanager_config());
  ASSERT_EQ(plain.check().code, 0) << plain.check().out;
  EXPECT_EQ(plain.routes({"alertname=x"}), "null");
}

TEST(AlertmanagerConfigAssembly, AConfigWhoseSecretCannotBeReadIsLeftOutAlone) {
  auto assembled = assemble_alertmanager_config(default_alertmanager_config(),
                                                {config("team-c", "routing", kTeamA), config("team-b", "routing", kTeamB)}, true, secrets());
  ASSERT_EQ(assembled.rejected.size(), 1u);
  EXPECT_EQ(assembled.rejected[0].first, 0u);
  EXPECT_NE(assembled.rejected[0].second.find("AlertmanagerConfig team-c/routing: receiver pager webhookConfigs[0].urlSecret: Secret team-c/hooks"),
            std::string::npos)
      << assembled.rejected[0].second;
  EXPECT_EQ(json::serialize(*json::find(assembled.config, {"route", "routes"})),
            R"([{"receiver":"team-b/routing/all","matchers":["namespace=\"team-b\""],"continue":true}])");
}

const char* kReceivers = R"(
route:
  receiver: slack
  muteTimeIntervals: [nights]
  routes:
  - receiver: pager
    matchers: [{name: severity, value: critical}]
    activeTimeIntervals: [office]
receivers:
- name: slack
  slackConfigs: [{apiURL: {name: notify, key: slack}, channel: '#alerts', title: '{{ .CommonLabels.alertname }}', sendResolved: true}]
- name: pager
  pagerdutyConfigs: [{routingKey: {name: notify, key: pagerduty}, severity: critical, details: [{key: team, value: shop}]}]
- name: genie
  opsgenieConfigs: [{message: '{{ .CommonAnnotations.summary }}', priority: P2, responders: [{name: shop-oncall, type: team}]}]
- name: mail
  emailConfigs: [{to: oncall@shop.example, authUsername: alerts, authPassword: {name: notify, key: smtp}, headers: [{key: Subject, value: Alert}]}]
muteTimeIntervals:
- name: nights
  timeIntervals: [{times: [{startTime: '00:00', endTime: '07:00'}]}]
- name: office
  timeIntervals:
  - times: [{startTime: '09:00', endTime: '17:30'}]
    weekdays: [Monday:Friday]
    daysOfMonth: [{start: 1, end: 15}, {start: -3, end: -1}]
    months: [january:march, '11']
    years: ['2025:2030']
)";

// Slack, PagerDuty, Opsgenie and e-mail receivers with their Secrets read, and time intervals
// muting or activating routes, under namespaced names; amtool loads the result. A receiver that
// needs what neither it nor the base's global section gives leaves its object out alone.
TEST(AlertmanagerConfigAssembly, ReceiversOfEveryKindAndTimeIntervalsLoadInAmtool) {
  if (!have_amtool()) GTEST_SKIP() << "amtool is not installed";
  ASSERT_TRUE(v1::validate_alertmanager_config(json::Object{{"spec", json::from_yaml(kReceivers)}}).empty())
      << ::testing::PrintToString(validation::errors(v1::validate_alertmanager_config(json::Object{{"spec", json::from_yaml(kReceivers)}})));
  auto notify = [](const std::string& ns, const v1::SecretKeySelector& ref) -> std::string {
    if (ns == "shop" && ref.name == "notify") {
      if (ref.key == "slack") return "https://hooks.slack.example/services/T0/B0/X\n";
      if (ref.key == "pagerduty") return "0123456789abcdef0123456789abcdef";
      if (ref.key == "smtp") return "s3cret";
    }
    throw std::runtime_error("Secret " + ns + "/" + ref.name + " has no key " + ref.key);
  };
  json::Value base = parse_base_config(R"(
global: {opsgenie_api_key: base-key, smtp_smarthost: 'smtp.shop.example:587', smtp_from: 'alerts@shop.example'}
route: {receiver: ops}
receivers: [{name: ops}]
)");
  auto assembled = assemble_alertmanager_config(base, {config("shop", "notify", kReceivers)}, true, notify);
  ASSERT_TRUE(assembled.rejected.empty()) << assembled.rejected[0].second;
  Amtool am(assembled.config);
  auto check = am.check();
  ASSERT_EQ(check.code, 0) << check.out << check.err << json::to_yaml(assembled.config);
  EXPECT_EQ(am.routes({"namespace=shop", "severity=critical"}), "shop/notify/pager");
  const std::string yaml = json::to_yaml(assembled.config);
  for (const char* part : {"api_url: https://hooks.slack.example/services/T0/B0/X\n", "routing_key: 0123456789abcdef0123456789abcdef",
                           "auth_password: s3cret", "name: shop/notify/office", "- monday:friday", "- 1:15", "- \"-3:-1\"",
                           "mute_time_intervals:\n    - shop/notify/nights", "active_time_intervals:\n      - shop/notify/office"})
    EXPECT_NE(yaml.find(part), std::string::npos) << part << "\nin:\n" << yaml;

  // Without the base's globals, the Opsgenie and e-mail receivers lack what Alertmanager needs.
  auto bare = assemble_alertmanager_config(default_alertmanager_config(), {config("shop", "notify", kReceivers)}, true, notify);
  ASSERT_EQ(bare.rejected.size(), 1u);
  EXPECT_EQ(bare.rejected[0].second,
            "AlertmanagerConfig shop/notify: receiver genie opsgenieConfigs[0].apiKey: not set, and the base configuration has no global opsgenie_api_key");
}

TEST(AlertmanagerConfigValidation, ReceiversAndTimeIntervals) {
  json::Value obj = json::from_yaml(R"(
spec:
  route: {receiver: p, muteTimeIntervals: [missing], activeTimeIntervals: [weekends]}
  receivers:
  - name: p
    pagerdutyConfigs: [{severity: critical}]
    opsgenieConfigs: [{responders: [{type: team}]}]
  muteTimeIntervals:
  - name: weekends
    timeIntervals:
    - weekdays: [saturday, friday:monday, someday]
      months: ['13', december]
      daysOfMonth: [{start: 0}, {start: 20, end: 10}]
      times: [{startTime: '18:00', endTime: '08:00'}]
  - name: weekends
)");
  EXPECT_EQ(validation::errors(v1::validate_alertmanager_config(obj)),
            (std::vector<std::string>{
                R"x(spec.muteTimeIntervals[0].timeIntervals[0].weekdays[1]: Invalid value: "friday:monday": the range ends before it starts)x",
                R"x(spec.muteTimeIntervals[0].timeIntervals[0].weekdays[2]: Invalid value: "someday": must be a day of the week or a range of them (a:b))x",
                R"x(spec.muteTimeIntervals[0].timeIntervals[0].months[0]: Invalid value: "13": must be a month (a name or 1-12) or a range of them (a:b))x",
                R"x(spec.muteTimeIntervals[0].timeIntervals[0].daysOfMonth[0]: Invalid value: {"start":0}: days are 1..31, or -31..-1 from the end)x",
                R"x(spec.muteTimeIntervals[0].timeIntervals[0].daysOfMonth[1]: Invalid value: {"end":10,"start":20}: the range ends before it starts)x",
                R"x(spec.muteTimeIntervals[0].timeIntervals[0].times[0].endTime: Invalid value: "08:00": must be after startTime)x",
                R"x(spec.muteTimeIntervals[1].name: Duplicate value: "weekends")x",
                R"x(spec.receivers[0].pagerdutyConfigs[0].routingKey: Required value: one of routingKey and serviceKey is required)x",
                R"x(spec.receivers[0].opsgenieConfigs[0].responders[0]: Required value: one of id, name and username is required)x",
                R"x(spec.route.muteTimeIntervals[0]: Invalid value: "missing": is not one of this object's muteTimeIntervals)x",
            }));
}

TEST(AlertmanagerConfigAssembly, ABaseConfigurationWithoutATopReceiverIsRefused) {
  EXPECT_THROW(parse_base_config("route: {}\n"), std::invalid_argument);
  EXPECT_THROW(parse_base_config("- a list\n"), std::invalid_argument);
  EXPECT_THROW(parse_base_config("route: [\n"), std::invalid_argument);
}

TEST(AlertmanagerConfigValidation, NamesEveryProblemWithItsField) {
  json::Value obj = json::from_yaml(R"(
spec:
  route:
    receiver: missing
    matchers: [{name: "bad-name", value: x}, {name: ok, value: "(", matchType: "=~"}]
    routes:
    - receiver: a
      typo: 1
  receivers:
  - name: a
    webhookConfigs: [{url: "ftp://x"}, {}, {url: "http://x/", urlSecret: {name: s, key: k}}]
  - name: a
  inhibitRules:
  - equal: ["not a label"]
)");
  std::string all;
  for (const auto& e : validation::errors(v1::validate_alertmanager_config(obj))) all += e + "\n";
  for (const char* want : {"spec.receivers[1].name: Duplicate value: \"a\"",
                           "spec.receivers[0].webhookConfigs[0].url: Invalid value: \"ftp://x\"",
                           "spec.receivers[0].webhookConfigs[1].url: Required value",
                           "spec.receivers[0].webhookConfigs[2].urlSecret: Forbidden",
                           "spec.route.receiver: Invalid value: \"missing\": is not one of this object's receivers",
                           "spec.route.matchers[0].name: Invalid value: \"bad-name\"",
                           "spec.route.matchers[1].value: Invalid value: \"(\"",
                           "spec.route.routes[0].typo: Invalid value",
                           "spec.inhibitRules[0].equal[0]: Invalid value: \"not a label\""})
    EXPECT_NE(all.find(want), std::string::npos) << want << "\nin:\n" << all;
  // Routes nested too deep.
  std::string deep = "spec:\n  receivers: [{name: a}]\n  route:\n    receiver: a\n";
  std::string indent = "    ";
  for (int i = 0; i <= v1::kMaxRouteDepth; ++i) {
    deep += indent + "routes:\n" + indent + "- receiver: a\n";
    indent += "  ";
  }
  std::string deep_errors;
  for (const auto& e : validation::errors(v1::validate_alertmanager_config(json::from_yaml(deep)))) deep_errors += e;
  EXPECT_NE(deep_errors.find("routes nest more than 8 levels deep"), std::string::npos) << deep_errors;
}

}  // namespace
}  // namespace capstan::monitoring
