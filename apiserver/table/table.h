// Assembling meta.k8s.io Table responses: what kube-apiserver returns to
// `Accept: application/json;as=Table;v=v1;g=meta.k8s.io` (kubectl get), for lists, single
// objects and watch events.
//
//   {"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"12"},
//    "columnDefinitions":[{"name":"Name",...}],
//    "rows":[{"cells":["web","5m"],"object":{"kind":"PartialObjectMetadata",...}}]}
#pragma once

#include "apiserver/table/converter.h"
#include "runtime/json/json.h"
#include "runtime/meta/time.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::table {

// ?includeObject=: what each row's "object" carries.
enum class IncludeObject {
  None,      // "object": null
  Metadata,  // PartialObjectMetadata (the default, and what kubectl asks for)
  Object,    // the full object, as the caller encoded it for the request's version
};

// "" and "Metadata" -> Metadata, "None", "Object"; anything else -> nullopt (kube-apiserver
// answers 400 BadRequest: `unrecognized includeObject value: "x"`).
std::optional<IncludeObject> parse_include_object(std::string_view value);

struct TableOptions {
  IncludeObject include = IncludeObject::Metadata;
  // Leave out the column definitions ("columnDefinitions": null), as kube-apiserver does for
  // every watch event after the first.
  bool no_headers = false;
  // The Table's own group/version, also used for PartialObjectMetadata: "meta.k8s.io/v1" or
  // "meta.k8s.io/v1beta1", whichever the Accept header negotiated.
  std::string api_version = "meta.k8s.io/v1";
  // Ages are computed against this instant; inject it for deterministic output.
  meta::TimePoint now = meta::Clock::now();
};

// The Table's metadata (metav1.ListMeta); empty members are omitted from the JSON.
struct ListMeta {
  std::string resource_version;
  std::string continue_token;
  std::optional<std::int64_t> remaining_item_count;

  // From a list's "metadata" (resourceVersion, continue, remainingItemCount).
  static ListMeta of_list(const json::Value& list);
  // A single object's resourceVersion (GET of one object, watch events).
  static ListMeta of_object(const json::Value& obj);
  json::Value to_json() const;
};

// {"kind":"PartialObjectMetadata","apiVersion":<api_version>,"metadata":<obj.metadata>}
json::Value partial_object_metadata(const json::Value& obj, std::string_view api_version = "meta.k8s.io/v1");
// The row "object" for `include`: null, PartialObjectMetadata or a copy of `obj`.
json::Value row_object(const json::Value& obj, IncludeObject include, std::string_view api_version);

// Lowest level: rows already computed, objects[i] being the source of rows[i].
json::Value build_table(const std::vector<ColumnDefinition>& columns, const std::vector<Row>& rows,
                        const std::vector<const json::Value*>& objects, const TableOptions& options,
                        const ListMeta& list_meta);
// Converts each object with `converter`, in order.
json::Value build_table(const Converter& converter, const std::vector<const json::Value*>& objects,
                        const TableOptions& options, const ListMeta& list_meta);
json::Value build_table(const Converter& converter, const json::Array& items, const TableOptions& options,
                        const ListMeta& list_meta);

// A whole response body: `list_or_object` is either a list ({"items":[...],"metadata":{...}}),
// giving one row per item and the list's metadata, or a single object, giving one row and its
// resourceVersion.
json::Value table_for(const Converter& converter, const json::Value& list_or_object, const TableOptions& options);

// The object of one watch event: a one-row Table for `obj`, without column definitions when
// options.no_headers is set.
json::Value watch_event_table(const Converter& converter, const json::Value& obj, const TableOptions& options);

// Per-watch state: kube-apiserver sends column definitions with the first event's Table only.
// (It leaves ERROR events' Status objects as they are; only object events become Tables.)
class WatchTableEncoder {
 public:
  WatchTableEncoder(const Converter& converter, TableOptions options)
      : converter_(converter), options_(std::move(options)) {}
  // The Table for the next event's object. `now` refreshes the age anchor when given.
  json::Value next(const json::Value& obj, std::optional<meta::TimePoint> now = std::nullopt);
  bool headers_sent() const { return options_.no_headers; }

 private:
  const Converter& converter_;
  TableOptions options_;
};

}  // namespace capstan::apiserver::table
