// PT2LINT_ADDRESS_SANITIZER is defined when this build runs under AddressSanitizer, and
// PT2LINT_THREAD_SANITIZER under ThreadSanitizer (a build that checks the threads of one
// check, docs/performance.md). GCC says so with __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__,
// clang (the sanitizer tree's compiler) only through __has_feature: code that steps aside for
// a sanitizer's allocator or leak check asks these macros, not either.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define PT2LINT_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PT2LINT_ADDRESS_SANITIZER 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define PT2LINT_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PT2LINT_THREAD_SANITIZER 1
#endif
#endif
