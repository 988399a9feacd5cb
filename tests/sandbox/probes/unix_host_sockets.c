/* Attacks: host daemons over unix sockets (systemd, docker...). Contained: no connect. */
#include "probe.h"

#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(void)
{
    /* A leading '@' stands for the abstract namespace (per network namespace). */
    static const char *const paths[] = {"/run/systemd/private",
                                        "/run/systemd/notify",
                                        "/run/systemd/journal/socket",
                                        "/var/run/docker.sock",
                                        "/run/docker.sock",
                                        "/run/containerd/containerd.sock",
                                        "/run/dbus/system_bus_socket",
                                        "/var/run/dbus/system_bus_socket",
                                        "/dev/log",
                                        "@/org/freedesktop/systemd1/notify",
                                        "@/tmp/.X11-unix/X0",
                                        "@/containerd-shim/verdict.sock"};
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        strncpy(a.sun_path, paths[i], sizeof(a.sun_path) - 1);
        if (paths[i][0] == '@')
            a.sun_path[0] = '\0';
        socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(paths[i]));
        int r = -1, e = 0;
        for (int t = 0; t < 2 && r < 0; t++) { /* stream first, then datagram */
            int s = socket(AF_UNIX, t ? SOCK_DGRAM : SOCK_STREAM, 0);
            r = s < 0 ? -1 : connect(s, (struct sockaddr *)&a, len);
            e = errno;
            close(s);
            if (r < 0 && e != EPROTOTYPE)
                break;
        }
        if (r == 0) {
            printf("ESCAPED: connected to %s\n", paths[i]);
            return 1;
        }
        note_errno(paths[i], e);
    }
    return contained();
}
