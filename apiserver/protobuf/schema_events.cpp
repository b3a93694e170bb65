// events.k8s.io/v1 (k8s.io/api/events/v1): Event.
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define EVENTS "k8s.io.api.events.v1."

PB_MESSAGE(kEventsEventSeries, EVENTS "EventSeries", i32(1, "count", kKeepZero), msg(2, "lastObservedTime", kMicroTime));
PB_MESSAGE(kEventsEvent, EVENTS "Event",
           msg(1, "metadata", kObjectMeta, kValue),
           msg(2, "eventTime", kMicroTime),
           msg(3, "series", kEventsEventSeries),
           str(4, "reportingController"),
           str(5, "reportingInstance"),
           str(6, "action"),
           str(7, "reason"),
           msg(8, "regarding", kObjectReference, kValue),
           msg(9, "related", kObjectReference),
           str(10, "note"),
           str(11, "type"),
           msg(12, "deprecatedSource", kEventSource, kValue),
           msg(13, "deprecatedFirstTimestamp", kTime),
           msg(14, "deprecatedLastTimestamp", kTime),
           i32(15, "deprecatedCount"));

#undef EVENTS

}  // namespace capstan::apiserver::protobuf::schema
