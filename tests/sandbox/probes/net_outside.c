/* Attacks: TCP/UDP to the internet, cloud metadata, the docker host. Contained: no route out. */
#include "probe.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

/* Connects (TCP) or sends (UDP) without blocking: anything that leaves the box is an escape. */
static void attempt(int type, const char *host, const char *port)
{
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV, .ai_socktype = type};
    struct addrinfo *ai;
    if (getaddrinfo(host, port, &hints, &ai) != 0) {
        printf("unexpected: getaddrinfo %s failed\n", host);
        exit(2);
    }
    int s = socket(ai->ai_family, type | SOCK_NONBLOCK, 0);
    int r = s < 0                 ? -1
            : type == SOCK_STREAM ? connect(s, ai->ai_addr, ai->ai_addrlen)
                                  : (int)sendto(s, "x", 1, 0, ai->ai_addr, ai->ai_addrlen);
    if (r >= 0 || errno == EINPROGRESS) { /* connected, sent, or a SYN is on its way out */
        printf("ESCAPED: %s to %s port %s went out (%s)\n", type == SOCK_STREAM ? "TCP" : "UDP",
               host, port, r >= 0 ? "succeeded" : "a route exists, SYN sent");
        exit(1);
    }
    int e = errno;
    char what[96];
    snprintf(what, sizeof(what), "%s %s:%s", type == SOCK_STREAM ? "tcp" : "udp", host, port);
    note_errno(what, e);
    close(s);
    freeaddrinfo(ai);
}

int main(void)
{
    static const char *const hosts[] = {"1.1.1.1",    "8.8.8.8",  "169.254.169.254",
                                        "172.17.0.1", "10.0.2.2", "2606:4700:4700::1111"};
    for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
        attempt(SOCK_STREAM, hosts[i], i == 0 ? "53" : "80");
        attempt(SOCK_DGRAM, hosts[i], "53");
    }
    return contained();
}
