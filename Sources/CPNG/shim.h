#ifndef ERRAND_CPNG_SHIM_H
#define ERRAND_CPNG_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <png.h>

/* Decodes a PNG held in memory into 8-bit RGB rows through libpng's simplified API (which handles palettes, grey,
   16-bit and interlacing, and composes transparency onto white). Returns a malloc'd buffer (free it with free) and
   sets width and height, or returns NULL for data that is not a PNG libpng can read. */
static inline unsigned char *errand_png_decode(const unsigned char *data, unsigned long size, int *width,
                                               int *height) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) return NULL;
    image.format = PNG_FORMAT_RGB;
    if (image.width == 0 || image.height == 0 || image.width > 16384 || image.height > 16384) {
        png_image_free(&image);
        return NULL;
    }
    unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (pixels == NULL) {
        png_image_free(&image);
        return NULL;
    }
    png_color white = {255, 255, 255};
    if (!png_image_finish_read(&image, &white, pixels, 0, NULL)) {
        free(pixels);
        png_image_free(&image);
        return NULL;
    }
    *width = (int)image.width;
    *height = (int)image.height;
    return pixels;
}
#endif
