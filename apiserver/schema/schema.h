// Umbrella header for CRD structural schema handling (parse, validate, default, prune, publish).
#pragma once

#include "runtime/validation/field.h"
#include "apiserver/schema/cel_rules.h"
#include "apiserver/schema/cel_validate.h"
#include "apiserver/schema/defaults.h"
#include "apiserver/schema/model.h"
#include "apiserver/schema/openapi.h"
#include "apiserver/schema/parse.h"
#include "apiserver/schema/prune.h"
#include "apiserver/schema/status.h"
#include "apiserver/schema/validate.h"
