// Umbrella header for runtime/pki.
#pragma once

#include "runtime/pki/certificate.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/dn.h"
#include "runtime/pki/error.h"
#include "runtime/pki/key.h"
#include "runtime/pki/sign.h"
#include "runtime/pki/template.h"
#include "runtime/pki/usage.h"
#include "runtime/pki/verify.h"
