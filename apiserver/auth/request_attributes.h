// The authorization attributes of an HTTP request, derived as kube-apiserver's RequestInfoFactory
// does. That differs from routing in ways RBAC can see: /api/v1/namespaces/NS is resource
// "namespaces" named NS *in* namespace NS; a list or watch with fieldSelector=metadata.name=X
// carries the name X; /api/v1/watch/... and /api/v1/proxy/... carry their verb in the path;
// anything that is not /api/VERSION/... or /apis/GROUP/VERSION/... is a non-resource request whose
// verb is the lowercased method.
#pragma once

#include "apiserver/auth/attributes.h"
#include "runtime/http/message.h"

namespace capstan::apiserver::auth {

Attributes request_attributes(const http::Request& req, const rest::User& user);

}  // namespace capstan::apiserver::auth
