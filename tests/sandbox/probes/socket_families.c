/* Attacks: exotic socket families (netlink, packet, vsock, raw, alg...). Contained: none opens. */
#include "probe.h"

#include <linux/netlink.h>
#include <netinet/in.h>
#include <sys/socket.h>

int main(void)
{
    static const struct {
        const char *name;
        int family, type, proto;
    } socks[] = {
        {"netlink route", AF_NETLINK, SOCK_RAW, NETLINK_ROUTE},
        {"netlink audit", AF_NETLINK, SOCK_RAW, NETLINK_AUDIT},
        {"netlink uevent", AF_NETLINK, SOCK_DGRAM, NETLINK_KOBJECT_UEVENT},
        {"netlink sock_diag", AF_NETLINK, SOCK_DGRAM, NETLINK_SOCK_DIAG},
        {"packet raw", AF_PACKET, SOCK_RAW, 0x0300 /* htons(ETH_P_ALL) */},
        {"packet dgram", AF_PACKET, SOCK_DGRAM, 0},
        {"vsock stream", AF_VSOCK, SOCK_STREAM, 0},
        {"vsock dgram", AF_VSOCK, SOCK_DGRAM, 0},
        {"inet raw", AF_INET, SOCK_RAW, IPPROTO_RAW},
        {"inet6 raw", AF_INET6, SOCK_RAW, IPPROTO_ICMPV6},
        {"alg", AF_ALG, SOCK_SEQPACKET, 0},
        {"key", AF_KEY, SOCK_RAW, 2},
        {"xdp", AF_XDP, SOCK_RAW, 0},
        {"bluetooth", AF_BLUETOOTH, SOCK_RAW, 0},
        {"can", AF_CAN, SOCK_RAW, 1},
        {"tipc", AF_TIPC, SOCK_RDM, 0},
        {"rds", AF_RDS, SOCK_SEQPACKET, 0},
        {"llc", AF_LLC, SOCK_DGRAM, 0},
        {"appletalk", AF_APPLETALK, SOCK_DGRAM, 0},
        {"x25", AF_X25, SOCK_SEQPACKET, 0},
        {"unspec", AF_UNSPEC, SOCK_STREAM, 0},
    };
    for (size_t i = 0; i < sizeof(socks) / sizeof(socks[0]); i++) {
        int s = socket(socks[i].family, socks[i].type, socks[i].proto);
        if (s >= 0) {
            printf("ESCAPED: opened a %s socket\n", socks[i].name);
            return 1;
        }
        note_errno(socks[i].name, errno);
    }
    return contained();
}
