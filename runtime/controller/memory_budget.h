// A memory budget per reconcile. While a MemoryBudget::Scope is open on a thread, every
// operator new on that thread adds the block's usable size to the scope's live bytes and every
// operator delete of a block subtracts it; an allocation that would take the live bytes past
// the budget throws MemoryBudgetExceeded (a std::bad_alloc) instead, once: the reconcile
// unwinds and fails alone (its controller counts it and retries with backoff) where the whole
// process would otherwise be OOM-killed with the other controllers in it.
//
// What it counts: C++ allocations made on the reconcile's thread while it runs, net of what it
// frees (blocks handed to other threads still count; blocks from before the scope freed inside
// it count negative). Not counted: malloc() called directly by C libraries (libgit2, OpenSSL,
// librdkafka); those keep their own size limits (Git fetch size, PEM sizes).
//
// After the budget has tripped once, unwinding and the reconciler's own error handling may
// allocate a little more: only going past budget + budget/4 throws again. The trip is recorded
// in the scope (exceeded(), tripped()), so the controller treats the reconcile as a memory-budget
// fault whatever the reconciler caught, returned or threw.
//
// The global operator new/delete replacements live in memory_budget.cpp and come into every
// binary that links the controller library. With no scope open they add one thread-local read
// to each allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

namespace capstan::controller {

class MemoryBudgetExceeded : public std::bad_alloc {
 public:
  const char* what() const noexcept override;
};

namespace detail {
// A thread's open scope (plain data: operator new reads it without a TLS guard).
struct BudgetState {
  std::int64_t live = 0;
  std::int64_t peak = 0;
  std::int64_t limit = 0;  // 0 = none
  bool tripped = false;
  bool open = false;
};
}  // namespace detail

class MemoryBudget {
 public:
  // Whether this build counts allocations (not under AddressSanitizer, whose own operator new
  // checks new/delete pairs and is kept there).
  static bool enforced() noexcept;

  // Whether the scope open on this thread has run past its budget (false when none is open).
  // The record outlives the MemoryBudgetExceeded it threw: a reconciler that catches the
  // exception (as a std::exception or std::bad_alloc) cannot erase it, so the controller and
  // write_status (status.h) still see the reconcile as a memory-budget fault.
  static bool tripped() noexcept;

  class Scope {
   public:
    // `limit_bytes` 0 = no budget (the scope still measures).
    explicit Scope(std::size_t limit_bytes) noexcept;
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

    std::int64_t live() const noexcept;       // net bytes allocated since the scope opened
    std::int64_t peak() const noexcept;       // the most `live` has been
    bool exceeded() const noexcept;           // the budget tripped in this scope

   private:
    detail::BudgetState saved_;  // an enclosing scope on this thread (or none), restored on close
  };
};

}  // namespace capstan::controller
