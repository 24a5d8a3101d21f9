// PT2LINT_ADDRESS_SANITIZER is defined when this build runs under AddressSanitizer. GCC says so
// with __SANITIZE_ADDRESS__, clang (the sanitizer tree's compiler) only through __has_feature:
// code that steps aside for the sanitizer's allocator or leak check asks this macro, not either.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define PT2LINT_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PT2LINT_ADDRESS_SANITIZER 1
#endif
#endif
