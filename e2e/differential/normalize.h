// What the differential suite does not compare, and how it reports what it does: values that
// legitimately differ between two servers (uids, timestamps, resourceVersion values, continue
// tokens, managedFields times) are masked; a case can mask more (paths, or text patterns in
// every string); two normalized documents are compared member by member into a list of
// differences a reader can act on ("/metadata/labels/a: embedded "x", kube "y"").
#pragma once

#include "runtime/json/json.h"

#include <regex>
#include <string>
#include <vector>

namespace capstan::e2e::diff {

struct Masks {
  // Paths whose values are replaced by "<masked>" (or removed with drop): "/" separated,
  // "*" matches any one member or array index, e.g. "/status/token", "/items/*/metadata/name".
  std::vector<std::string> mask;
  std::vector<std::string> drop;
  // Applied to every string (values and text bodies): pattern -> replacement.
  std::vector<std::pair<std::regex, std::string>> text;
};

// The default masks plus `extra`, applied in place.
void normalize(json::Value& v, const Masks& extra = {});
// The same for a body that is not JSON (kubectl output, plain text): uids, timestamps,
// ages ("5s", "3m2s"), then `extra.text`.
std::string normalize_text(std::string s, const Masks& extra = {});

// Differences between two normalized documents, at most `limit` of them.
std::vector<std::string> differences(const json::Value& embedded, const json::Value& kube, std::size_t limit = 12);

}  // namespace capstan::e2e::diff
