#include "jpeg_shim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

// libjpeg's error manager, extended with where to jump and where the message goes.
struct lk_error {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
    size_t message_size;
    int warned_truncated;
};

static void lk_error_exit(j_common_ptr cinfo) {
    struct lk_error *e = (struct lk_error *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    e->base.format_message(cinfo, buffer);
    snprintf(e->message, e->message_size, "%s", buffer);
    longjmp(e->jump, 1);
}

// Warnings are not printed to stderr; a premature end of data (libjpeg pads the rest with grey
// and goes on) is remembered and made an error, as a truncated file should be.
static void lk_emit_message(j_common_ptr cinfo, int level) {
    struct lk_error *e = (struct lk_error *)cinfo->err;
    if (level < 0 && e->base.msg_code == JWRN_JPEG_EOF && !e->warned_truncated) {
        e->warned_truncated = 1;
        snprintf(e->message, e->message_size, "the data ends before the image does (truncated)");
    }
}

// The error manager for one (de)compression; the caller sets the jump point.
static struct jpeg_error_mgr *lk_error_init(struct lk_error *e, char *error, size_t error_size) {
    memset(e, 0, sizeof *e);
    jpeg_std_error(&e->base);
    e->base.error_exit = lk_error_exit;
    e->base.emit_message = lk_emit_message;
    e->message = error;
    e->message_size = error_size;
    if (error_size > 0) error[0] = 0;
    return &e->base;
}

int lk_jpeg_decode_rgba(const uint8_t *data, size_t size, int max_side, int *width, int *height, uint8_t **rgba,
                        char *error, size_t error_size) {
    struct jpeg_decompress_struct cinfo;
    struct lk_error e;
    // Written through a pointer after setjmp, so kept in memory for the jump back.
    uint8_t *volatile pixels = NULL;
    cinfo.err = lk_error_init(&e, error, error_size);
    *rgba = NULL;
    if (setjmp(e.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    *width = (int)cinfo.image_width;
    *height = (int)cinfo.image_height;
    if (e.warned_truncated || *width > max_side || *height > max_side) {
        jpeg_destroy_decompress(&cinfo);
        return e.warned_truncated ? -1 : 1;
    }
    // Every 8x8 block of every component costs at least one bit of entropy-coded data (its DC
    // difference's Huffman code), so a file of `size` bytes holds at most 8 * size blocks.
    // Checked before anything the size of the image is allocated (the pixels, or a
    // progressive file's coefficients), so a 100-byte file claiming 16,384 x 16,384 px costs
    // nothing. (Arithmetic coding could go below a bit a block, for a flat image; such a file
    // is refused too.)
    unsigned long long blocks = 0;
    for (int c = 0; c < cinfo.num_components; c++)
        blocks += (unsigned long long)cinfo.comp_info[c].width_in_blocks * cinfo.comp_info[c].height_in_blocks;
    if (blocks > 8ULL * size) {
        snprintf(error, error_size,
                 "the header's %dx%d px are %llu blocks of 8x8, more than the %zu bytes of the file can code "
                 "(a bit a block at least): the file is truncated",
                 *width, *height, blocks, size);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    // libjpeg-turbo converts greyscale and YCbCr straight to RGBA.
    cinfo.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&cinfo);
    size_t stride = (size_t)cinfo.output_width * 4;
    pixels = malloc(stride * cinfo.output_height);
    if (!pixels) {
        snprintf(error, error_size, "out of memory for %dx%d px", *width, *height);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    while (cinfo.output_scanline < cinfo.output_height && !e.warned_truncated) {
        JSAMPROW row = pixels + (size_t)cinfo.output_scanline * stride;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    if (!e.warned_truncated) jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    if (e.warned_truncated) {
        free(pixels);
        return -1;
    }
    *rgba = pixels;
    return 0;
}

int lk_jpeg_encode_rgb(const uint8_t *rgb, int width, int height, int quality,
                       uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    struct jpeg_compress_struct cinfo;
    struct lk_error e;
    unsigned char *buffer = NULL;
    unsigned long length = 0;
    cinfo.err = lk_error_init(&e, error, error_size);
    if (setjmp(e.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return -1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &buffer, &length);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    for (int c = 0; c < cinfo.num_components; c++) {
        cinfo.comp_info[c].h_samp_factor = 1;
        cinfo.comp_info[c].v_samp_factor = 1;
    }
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)cinfo.next_scanline * (size_t)width * 3);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = buffer;
    *out_size = length;
    return 0;
}

void lk_jpeg_free(uint8_t *buffer) { free(buffer); }
