#include "runtime/controller/memory_budget.h"

#include <malloc.h>

#include <cstdlib>

namespace capstan::controller {

#if defined(__SANITIZE_ADDRESS__)
#define CAPSTAN_COUNT_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CAPSTAN_COUNT_ALLOCATIONS 0
#endif
#endif
#ifndef CAPSTAN_COUNT_ALLOCATIONS
#define CAPSTAN_COUNT_ALLOCATIONS 1
#endif

using State = detail::BudgetState;

namespace {

// Constant-initialised: safe to read in threads being created or torn down.
thread_local State t_state{};

#if CAPSTAN_COUNT_ALLOCATIONS
inline void count_new(void* p) {
  State& s = t_state;
  if (!s.open || !p) return;
  s.live += static_cast<std::int64_t>(malloc_usable_size(p));
  if (s.live > s.peak) s.peak = s.live;
  if (s.limit > 0) {
    std::int64_t cap = s.tripped ? s.limit + s.limit / 4 : s.limit;
    if (s.live > cap) {
      s.live -= static_cast<std::int64_t>(malloc_usable_size(p));
      std::free(p);
      s.tripped = true;
      throw MemoryBudgetExceeded();
    }
  }
}

inline void count_delete(void* p) {
  State& s = t_state;
  if (s.open && p) s.live -= static_cast<std::int64_t>(malloc_usable_size(p));
}

void* allocate(std::size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  count_new(p);
  return p;
}

void* allocate_aligned(std::size_t n, std::align_val_t al) {
  std::size_t a = static_cast<std::size_t>(al);
  if (a < sizeof(void*)) a = sizeof(void*);
  void* p = nullptr;
  if (posix_memalign(&p, a, n ? n : 1) != 0) throw std::bad_alloc();
  count_new(p);
  return p;
}

void release(void* p) noexcept {
  count_delete(p);
  std::free(p);
}
#endif

}  // namespace

const char* MemoryBudgetExceeded::what() const noexcept { return "the reconcile ran past its memory budget"; }

bool MemoryBudget::enforced() noexcept { return CAPSTAN_COUNT_ALLOCATIONS != 0; }

bool MemoryBudget::tripped() noexcept { return t_state.open && t_state.tripped; }

// Every Scope on a thread shares t_state; a nested scope saves the outer one and, closing, adds
// what it left allocated to it.
MemoryBudget::Scope::Scope(std::size_t limit_bytes) noexcept : saved_(t_state) {
  t_state = State{0, 0, static_cast<std::int64_t>(limit_bytes), false, true};
}

MemoryBudget::Scope::~Scope() {
  State restored = saved_;
  if (restored.open) {
    restored.live += t_state.live;
    if (restored.live > restored.peak) restored.peak = restored.live;
  }
  t_state = restored;
}

std::int64_t MemoryBudget::Scope::live() const noexcept { return t_state.live; }
std::int64_t MemoryBudget::Scope::peak() const noexcept { return t_state.peak; }
bool MemoryBudget::Scope::exceeded() const noexcept { return t_state.tripped; }

}  // namespace capstan::controller

#if CAPSTAN_COUNT_ALLOCATIONS
// The replaceable global allocation functions ([new.delete]); each goes through the budget.
void* operator new(std::size_t n) { return capstan::controller::allocate(n); }
void* operator new[](std::size_t n) { return capstan::controller::allocate(n); }
void* operator new(std::size_t n, std::align_val_t al) { return capstan::controller::allocate_aligned(n, al); }
void* operator new[](std::size_t n, std::align_val_t al) { return capstan::controller::allocate_aligned(n, al); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return capstan::controller::allocate(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return capstan::controller::allocate(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  try {
    return capstan::controller::allocate_aligned(n, al);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  try {
    return capstan::controller::allocate_aligned(n, al);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { capstan::controller::release(p); }
void operator delete[](void* p) noexcept { capstan::controller::release(p); }
void operator delete(void* p, std::size_t) noexcept { capstan::controller::release(p); }
void operator delete[](void* p, std::size_t) noexcept { capstan::controller::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { capstan::controller::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { capstan::controller::release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { capstan::controller::release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { capstan::controller::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { capstan::controller::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { capstan::controller::release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { capstan::controller::release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { capstan::controller::release(p); }
#endif
