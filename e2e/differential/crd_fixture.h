// The CustomResourceDefinition the differential cases share: Gadget (diff.example.com/v1), a
// structural schema with defaults, bounds, an enum, a pattern, a map-list, pruned and
// preserved fields, a CEL rule, status and scale subresources and printer columns. Installed
// once by server-side apply on both servers; cases wait until it is served.
#pragma once

#include "e2e/differential/session.h"

namespace capstan::e2e::diff {

void install_gadgets(Session& s);

// Widget (diff.example.com/v1): CEL rules of every kind the embedded server evaluates, a
// transition rule (self == oldSelf), a messageExpression, a reason with a fieldPath, and a rule
// on a scalar.
void install_widgets(Session& s);

}  // namespace capstan::e2e::diff
