// JPEG decoding and encoding through libjpeg(-turbo) with an error manager that returns instead of
// exiting. libjpeg reports errors by calling error_exit, whose default ends the process; these
// wrappers longjmp back to their own frame (C only: Swift frames must never be jumped over) and
// return libjpeg's message instead.
#ifndef LAYERKIT_CJPEG_H
#define LAYERKIT_CJPEG_H

#include <stddef.h>
#include <stdint.h>

/// Reads the header of the JPEG in `data`: its size in pixels. Returns 0 on success, or -1 with
/// libjpeg's message in `error` (`error_size` bytes, always NUL-terminated).
int lk_jpeg_read_size(const uint8_t *data, size_t size, int *width, int *height,
                      char *error, size_t error_size);

/// Decodes the JPEG in `data` into straight RGBA8 (alpha 255) at `rgba`, which holds `width` x
/// `height` x 4 bytes for the size `lk_jpeg_read_size` reported. Returns 0, or -1 with the
/// message in `error`. Data that ends early is an error (libjpeg would pad it with grey).
int lk_jpeg_decode_rgba(const uint8_t *data, size_t size, uint8_t *rgba, int width, int height,
                        char *error, size_t error_size);

/// Encodes `width` x `height` RGB8 pixels as a baseline JPEG at `quality` (1...100) without
/// chroma subsampling. On success returns 0 and a malloc'd buffer in `*out` (free it with
/// `lk_jpeg_free`) of `*out_size` bytes; -1 with the message in `error` otherwise.
int lk_jpeg_encode_rgb(const uint8_t *rgb, int width, int height, int quality,
                       uint8_t **out, size_t *out_size, char *error, size_t error_size);

/// Frees a buffer from `lk_jpeg_encode_rgb`.
void lk_jpeg_free(uint8_t *buffer);

#endif
