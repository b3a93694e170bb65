// Small helpers over Kubernetes objects shared by the controllers.
#pragma once

#include "apis/certs/v1/certificate_request.h"
#include "runtime/controller/reconcile.h"
#include "runtime/json/json.h"

#include <map>
#include <string>
#include <string_view>

namespace capstan::certificates {

// A controller ownerReference (blockOwnerDeletion) to an object of `kind` in certs.capstan.dev/v1.
json::Value owner_reference(std::string_view kind, const json::Value& owner);
// What an Event needs to point at an object: apiVersion, kind and metadata name/namespace/uid/resourceVersion.
json::Value event_target(std::string_view api_version, std::string_view kind, const json::Value& obj);
json::Object to_object(const std::map<std::string, std::string>& m);
// The object's metadata.creationTimestamp (epoch when missing).
std::string_view creation_timestamp(const json::Value& obj);

// The typed CertificateRequest; an undecodable one is a TerminalError (no retry helps).
apis::certs::v1::CertificateRequest decode_request(const json::Value& obj, const controller::Request& req);

}  // namespace capstan::certificates
