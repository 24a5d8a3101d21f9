#include "io/readers/zip/crc32_fold.h"

#include <zlib.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace pt2lint {
namespace {

#if defined(__x86_64__)

// Folding constants for the reflected polynomial 0xEDB88320 (Intel, "Fast CRC Computation for
// Generic Polynomials Using PCLMULQDQ", 2009; the same as zlib-ng's and Linux's crc32-pclmul):
// x^(512+64) and x^512 mod P, x^(128+64) and x^128 mod P, x^64 mod P, then P and mu for the
// Barrett reduction.
alignas(16) constexpr std::uint64_t kFold4[2] = {0x0154442bd4, 0x01c6e41596};
alignas(16) constexpr std::uint64_t kFold1[2] = {0x01751997d0, 0x00ccaa009e};
alignas(16) constexpr std::uint64_t kFold64[2] = {0x0163cd6124, 0x0000000000};
alignas(16) constexpr std::uint64_t kBarrett[2] = {0x01db710641, 0x01f7011641};

inline __m128i load_block(const unsigned char* at) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
}

// `x` carried 128 (or 512) bits further by the constants `k`, plus the next block.
__attribute__((target("pclmul,sse4.1"))) inline __m128i fold_block(__m128i k, __m128i x, __m128i next) {
  const __m128i low = _mm_clmulepi64_si128(x, k, 0x00);
  const __m128i high = _mm_clmulepi64_si128(x, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(high, low), next);
}

// The raw (un-inverted) CRC state of `n` bytes, n >= 64 and a multiple of 16, from `state`.
__attribute__((target("pclmul,sse4.1"))) std::uint32_t fold_crc(const unsigned char* p,
                                                                 std::size_t n,
                                                                 std::uint32_t state) {
  // Four lanes of 128 bits folded 64 bytes ahead at a time.
  __m128i x1 = _mm_xor_si128(load_block(p), _mm_cvtsi32_si128(static_cast<int>(state)));
  __m128i x2 = load_block(p + 16);
  __m128i x3 = load_block(p + 32);
  __m128i x4 = load_block(p + 48);
  p += 64;
  n -= 64;
  __m128i k = _mm_load_si128(reinterpret_cast<const __m128i*>(kFold4));
  while (n >= 64) {
    x1 = fold_block(k, x1, load_block(p));
    x2 = fold_block(k, x2, load_block(p + 16));
    x3 = fold_block(k, x3, load_block(p + 32));
    x4 = fold_block(k, x4, load_block(p + 48));
    p += 64;
    n -= 64;
  }
  // The four lanes into one, then the 16-byte blocks left.
  k = _mm_load_si128(reinterpret_cast<const __m128i*>(kFold1));
  x1 = fold_block(k, x1, x2);
  x1 = fold_block(k, x1, x3);
  x1 = fold_block(k, x1, x4);
  while (n >= 16) {
    x1 = fold_block(k, x1, load_block(p));
    p += 16;
    n -= 16;
  }
  // 128 bits to 64, then Barrett reduction to 32.
  const __m128i mask32 = _mm_setr_epi32(~0, 0, ~0, 0);
  x2 = _mm_clmulepi64_si128(x1, k, 0x10);
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
  k = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(kFold64));
  x2 = _mm_srli_si128(x1, 4);
  x1 = _mm_and_si128(x1, mask32);
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, k, 0x00), x2);
  k = _mm_load_si128(reinterpret_cast<const __m128i*>(kBarrett));
  x2 = _mm_and_si128(x1, mask32);
  x2 = _mm_clmulepi64_si128(x2, k, 0x10);
  x2 = _mm_and_si128(x2, mask32);
  x2 = _mm_clmulepi64_si128(x2, k, 0x00);
  x1 = _mm_xor_si128(x1, x2);
  return static_cast<std::uint32_t>(_mm_extract_epi32(x1, 1));
}

bool has_clmul() {
  static const bool supported = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  return supported;
}

#endif

}  // namespace

std::uint32_t crc32_of(std::uint32_t crc, const char* bytes, std::size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes);
#if defined(__x86_64__)
  if (n >= 64 && has_clmul()) {
    const std::size_t folded = n & ~std::size_t{15};
    crc = ~fold_crc(p, folded, ~crc);
    p += folded;
    n -= folded;
  }
#endif
  return static_cast<std::uint32_t>(crc32_z(crc, p, n));
}

}  // namespace pt2lint
