// Schemas the monitoring kinds' fields share.
#pragma once

#include "apis/common/codec.h"
#include "apis/common/openapi.h"
#include "apis/monitoring/v1/types.h"

#include <string>

namespace capstan::apis::monitoring::v1 {

// A Prometheus duration (model.Duration: "30s", "1d"), as prometheus-operator's CRDs check it.
openapi::Schema duration(std::string_view description);

// A list of relabel configurations (RelabelConfig), at most 256.
openapi::Schema relabelings(std::string_view description);

// How a scrape of S authenticates (HttpCredentials): basicAuth, authorization, oauth2 (endpoints
// and Probes also have the deprecated bearerTokenSecret: bearer_token_field).
template <class S>
auto credential_fields() {
  using codec::field;
  return std::make_tuple(field<S>("basicAuth", &S::basic_auth, BasicAuth::schema()),
                         field<S>("authorization", &S::authorization, SafeAuthorization::schema()),
                         field<S>("oauth2", &S::oauth2, OAuth2::schema()));
}

template <class S>
auto scrape_class_field() {
  return codec::field<S>("scrapeClass", &S::scrape_class,
                         openapi::Schema::string("The Prometheus's scrape class to use (default: its default class).").min_length(1).max_length(253));
}

template <class S>
auto bearer_token_field() {
  return codec::field<S>("bearerTokenSecret", &S::bearer_token_secret,
                         std::move(SecretKeySelector::schema().description("A bearer token (deprecated: use authorization).")));
}

// The pod settings a Prometheus and an Alertmanager pass through to their StatefulSet's pods, in
// the order prometheus-operator lists them; `container` names the main container.
template <class S>
auto pod_fields(const std::string& container) {
  using codec::field;
  using openapi::Schema;
  return std::make_tuple(
      field<S>("serviceAccountName", &S::service_account_name, openapi::object_name("ServiceAccount the pods run as.")),
      field<S>("resources", &S::resources, Schema::open_object("Resource requests and limits of the " + container + " container.")),
      field<S>("nodeSelector", &S::node_selector, Schema::string_map("Node selector of the pods.").max_properties(64)),
      field<S>("tolerations", &S::tolerations, Schema::array(Schema::open_object("A toleration."), "Tolerations of the pods.").max_items(64)),
      field<S>("affinity", &S::affinity, Schema::open_object("Affinity of the pods.")),
      field<S>("topologySpreadConstraints", &S::topology_spread_constraints,
               Schema::array(Schema::open_object("A topology spread constraint."), "Topology spread constraints of the pods.").max_items(32)),
      field<S>("securityContext", &S::security_context, Schema::open_object("Security context of the pods (PodSecurityContext).")),
      field<S>("priorityClassName", &S::priority_class_name, Schema::string("Priority class of the pods.").max_length(253)),
      field<S>("imagePullSecrets", &S::image_pull_secrets,
               Schema::array(Schema::open_object("A reference to a Secret ({name})."), "Secrets to pull the images with.").max_items(32)),
      field<S>("containers", &S::containers,
               Schema::array(Schema::open_object("A container, merged by name into the generated ones."), "Containers of the pods.").max_items(32)),
      field<S>("initContainers", &S::init_containers,
               Schema::array(Schema::open_object("An init container, merged by name."), "Init containers of the pods.").max_items(32)),
      field<S>("volumes", &S::volumes, Schema::array(Schema::open_object("A volume, merged by name."), "Volumes of the pods.").max_items(64)));
}

}  // namespace capstan::apis::monitoring::v1
