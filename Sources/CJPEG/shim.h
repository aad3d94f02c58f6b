#ifndef ERRAND_CJPEG_SHIM_H
#define ERRAND_CJPEG_SHIM_H
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

/* libjpeg reports a corrupt file by calling error_exit, which must not return: it jumps back here, since Swift
   cannot catch a longjmp. */
struct errand_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
};

static void errand_jpeg_error_exit(j_common_ptr info) {
    struct errand_jpeg_error *error = (struct errand_jpeg_error *)info->err;
    longjmp(error->jump, 1);
}

static void errand_jpeg_quiet(j_common_ptr info) { (void)info; }

/* Decodes a JPEG held in memory into 8-bit RGB rows, scaled down by libjpeg itself (1/2, 1/4 or 1/8) while the
   result stays at least min_side pixels on its shorter side. Returns a malloc'd buffer (free it with free) and sets
   width and height, or returns NULL for data that is not a JPEG libjpeg can read. */
static inline unsigned char *errand_jpeg_decode(const unsigned char *data, unsigned long size, int min_side,
                                                int *width, int *height) {
    struct jpeg_decompress_struct info;
    struct errand_jpeg_error error;
    unsigned char *volatile pixels = NULL;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = errand_jpeg_error_exit;
    error.manager.output_message = errand_jpeg_quiet;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    if (jpeg_read_header(&info, TRUE) != JPEG_HEADER_OK) {
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    info.out_color_space = JCS_RGB;
    unsigned int shorter = info.image_width < info.image_height ? info.image_width : info.image_height;
    unsigned int denominator = 1;
    while (denominator < 8 && min_side > 0 && shorter / (denominator * 2) >= (unsigned int)min_side) denominator *= 2;
    info.scale_num = 1;
    info.scale_denom = denominator;
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 3;
    pixels = malloc(stride * info.output_height);
    if (pixels == NULL) {
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return pixels;
}
#endif
