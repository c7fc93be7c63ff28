#ifndef SEGUE_CEGL_SHIM_H
#define SEGUE_CEGL_SHIM_H
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <gbm.h>
#include <xf86drm.h>
#include <fcntl.h>
#include <unistd.h>

static inline EGLDisplay segue_egl_no_display(void) { return EGL_NO_DISPLAY; }
static inline EGLContext segue_egl_no_context(void) { return EGL_NO_CONTEXT; }
static inline EGLSurface segue_egl_no_surface(void) { return EGL_NO_SURFACE; }
static inline EGLConfig segue_egl_no_config(void) { return (EGLConfig)0; }

// Extension entry points: libglvnd's libEGL does not export them, so resolve through eglGetProcAddress.
static inline EGLBoolean segue_egl_query_devices(EGLint max, EGLDeviceEXT *devices, EGLint *count) {
    PFNEGLQUERYDEVICESEXTPROC f = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    if (!f) return EGL_FALSE;
    return f(max, devices, count);
}
static inline const char *segue_egl_query_device_string(EGLDeviceEXT device, EGLint name) {
    PFNEGLQUERYDEVICESTRINGEXTPROC f = (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    if (!f) return 0;
    return f(device, name);
}
static inline EGLDisplay segue_egl_platform_display(EGLenum platform, void *native) {
    return eglGetPlatformDisplay(platform, native, 0);
}

/// Render nodes (/dev/dri/renderD*) found through libdrm. Writes up to `max` paths into `paths` (each `len` bytes).
static inline int segue_drm_render_nodes(char *paths, int len, int max) {
    drmDevicePtr devices[16];
    int n = drmGetDevices2(0, devices, 16);
    if (n < 0) return 0;
    int found = 0;
    for (int i = 0; i < n && found < max; i++) {
        if (devices[i]->available_nodes & (1 << DRM_NODE_RENDER)) {
            const char *p = devices[i]->nodes[DRM_NODE_RENDER];
            int k = 0;
            for (; p[k] && k < len - 1; k++) paths[found * len + k] = p[k];
            paths[found * len + k] = 0;
            found++;
        }
    }
    drmFreeDevices(devices, n);
    return found;
}
static inline int segue_open_rdwr(const char *path) { return open(path, O_RDWR | O_CLOEXEC); }
#endif
