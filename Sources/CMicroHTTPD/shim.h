#ifndef SEGUE_CMICROHTTPD_SHIM_H
#define SEGUE_CMICROHTTPD_SHIM_H
// GNU libmicrohttpd, imported by SegueService only (HTTPServer): the HTTP/1.1 server of `segue serve`, so that Segue
// parses no HTTP itself. MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: the two
// wrappers below pass the options the server uses.
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// Starts a daemon on `addr` (IPv4 or IPv6) with a thread per connection; NULL when it cannot (the port is taken).
static inline struct MHD_Daemon *segue_mhd_start(const struct sockaddr *addr, MHD_AccessHandlerCallback handler, void *cls,
                                                 MHD_RequestCompletedCallback completed, unsigned int connectionLimit,
                                                 unsigned int timeoutSeconds, int ipv6) {
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
    if (ipv6) flags |= MHD_USE_IPv6;
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, cls,
                            MHD_OPTION_SOCK_ADDR, addr,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_CONNECTION_LIMIT, connectionLimit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeoutSeconds,
                            MHD_OPTION_END);
}

/// The port the daemon listens on (the one the system chose for port 0).
static inline uint16_t segue_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
#endif
