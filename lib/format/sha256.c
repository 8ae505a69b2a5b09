/* lib/format/sha256.c: SHA-256 (FIPS 180-4), for the table digest that lets any
 * reader, in any language, check the uncompressed values, and the header
 * check every open does.  On x86-64 processors with the SHA extensions the
 * compression runs on them (about a tenth of the instructions); glibc tells
 * whether the processor has them from what it found at start-up, so asking
 * costs no CPUID. */
#include <string.h>

#include "format.h"

#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#define PTB_SHA_NI 1
#include <immintrin.h>
#include <sys/platform/x86.h>
#endif
#endif

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

static uint32_t ror(uint32_t x, unsigned n) { return x >> n | x << (32 - n); }

/* One round with the eight working variables named in their order this
 * round (a b c d e f g h); the next round names them one place on, so
 * nothing is moved between rounds. */
#define ROUND(a, b, c, d, e, f, g, h, i)                                    \
    do {                                                                    \
        uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) +           \
                      ((e & f) ^ (~e & g)) + K[i] + w[i];                   \
        d += t1;                                                            \
        h = t1 + (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) +                    \
            ((a & b) ^ (a & c) ^ (b & c));                                  \
    } while (0)

static void compress_chunk(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3;
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10;
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    uint32_t e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; i += 8) {
        ROUND(a, b, c, d, e, f, g, k, i);
        ROUND(k, a, b, c, d, e, f, g, i + 1);
        ROUND(g, k, a, b, c, d, e, f, i + 2);
        ROUND(f, g, k, a, b, c, d, e, i + 3);
        ROUND(e, f, g, k, a, b, c, d, i + 4);
        ROUND(d, e, f, g, k, a, b, c, i + 5);
        ROUND(c, d, e, f, g, k, a, b, i + 6);
        ROUND(b, c, d, e, f, g, k, a, i + 7);
    }
    const uint32_t sum[8] = { a, b, c, d, e, f, g, k };
    for (int i = 0; i < 8; i++)
        h[i] += sum[i];
}

#ifdef PTB_SHA_NI
/* compress_chunk() on the SHA extensions.  SHA256RNDS2 does two rounds on
 * the state held as (A, B, E, F) and (C, D, G, H), lanes from the high
 * one down; SHA256MSG1 and MSG2 extend the schedule four words at a time:
 * W[t] = MSG2(MSG1(W[t-16..t-13], W[t-12]) + W[t-7..t-4], W[t-4..t-1]). */
__attribute__((target("sha,sse4.1")))
static void compress_ni(uint32_t h[8], const unsigned char *p)
{
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL,
                                        0x0405060700010203LL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&h[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&h[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    const __m128i abef0 = abef, cdgh0 = cdgh;
    __m128i w[4];
    for (int g = 0; g < 16; g++) {
        __m128i m;
        if (g < 4)
            m = _mm_shuffle_epi8(
                _mm_loadu_si128((const __m128i *)(p + 16 * g)), swap);
        else
            m = _mm_sha256msg2_epu32(
                _mm_add_epi32(_mm_sha256msg1_epu32(w[g % 4], w[(g + 1) % 4]),
                              _mm_alignr_epi8(w[(g + 3) % 4],
                                              w[(g + 2) % 4], 4)),
                w[(g + 3) % 4]);
        w[g % 4] = m;
        __m128i k =
            _mm_add_epi32(m, _mm_loadu_si128((const __m128i *)&K[4 * g]));
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, k);
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(k, 0x0E));
    }
    abef = _mm_add_epi32(abef, abef0);
    cdgh = _mm_add_epi32(cdgh, cdgh0);
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}
#endif

int ptb_sha256_accelerated(void)
{
#ifdef PTB_SHA_NI
    return CPU_FEATURE_ACTIVE(SHA) && CPU_FEATURE_ACTIVE(SSE4_1);
#else
    return 0;
#endif
}

/* One 64-byte chunk into c's state, on the SHA extensions where there are
 * some. */
static void compress(ptb_sha256 *c, const unsigned char *p)
{
#ifdef PTB_SHA_NI
    if (!c->portable && ptb_sha256_accelerated()) {
        compress_ni(c->h, p);
        return;
    }
#endif
    compress_chunk(c->h, p);
}

void ptb_sha256_init(ptb_sha256 *c)
{
    static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372,
                                    0xa54ff53a, 0x510e527f, 0x9b05688c,
                                    0x1f83d9ab, 0x5be0cd19 };
    memcpy(c->h, h0, sizeof h0);
    c->len = 0;
    c->fill = 0;
    c->portable = 0;
}

void ptb_sha256_update(ptb_sha256 *c, const void *data, size_t n)
{
    const unsigned char *p = data;
    c->len += n;
    for (; c->fill == 0 && n >= 64; p += 64, n -= 64)
        compress(c, p);               /* whole chunks straight from data */
    while (n > 0) {
        size_t take = 64 - c->fill < n ? 64 - c->fill : n;
        memcpy(c->buf + c->fill, p, take);
        c->fill += take;
        p += take;
        n -= take;
        if (c->fill == 64) {
            compress(c, c->buf);
            c->fill = 0;
        }
    }
}

void ptb_sha256_final(ptb_sha256 *c, unsigned char out[32])
{
    uint64_t bits = c->len * 8;
    unsigned char pad[72] = { 0x80 };
    size_t padlen = (c->fill < 56 ? 56 : 120) - c->fill;
    for (int i = 0; i < 8; i++)
        pad[padlen + i] = (unsigned char)(bits >> (56 - 8 * i));
    ptb_sha256_update(c, pad, padlen + 8);
    for (int i = 0; i < 32; i++)
        out[i] = (unsigned char)(c->h[i / 4] >> (24 - 8 * (i % 4)));
}

void ptb_sha256_hex(ptb_sha256 *c, char out[65])
{
    unsigned char d[32];
    ptb_sha256_final(c, d);
    for (int i = 0; i < 64; i++)
        out[i] = "0123456789abcdef"[d[i / 2] >> (4 - 4 * (i % 2)) & 15];
    out[64] = '\0';
}
