#include "controllers/monitoring/amcfg.h"

#include "runtime/json/yaml.h"
#include "runtime/meta/ascii.h"

#include <cctype>
#include <stdexcept>

namespace capstan::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;

// Alertmanager's matcher syntax: name, operator, the value double-quoted with \ and " escaped.
std::string matcher_string(const std::string& name, std::string op, const std::string& value) {
  if (op.empty()) op = "=";
  std::string out = name + op + "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

json::Array matcher_list(const std::vector<v1::Matcher>& matchers, const std::string* ns) {
  json::Array out;
  if (ns) out.emplace_back(matcher_string("namespace", "=", *ns));
  for (const auto& m : matchers) out.emplace_back(matcher_string(m.name, m.match_type, m.value));
  return out;
}

// Receivers and time intervals are named "<namespace>/<name>/<its name>" in the merged configuration.
std::string receiver_name(const AlertmanagerConfigInput& c, const std::string& receiver) { return c.ns + "/" + c.name + "/" + receiver; }

json::Array namespaced(const AlertmanagerConfigInput& c, const std::vector<std::string>& names) {
  json::Array out;
  for (const auto& n : names) out.emplace_back(receiver_name(c, n));
  return out;
}

json::Value convert_route(const v1::Route& r, const AlertmanagerConfigInput& c, const std::string* ns_matcher, bool top) {
  json::Object out;
  if (!r.receiver.empty()) out["receiver"] = receiver_name(c, r.receiver);
  if (!r.group_by.empty()) out["group_by"] = json::Array(r.group_by.begin(), r.group_by.end());
  if (!r.group_wait.empty()) out["group_wait"] = r.group_wait;
  if (!r.group_interval.empty()) out["group_interval"] = r.group_interval;
  if (!r.repeat_interval.empty()) out["repeat_interval"] = r.repeat_interval;
  json::Array matchers = matcher_list(r.matchers, ns_matcher);
  if (!matchers.empty()) out["matchers"] = std::move(matchers);
  // At the top: the routes after it (other namespaces', the base's) still see the alert.
  if (top || r.continue_) out["continue"] = true;
  if (!r.mute_time_intervals.empty()) out["mute_time_intervals"] = namespaced(c, r.mute_time_intervals);
  if (!r.active_time_intervals.empty()) out["active_time_intervals"] = namespaced(c, r.active_time_intervals);
  if (!r.routes.empty()) {
    json::Array children;
    for (std::size_t i = 0; i < r.routes.size(); ++i)
      children.push_back(convert_route(v1::Route::from_json(r.routes[i], "routes[" + std::to_string(i) + "]"), c, nullptr, false));
    out["routes"] = std::move(children);
  }
  return out;
}

// Reads a receiver's Secret values, naming the object, receiver and field when one cannot be read.
class ReceiverSecrets {
 public:
  ReceiverSecrets(const AlertmanagerConfigInput& c, const v1::Receiver& r, const SecretValueReader& read) : c_(c), r_(r), read_(read) {}
  std::string operator()(const v1::SecretKeySelector& ref, std::string_view field) const {
    std::string value;
    try {
      value = read_(c_.ns, ref);
    } catch (const std::exception& e) {
      throw std::runtime_error("AlertmanagerConfig " + c_.ns + "/" + c_.name + ": receiver " + r_.name + " " + std::string(field) + ": " + e.what());
    }
    while (!value.empty() && (value.back() == '\n' || value.back() == '\r' || value.back() == ' ')) value.pop_back();
    return value;
  }
  // A field Alertmanager needs, given neither here nor by the base configuration's `global`.
  [[noreturn]] void missing(std::string_view field, std::string_view global) const {
    throw std::runtime_error("AlertmanagerConfig " + c_.ns + "/" + c_.name + ": receiver " + r_.name + " " + std::string(field) +
                             ": not set, and the base configuration has no global " + std::string(global));
  }

 private:
  const AlertmanagerConfigInput& c_;
  const v1::Receiver& r_;
  const SecretValueReader& read_;
};

void put(json::Object& o, std::string_view key, const std::string& value) {
  if (!value.empty()) o[key] = value;
}

json::Object key_values(const std::vector<v1::KeyValue>& list) {
  json::Object o;
  for (const auto& kv : list) o[kv.key] = kv.value;
  return o;
}

template <class Config>
void resolved(const Config& cfg, json::Object& o) {
  if (cfg.send_resolved) o["send_resolved"] = *cfg.send_resolved;
}

std::string field_at(std::string_view list, std::size_t i, std::string_view field) {
  return std::string(list) + "[" + std::to_string(i) + "]." + std::string(field);
}

// A receiver with its Secrets read; `global`: the base configuration's global section (its
// defaults for Slack, Opsgenie and SMTP). Throws naming the object, receiver and field.
json::Value convert_receiver(const v1::Receiver& r, const AlertmanagerConfigInput& c, const SecretValueReader& read, const json::Value& global) {
  const ReceiverSecrets secrets(c, r, read);
  auto has_global = [&](std::string_view key) { return !json::get_string(global, {key}).empty(); };
  json::Object out{{"name", receiver_name(c, r.name)}};
  json::Array hooks;
  for (std::size_t i = 0; i < r.webhook_configs.size(); ++i) {
    const auto& w = r.webhook_configs[i];
    json::Object hook{{"url", w.url_secret ? secrets(*w.url_secret, field_at("webhookConfigs", i, "urlSecret")) : w.url}};
    resolved(w, hook);
    if (w.max_alerts > 0) hook["max_alerts"] = w.max_alerts;
    hooks.push_back(std::move(hook));
  }
  if (!hooks.empty()) out["webhook_configs"] = std::move(hooks);
  json::Array slack;
  for (std::size_t i = 0; i < r.slack_configs.size(); ++i) {
    const auto& s = r.slack_configs[i];
    json::Object o;
    if (s.api_url) o["api_url"] = secrets(*s.api_url, field_at("slackConfigs", i, "apiURL"));
    else if (!has_global("slack_api_url")) secrets.missing(field_at("slackConfigs", i, "apiURL"), "slack_api_url");
    put(o, "channel", s.channel);
    put(o, "username", s.username);
    put(o, "color", s.color);
    put(o, "title", s.title);
    put(o, "title_link", s.title_link);
    put(o, "pretext", s.pretext);
    put(o, "text", s.text);
    put(o, "footer", s.footer);
    put(o, "fallback", s.fallback);
    put(o, "icon_emoji", s.icon_emoji);
    put(o, "icon_url", s.icon_url);
    if (s.link_names) o["link_names"] = *s.link_names;
    resolved(s, o);
    slack.push_back(std::move(o));
  }
  if (!slack.empty()) out["slack_configs"] = std::move(slack);
  json::Array pagerduty;
  for (std::size_t i = 0; i < r.pagerduty_configs.size(); ++i) {
    const auto& p = r.pagerduty_configs[i];
    json::Object o;
    if (p.routing_key) o["routing_key"] = secrets(*p.routing_key, field_at("pagerdutyConfigs", i, "routingKey"));
    if (p.service_key) o["service_key"] = secrets(*p.service_key, field_at("pagerdutyConfigs", i, "serviceKey"));
    put(o, "url", p.url);
    put(o, "client", p.client);
    put(o, "client_url", p.client_url);
    put(o, "description", p.description);
    put(o, "severity", p.severity);
    put(o, "class", p.class_);
    put(o, "group", p.group);
    put(o, "component", p.component);
    if (!p.details.empty()) o["details"] = key_values(p.details);
    resolved(p, o);
    pagerduty.push_back(std::move(o));
  }
  if (!pagerduty.empty()) out["pagerduty_configs"] = std::move(pagerduty);
  json::Array opsgenie;
  for (std::size_t i = 0; i < r.opsgenie_configs.size(); ++i) {
    const auto& g = r.opsgenie_configs[i];
    json::Object o;
    if (g.api_key) o["api_key"] = secrets(*g.api_key, field_at("opsgenieConfigs", i, "apiKey"));
    else if (!has_global("opsgenie_api_key")) secrets.missing(field_at("opsgenieConfigs", i, "apiKey"), "opsgenie_api_key");
    put(o, "api_url", g.api_url);
    put(o, "message", g.message);
    put(o, "description", g.description);
    put(o, "source", g.source);
    put(o, "tags", g.tags);
    put(o, "note", g.note);
    put(o, "priority", g.priority);
    put(o, "entity", g.entity);
    put(o, "actions", g.actions);
    if (!g.details.empty()) o["details"] = key_values(g.details);
    if (!g.responders.empty()) {
      json::Array responders;
      for (const auto& who : g.responders) {
        json::Object w{{"type", who.type}};
        put(w, "id", who.id);
        put(w, "name", who.name);
        put(w, "username", who.username);
        responders.push_back(std::move(w));
      }
      o["responders"] = std::move(responders);
    }
    resolved(g, o);
    opsgenie.push_back(std::move(o));
  }
  if (!opsgenie.empty()) out["opsgenie_configs"] = std::move(opsgenie);
  json::Array email;
  for (std::size_t i = 0; i < r.email_configs.size(); ++i) {
    const auto& e = r.email_configs[i];
    json::Object o{{"to", e.to}};
    put(o, "from", e.from);
    put(o, "hello", e.hello);
    put(o, "smarthost", e.smarthost);
    if (e.from.empty() && !has_global("smtp_from")) secrets.missing(field_at("emailConfigs", i, "from"), "smtp_from");
    if (e.smarthost.empty() && !has_global("smtp_smarthost")) secrets.missing(field_at("emailConfigs", i, "smarthost"), "smtp_smarthost");
    put(o, "auth_username", e.auth_username);
    if (e.auth_password) o["auth_password"] = secrets(*e.auth_password, field_at("emailConfigs", i, "authPassword"));
    if (e.auth_secret) o["auth_secret"] = secrets(*e.auth_secret, field_at("emailConfigs", i, "authSecret"));
    put(o, "auth_identity", e.auth_identity);
    if (!e.headers.empty()) o["headers"] = key_values(e.headers);
    put(o, "html", e.html);
    put(o, "text", e.text);
    if (e.require_tls) o["require_tls"] = *e.require_tls;
    resolved(e, o);
    email.push_back(std::move(o));
  }
  if (!email.empty()) out["email_configs"] = std::move(email);
  return out;
}

// A named time interval as Alertmanager's time_intervals entry.
json::Value convert_time_interval(const v1::MuteTimeInterval& m, const AlertmanagerConfigInput& c) {
  json::Array intervals;
  for (const auto& t : m.time_intervals) {
    json::Object o;
    if (!t.times.empty()) {
      json::Array times;
      for (const auto& r : t.times) times.push_back(json::Object{{"start_time", r.start_time}, {"end_time", r.end_time}});
      o["times"] = std::move(times);
    }
    auto lowered = [](const std::vector<std::string>& names) {
      json::Array a;
      for (const auto& n : names) a.emplace_back(meta::ascii_lower(n));
      return a;
    };
    if (!t.weekdays.empty()) o["weekdays"] = lowered(t.weekdays);
    if (!t.days_of_month.empty()) {
      json::Array days;
      for (const auto& d : t.days_of_month)
        days.emplace_back(d.end == 0 || d.end == d.start ? std::to_string(d.start) : std::to_string(d.start) + ":" + std::to_string(d.end));
      o["days_of_month"] = std::move(days);
    }
    if (!t.months.empty()) o["months"] = lowered(t.months);
    if (!t.years.empty()) o["years"] = json::Array(t.years.begin(), t.years.end());
    intervals.push_back(std::move(o));
  }
  return json::Object{{"name", receiver_name(c, m.name)}, {"time_intervals", std::move(intervals)}};
}

json::Array& member_array(json::Object& o, std::string_view key) {
  json::Value& v = o[key];
  if (!v.is_array()) v = json::Array();
  return v.as_array();
}

}  // namespace

json::Value default_alertmanager_config() {
  return json::Object{{"route", json::Object{{"receiver", "null"}}}, {"receivers", json::Array{json::Object{{"name", "null"}}}}};
}

json::Value parse_base_config(const std::string& yaml) {
  json::Value v;
  try {
    v = json::from_yaml(yaml, "alertmanager.yaml");
  } catch (const std::exception& e) {
    throw std::invalid_argument(e.what());
  }
  if (!v.is_object()) throw std::invalid_argument("alertmanager.yaml is not a mapping");
  if (json::get_string(v, {"route", "receiver"}).empty()) throw std::invalid_argument("alertmanager.yaml: the top route names no receiver");
  return v;
}

AssembledConfig assemble_alertmanager_config(json::Value base, const std::vector<AlertmanagerConfigInput>& configs, bool on_namespace,
                                             const SecretValueReader& secrets) {
  AssembledConfig out;
  json::Array routes, receivers, inhibit_rules, time_intervals;
  const json::Value global = base.is_object() && json::find(base, {"global"}) ? *json::find(base, {"global"}) : json::Value();
  for (std::size_t index = 0; index < configs.size(); ++index) {
    const auto& c = configs[index];
    const std::string* ns = on_namespace ? &c.ns : nullptr;
    json::Array own_receivers;
    try {
      for (const auto& r : c.spec.receivers) own_receivers.push_back(convert_receiver(r, c, secrets, global));
    } catch (const std::exception& e) {
      out.rejected.emplace_back(index, e.what());
      continue;
    }
    for (auto& r : own_receivers) receivers.push_back(std::move(r));
    for (const auto& m : c.spec.mute_time_intervals) time_intervals.push_back(convert_time_interval(m, c));
    if (c.spec.route) routes.push_back(convert_route(*c.spec.route, c, ns, true));
    for (const auto& rule : c.spec.inhibit_rules) {
      json::Object converted;
      json::Array source = matcher_list(rule.source_match, ns), target = matcher_list(rule.target_match, ns);
      if (!source.empty()) converted["source_matchers"] = std::move(source);
      if (!target.empty()) converted["target_matchers"] = std::move(target);
      if (!rule.equal.empty()) converted["equal"] = json::Array(rule.equal.begin(), rule.equal.end());
      inhibit_rules.push_back(std::move(converted));
    }
  }
  json::Object& cfg = base.as_object();
  for (auto& r : receivers) member_array(cfg, "receivers").push_back(std::move(r));
  for (auto& r : inhibit_rules) member_array(cfg, "inhibit_rules").push_back(std::move(r));
  for (auto& t : time_intervals) member_array(cfg, "time_intervals").push_back(std::move(t));
  if (!routes.empty()) {
    // The configs' routes come first among the top route's children, the base's after them.
    json::Value& top = cfg["route"];
    if (!top.is_object()) top = json::Object();
    for (auto& r : member_array(top.as_object(), "routes")) routes.push_back(std::move(r));
    top.as_object()["routes"] = std::move(routes);
  }
  out.config = std::move(base);
  return out;
}

}  // namespace capstan::monitoring
