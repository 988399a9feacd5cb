/* Attacks: UDP to the driver's port argv[1] on 127.0.0.1. Contained: only the own lo, no reply. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: udp_host_port PORT\n");
        return 2;
    }
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)atoi(argv[1])),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    struct timeval tv = {0, 300000};
    char buf[64];
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    if (s < 0 || setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
        return 2;
    /* Sending stays on the job's own loopback (so it may succeed); no one there may answer. */
    ssize_t sent = sendto(s, "ping", 4, 0, (struct sockaddr *)&a, sizeof(a));
    int e = errno;
    if (recv(s, buf, sizeof(buf), 0) > 0) {
        printf("ESCAPED: UDP reply from 127.0.0.1:%s\n", argv[1]);
        return 1;
    }
    printf("contained: sendto 127.0.0.1:%s %s, no reply (%s)\n", argv[1],
           sent == 4 ? "stayed local" : strerrorname_np(e), strerrorname_np(errno));
    return 0;
}
