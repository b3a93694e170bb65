// The policy approver (approver-policy's controllers under certs.capstan.dev, switched on by
// --certificate-request-approver=policy in place of the approve-everything internal approver):
//
//   certificaterequestpolicies           Ready=True when a policy validates (the webhook's rules),
//                                        Ready=False naming what is wrong otherwise.
//   certificaterequests-policy-approver  each undecided CertificateRequest against the policies
//                                        that select it (issuerRef, namespace) and are bound to its
//                                        requester (SubjectAccessReview: spec.username, groups,
//                                        extra and uid; verb use on certificaterequestpolicies
//                                        named after the policy, in the request's namespace).
//                                        One permitting: Approved; some applicable, none
//                                        permitting: Denied naming each and why; none
//                                        applicable: left for others. Decided requests are never
//                                        touched. A policy created or changed, or a namespace's
//                                        labels, re-evaluate the undecided requests.
#pragma once

#include "runtime/controller/reconcile.h"

#include <memory>
#include <string_view>

namespace capstan::controller {
class Manager;
}

namespace capstan::certificates {
struct Env;
}

namespace capstan::certificates::approval {

// Condition reason of the decisions (approver-policy writes "policy.cert-manager.io").
inline constexpr std::string_view kPolicyReason = "policy.certs.capstan.dev";
inline constexpr std::string_view kReadyMessage = "CertificateRequestPolicy is ready for approval evaluation";

controller::Result reconcile_policy_approval(Env& env, const controller::Request& req, controller::Context& ctx);
controller::Result reconcile_policy_status(Env& env, const controller::Request& req, controller::Context& ctx);

// Adds both controllers (and the policy and namespace informers, set on `env`).
void wire_policy_approver(controller::Manager& mgr, const std::shared_ptr<Env>& env, int workers);

}  // namespace capstan::certificates::approval
