#pragma once
/* GL comes from CGL's glcorearb.h; do not let GLFW pull in GL/gl.h. */
#define GLFW_INCLUDE_NONE 1
#include <GLFW/glfw3.h>
