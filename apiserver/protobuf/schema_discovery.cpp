// discovery.k8s.io/v1 (k8s.io/api/discovery/v1): EndpointSlice.
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define DISCOVERY "k8s.io.api.discovery.v1."

PB_MESSAGE(kEndpointConditions, DISCOVERY "EndpointConditions",
           boolean(1, "ready", kKeepZero), boolean(2, "serving", kKeepZero), boolean(3, "terminating", kKeepZero));
PB_MESSAGE(kForZone, DISCOVERY "ForZone", str(1, "name", kKeepZero));
PB_MESSAGE(kEndpointHints, DISCOVERY "EndpointHints", list(msg(1, "forZones", kForZone)));
PB_MESSAGE(kSliceEndpoint, DISCOVERY "Endpoint",
           list(str(1, "addresses", kKeepZero)),
           msg(2, "conditions", kEndpointConditions, kValue),
           str(3, "hostname", kKeepZero),
           msg(4, "targetRef", kObjectReference),
           map_of(str(5, "deprecatedTopology")),
           str(6, "nodeName", kKeepZero),
           str(7, "zone", kKeepZero),
           msg(8, "hints", kEndpointHints));
PB_MESSAGE(kSliceEndpointPort, DISCOVERY "EndpointPort",
           str(1, "name", kKeepZero), str(2, "protocol", kKeepZero), i32(3, "port", kKeepZero),
           str(4, "appProtocol", kKeepZero));
PB_MESSAGE(kEndpointSlice, DISCOVERY "EndpointSlice",
           msg(1, "metadata", kObjectMeta, kValue),
           str(4, "addressType", kKeepZero),
           list(msg(2, "endpoints", kSliceEndpoint, kKeepZero)),
           list(msg(3, "ports", kSliceEndpointPort, kKeepZero)));

#undef DISCOVERY

}  // namespace capstan::apiserver::protobuf::schema
