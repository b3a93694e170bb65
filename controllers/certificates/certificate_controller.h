// The Certificate reconciler: cert-manager's trigger, key manager, request manager, issuing,
// readiness and revision manager controllers as steps of one level-triggered pass (one
// writer of Certificate status, so no update conflicts between them):
//
//   1. a finished request of the next revision: write the Secret (server-side apply), or
//      record the failure (Issuing=False, failedIssuanceAttempts, lastFailureTime);
//   2. trigger policies: Issuing=True with the reason, unless backing off after failures;
//   3. while issuing: the next private key (temporary Secret) and the CertificateRequest
//      <certificate>-<revision+1>;
//   4. the Secret's labels/annotations re-applied when they drifted (no re-issue);
//   5. readiness: Ready, notBefore, notAfter, renewalTime;
//   6. status written through the status subresource when it changed (optimistic locking;
//      a conflict requeues with rate limiting, it is not an error);
//   7. unreferenced temporary key Secrets deleted, old requests pruned to revisionHistoryLimit.
// Timers: the renewal time, the end of a failure backoff.
#pragma once

#include "runtime/controller/reconcile.h"

namespace capstan::certificates {

struct Env;

controller::Result reconcile_certificate(Env& env, const controller::Request& req, controller::Context& ctx);

}  // namespace capstan::certificates
