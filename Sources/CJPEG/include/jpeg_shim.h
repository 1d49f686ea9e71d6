// JPEG decoding and encoding through libjpeg(-turbo) with an error manager that returns instead of
// exiting. libjpeg reports errors by calling error_exit, whose default ends the process; these
// wrappers longjmp back to their own frame (C only: Swift frames must never be jumped over) and
// return libjpeg's message instead.
#ifndef LAYERKIT_CJPEG_H
#define LAYERKIT_CJPEG_H

#include <stddef.h>
#include <stdint.h>

/// Decodes the JPEG in `data` into straight RGBA8 (alpha 255): reads the header, and when the
/// image is at most `max_side` pixels a side, a malloc'd buffer of `*width` x `*height` x 4 bytes
/// in `*rgba` (free it with `lk_jpeg_free`). Returns 0; 1 when the image is larger (`*width` and
/// `*height` say how large, nothing is decoded); -1 with libjpeg's message in `error`
/// (`error_size` bytes, always NUL-terminated) when the data is corrupt, or ends early (libjpeg
/// would pad it with grey).
int lk_jpeg_decode_rgba(const uint8_t *data, size_t size, int max_side, int *width, int *height, uint8_t **rgba,
                        char *error, size_t error_size);

/// Frees a buffer from `lk_jpeg_decode_rgba` or `lk_jpeg_encode_rgb`.
void lk_jpeg_free(uint8_t *buffer);

/// Encodes `width` x `height` RGB8 pixels as a baseline JPEG at `quality` (1...100) without
/// chroma subsampling. On success returns 0 and a malloc'd buffer in `*out` (free it with
/// `lk_jpeg_free`) of `*out_size` bytes; -1 with the message in `error` otherwise.
int lk_jpeg_encode_rgb(const uint8_t *rgb, int width, int height, int quality,
                       uint8_t **out, size_t *out_size, char *error, size_t error_size);

#endif
