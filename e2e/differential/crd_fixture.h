// The CustomResourceDefinition the differential cases share: Gadget (diff.example.com/v1), a
// structural schema with defaults, bounds, an enum, a pattern, a map-list, pruned and
// preserved fields, a CEL rule, status and scale subresources and printer columns. Installed
// once by server-side apply on both servers; cases wait until it is served.
#pragma once

#include "e2e/differential/session.h"

namespace capstan::e2e::diff {

void install_gadgets(Session& s);

}  // namespace capstan::e2e::diff
