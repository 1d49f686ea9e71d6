#pragma once
/* Core-profile prototypes as real functions, linked against glvnd's libOpenGL (no GLX, no X11). */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
