/* Attacks: the driver's TCP port argv[1] on the host loopback. Contained: no connect. */
#include "probe.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tcp_host_port PORT\n");
        return 2;
    }
    int port = atoi(argv[1]);
    static const char *const hosts[] = {"127.0.0.1", "127.0.1.1", "0.0.0.0", "::1",
                                        "::ffff:127.0.0.1"};
    for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
        struct sockaddr_in6 a6 = {.sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port)};
        struct sockaddr_in a4 = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        int v6 = strchr(hosts[i], ':') != NULL;
        if (v6 ? inet_pton(AF_INET6, hosts[i], &a6.sin6_addr) != 1
               : inet_pton(AF_INET, hosts[i], &a4.sin_addr) != 1)
            return 2;
        int s = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
        struct timeval tv = {0, 500000}; /* a filtered port must not hang the probe */
        setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
        int r = s < 0 ? -1
                : v6  ? connect(s, (struct sockaddr *)&a6, sizeof(a6))
                      : connect(s, (struct sockaddr *)&a4, sizeof(a4));
        if (r == 0) {
            printf("ESCAPED: connected to %s port %d\n", hosts[i], port);
            return 1;
        }
        note_errno(hosts[i], errno);
        close(s);
    }
    printf("contained: port %d: %s\n", port, msg);
    return 0;
}
