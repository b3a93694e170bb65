#include "apis/monitoring/promql/functions.h"

namespace capstan::promql {
namespace {

using V = ValueType;
constexpr V kNone[] = {V::kNone};
constexpr V kVec[] = {V::kVector};
constexpr V kMat[] = {V::kMatrix};
constexpr V kScal[] = {V::kScalar};
constexpr V kVecScal[] = {V::kVector, V::kScalar};
constexpr V kVecScalScal[] = {V::kVector, V::kScalar, V::kScalar};
constexpr V kMatScal[] = {V::kMatrix, V::kScalar};
constexpr V kMatScalScal[] = {V::kMatrix, V::kScalar, V::kScalar};
constexpr V kScalMat[] = {V::kScalar, V::kMatrix};
constexpr V kScalVec[] = {V::kScalar, V::kVector};
constexpr V kScalScalVec[] = {V::kScalar, V::kScalar, V::kVector};
constexpr V kLabelReplace[] = {V::kVector, V::kString, V::kString, V::kString, V::kString};
constexpr V kLabelJoin[] = {V::kVector, V::kString, V::kString, V::kString};

std::span<const V> none() { return std::span<const V>(kNone, 0); }

// Sorted by name, as the documentation lists them.
const Function kFunctions[] = {
    {"abs", kVec},
    {"absent", kVec},
    {"absent_over_time", kMat},
    {"acos", kVec},
    {"acosh", kVec},
    {"asin", kVec},
    {"asinh", kVec},
    {"atan", kVec},
    {"atanh", kVec},
    {"avg_over_time", kMat},
    {"ceil", kVec},
    {"changes", kMat},
    {"clamp", kVecScalScal},
    {"clamp_max", kVecScal},
    {"clamp_min", kVecScal},
    {"cos", kVec},
    {"cosh", kVec},
    {"count_over_time", kMat},
    {"day_of_month", kVec, 1},
    {"day_of_week", kVec, 1},
    {"day_of_year", kVec, 1},
    {"days_in_month", kVec, 1},
    {"deg", kVec},
    {"delta", kMat},
    {"deriv", kMat},
    {"exp", kVec},
    {"floor", kVec},
    {"histogram_count", kVec},
    {"histogram_fraction", kScalScalVec},
    {"histogram_quantile", kScalVec},
    {"histogram_sum", kVec},
    {"holt_winters", kMatScalScal},
    {"hour", kVec, 1},
    {"idelta", kMat},
    {"increase", kMat},
    {"irate", kMat},
    {"label_join", kLabelJoin, -1},
    {"label_replace", kLabelReplace},
    {"last_over_time", kMat},
    {"ln", kVec},
    {"log10", kVec},
    {"log2", kVec},
    {"max_over_time", kMat},
    {"min_over_time", kMat},
    {"minute", kVec, 1},
    {"month", kVec, 1},
    {"pi", none(), 0, V::kScalar},
    {"predict_linear", kMatScal},
    {"present_over_time", kMat},
    {"quantile_over_time", kScalMat},
    {"rad", kVec},
    {"rate", kMat},
    {"resets", kMat},
    {"round", kVecScal, 1},
    {"scalar", kVec, 0, V::kScalar},
    {"sgn", kVec},
    {"sin", kVec},
    {"sinh", kVec},
    {"sort", kVec},
    {"sort_desc", kVec},
    {"sqrt", kVec},
    {"stddev_over_time", kMat},
    {"stdvar_over_time", kMat},
    {"sum_over_time", kMat},
    {"tan", kVec},
    {"tanh", kVec},
    {"time", none(), 0, V::kScalar},
    {"timestamp", kVec},
    {"vector", kScal},
    {"year", kVec, 1},
};

}  // namespace

const Function* find_function(std::string_view name) {
  for (const auto& f : kFunctions)
    if (f.name == name) return &f;
  return nullptr;
}

std::span<const Function> functions() { return kFunctions; }

}  // namespace capstan::promql
