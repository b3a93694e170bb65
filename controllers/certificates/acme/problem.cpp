#include "controllers/certificates/acme/problem.h"

namespace capstan::certificates::acme {
namespace {

std::optional<Identifier> parse_identifier(const json::Object& o) {
  const json::Object* id = json::get_object(o, {"identifier"});
  if (!id) return std::nullopt;
  return Identifier{std::string(json::get_string(*id, {"type"})), std::string(json::get_string(*id, {"value"}))};
}

std::string message(const Problem& p, int status, const RequestContext& r) {
  std::string m = "ACME " + r.describe() + ": " + std::to_string(status);
  if (!p.type.empty()) m += " " + p.type;
  if (!p.detail.empty()) m += ": " + p.detail;
  for (const auto& s : p.subproblems) {
    m += "; ";
    if (s.identifier) m += s.identifier->to_string() + ": ";
    m += s.type;
    if (!s.detail.empty()) m += " (" + s.detail + ")";
  }
  return m;
}

}  // namespace

std::string Problem::to_string() const {
  if (type.empty()) return detail;
  return detail.empty() ? type : type + ": " + detail;
}

Problem parse_problem(const json::Object& o) {
  Problem p;
  p.type = json::get_string(o, {"type"});
  p.detail = json::get_string(o, {"detail"});
  p.status = static_cast<int>(json::get_int(o, {"status"}).value_or(0));
  p.identifier = parse_identifier(o);
  if (const json::Array* subs = json::get_array(o, {"subproblems"})) {
    for (const auto& v : *subs) {
      if (!v.is_object()) continue;
      const auto& so = v.as_object();
      Subproblem s;
      s.type = json::get_string(so, {"type"});
      s.detail = json::get_string(so, {"detail"});
      s.identifier = parse_identifier(so);
      p.subproblems.push_back(std::move(s));
    }
  }
  return p;
}

Problem parse_problem_body(std::string_view body) {
  if (auto v = json::try_parse(body); v && v->is_object()) {
    Problem p = parse_problem(v->as_object());
    if (!p.type.empty() || !p.detail.empty()) return p;
  }
  Problem p;
  constexpr std::size_t kMax = 256;
  p.detail = std::string(body.substr(0, kMax));
  if (body.size() > kMax) p.detail += "...";
  return p;
}

std::string RequestContext::describe() const { return action + " " + method + " " + url; }

AcmeError::AcmeError(Problem problem, int http_status, RequestContext request, std::optional<std::chrono::seconds> retry_after)
    : std::runtime_error(message(problem, http_status ? http_status : problem.status, request)),
      problem_(std::move(problem)),
      status_(http_status ? http_status : problem_.status),
      request_(std::move(request)),
      retry_after_(retry_after) {}

bool AcmeError::is(std::string_view type) const noexcept { return problem_is(problem_.type, type); }

bool problem_is(std::string_view type, std::string_view want) noexcept {
  if (type == want) return true;
  if (want.substr(0, errors::kPrefix.size()) == errors::kPrefix) return false;
  return type.size() == errors::kPrefix.size() + want.size() && type.substr(0, errors::kPrefix.size()) == errors::kPrefix &&
         type.substr(errors::kPrefix.size()) == want;
}

}  // namespace capstan::certificates::acme
