#ifndef ERRAND_CZLIB_SHIM_H
#define ERRAND_CZLIB_SHIM_H
#include <zlib.h>

/* deflateInit2 and inflateInit2 are macros that pass the header's version and the stream's size; Swift cannot call a
   macro, so these pass them on its behalf. */
static inline int errand_deflate_init(z_streamp stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY);
}

static inline int errand_inflate_init(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
#endif
