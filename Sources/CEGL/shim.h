#pragma once
/* Keep Xlib out of the Swift module; declare EGL 1.5 entry points. */
#define EGL_NO_X11 1
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
