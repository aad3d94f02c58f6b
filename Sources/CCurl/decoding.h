#ifndef ERRAND_CCURL_DECODING_H
#define ERRAND_CCURL_DECODING_H
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

// Errand decodes response bodies itself, with the zlib and brotli that libcurl links, so that it can tell a compressed
// stream that ended from one that was cut short (libcurl 7.88 accepts both). Their functions are looked up in the
// running process, where libcurl has loaded them: Errand needs neither their headers nor a link-time dependency, and
// decodes exactly what the libcurl in use could.

/// A symbol of the process or of a library it loaded at start-up (libcurl's dependencies), or NULL.
static inline void *errand_symbol(const char *name) {
    void *process = dlopen(NULL, RTLD_NOW);
    if (process == NULL) { return NULL; }
    void *symbol = dlsym(process, name);
    dlclose(process);
    return symbol;
}

/// zlib's stream record (`z_stream`), member for member: zlib's ABI, unchanged since zlib 1.0. `inflateInit2_`
/// checks its size, so a mismatch fails to initialise rather than corrupting memory.
typedef struct errand_z_stream {
    const uint8_t *next_in;
    unsigned int avail_in;
    unsigned long total_in;
    uint8_t *next_out;
    unsigned int avail_out;
    unsigned long total_out;
    const char *msg;
    void *state;
    void *zalloc;
    void *zfree;
    void *opaque;
    int data_type;
    unsigned long adler;
    unsigned long reserved;
} errand_z_stream;

typedef const char *(*errand_zlib_version_function)(void);
typedef int (*errand_inflate_init_function)(errand_z_stream *stream, int window_bits, const char *version, int size);
typedef int (*errand_inflate_function)(errand_z_stream *stream, int flush);
typedef int (*errand_inflate_end_function)(errand_z_stream *stream);

/// zlib's return codes and flush mode used here.
static const int errand_z_ok = 0;
static const int errand_z_stream_end = 1;
static const int errand_z_buf_error = -5;
static const int errand_z_no_flush = 0;

typedef void *(*errand_brotli_create_function)(void *alloc, void *free, void *opaque);
typedef int (*errand_brotli_decompress_function)(
    void *state, size_t *available_in, const uint8_t **next_in, size_t *available_out, uint8_t **next_out,
    size_t *total_out);
typedef void (*errand_brotli_destroy_function)(void *state);

/// `BrotliDecoderResult`'s values.
static const int errand_brotli_error = 0;
static const int errand_brotli_success = 1;
static const int errand_brotli_needs_more_input = 2;
static const int errand_brotli_needs_more_output = 3;

#endif
