#include "controllers/certificates/issuers/acme_dns01_webhook.h"

#include "runtime/client/client.h"
#include "runtime/client/errors.h"

#include <stdexcept>

namespace capstan::certificates {
namespace {

std::string solver_ref(const v1::WebhookProvider& p) {
  return "webhook solver \"" + p.solver_name + "\" of group \"" + p.group_name + "\"";
}

}  // namespace

std::string webhook_solver_path(const v1::WebhookProvider& p) { return "/apis/" + p.group_name + "/v1alpha1/" + p.solver_name; }

json::Value challenge_payload(const WebhookChallenge& c, const v1::WebhookProvider& p) {
  json::Object request{{"uid", c.uid},
                       {"action", c.action},
                       {"type", "dns-01"},
                       {"dnsName", c.dns_name},
                       {"key", c.key},
                       {"resourceNamespace", c.resource_namespace},
                       {"resolvedFQDN", c.resolved_fqdn},
                       {"resolvedZone", c.resolved_zone},
                       {"allowAmbientCredentials", c.allow_ambient_credentials}};
  if (p.config && !p.config->is_null()) request["config"] = *p.config;
  return json::Object{{"apiVersion", kChallengePayloadApiVersion}, {"kind", "ChallengePayload"}, {"request", std::move(request)}};
}

void check_challenge_answer(std::string_view body, const WebhookChallenge& c, const v1::WebhookProvider& p) {
  const std::string what = c.action + " of the TXT record " + c.resolved_fqdn + " by the " + solver_ref(p);
  if (body.size() > kMaxChallengeResponseBytes)
    throw std::runtime_error(what + ": the answer is over " + std::to_string(kMaxChallengeResponseBytes) + " bytes");
  auto v = json::try_parse(body);
  if (!v || !v->is_object()) throw std::runtime_error(what + ": the answer is not a JSON ChallengePayload");
  const json::Value* response = json::find(*v, {"response"});
  if (!response || !response->is_object()) throw std::runtime_error(what + ": the answer has no response");
  std::string_view uid = json::get_string(*response, {"uid"});
  if (!uid.empty() && uid != c.uid)
    throw std::runtime_error(what + ": the answer's response.uid \"" + std::string(uid) + "\" is not the request's");
  const json::Value* success = json::find(*response, {"success"});
  if (success && success->is_bool() && success->get_bool()) return;
  std::string message(json::get_string(*response, {"status", "message"}));
  if (message.size() > 1024) message = message.substr(0, 1024) + "...";
  throw std::runtime_error(what + " failed: " + (message.empty() ? std::string("no reason given") : message));
}

void call_webhook_solver(client::Client& client, const v1::WebhookProvider& p, const WebhookChallenge& c) {
  const std::string path = webhook_solver_path(p);
  http::Response r;
  try {
    r = client.raw("POST", path, json::serialize(challenge_payload(c, p)), "application/json");
  } catch (const client::ApiError& e) {
    std::string hint;
    if (e.code() == 403)
      hint = " (grant the manager's ServiceAccount `create` on resource \"" + p.solver_name + "\" of API group \"" +
             p.group_name + "\")";
    else if (e.code() == 404)
      hint = " (no APIService serves " + p.group_name + "/v1alpha1: is the webhook installed?)";
    throw std::runtime_error(c.action + " by the " + solver_ref(p) + ": POST " + path + ": " + e.message() + hint);
  } catch (const std::exception& e) {
    throw std::runtime_error(c.action + " by the " + solver_ref(p) + ": POST " + path + ": " + e.what());
  }
  check_challenge_answer(r.body, c, p);
}

}  // namespace capstan::certificates
