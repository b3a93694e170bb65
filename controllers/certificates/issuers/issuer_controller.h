// The issuers and clusterissuers controllers (pkg/controller/issuers, clusterissuers): the
// Ready condition of each Issuer/ClusterIssuer from its type's setup (SelfSigned IsReady; CA
// KeyPairVerified / ErrGetKeyPair / ErrInvalidKeyPair; ACME ACMEAccountRegistered /
// ErrRegisterACMEAccount with status.acme), with observedGeneration.
#pragma once

#include "runtime/controller/reconcile.h"

namespace capstan::certificates {

struct Env;

controller::Result reconcile_issuer(Env& env, bool cluster, const controller::Request& req, controller::Context& ctx);

}  // namespace capstan::certificates
