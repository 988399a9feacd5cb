/* Attacks: memory the job's cgroup limit might not see, held by MODE (argv[1]): tcp (loopback
 * pairs, unread data), udp (datagrams queued unread), pipe (F_SETPIPE_SZ pipes, filled), shm
 * (SysV segments, touched), memfd, tmpfs (files in /w, /tmp, /dev/shm). WORKERS processes
 * each hold what their descriptors allow and report it; the probe then prints what it held in
 * all. Contained: the job is killed (MLE) or refused (EAGAIN, ENOBUFS, ENOSPC, ...) before it
 * holds LIMIT_MB (argv[2]) x 3; holding more is an escape. */
#include "probe.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MiB     (1L << 20)
#define WORKERS 8
#define GOAL    (96 * MiB) /* per worker: 768 MiB in all, far past any limit we run under */

static char buf[MiB];
static const char *stop_why = "goal reached";

static void why(const char *what)
{
    stop_why = what;
}

/* One loopback TCP pair with data written and never read; returns bytes written. */
static long tcp_one(void)
{
    int l = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof(a);
    int big = 64 * MiB;
    if (l < 0 || c < 0 || bind(l, (void *)&a, sizeof(a)) < 0 || listen(l, 1) < 0 ||
        getsockname(l, (void *)&a, &al) < 0 || connect(c, (void *)&a, sizeof(a)) < 0) {
        why(strerrorname_np(errno));
        return -1;
    }
    int s = accept(l, NULL, NULL);
    close(l);
    if (s < 0) {
        why(strerrorname_np(errno));
        return -1;
    }
    setsockopt(c, SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
    setsockopt(s, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
    fcntl(c, F_SETFL, O_NONBLOCK);
    long held = 0;
    for (int idle = 0; idle < 50;) {
        ssize_t n = write(c, buf, sizeof(buf));
        if (n > 0) {
            held += n;
            idle = 0;
        } else {
            idle++;
            usleep(1000); /* let loopback move data from the send to the receive queue */
        }
    }
    return held;
}

/* One receiving UDP socket, fed datagrams until its queue stops growing; returns the bytes
 * queued (SO_MEMINFO's receive allocation, what the kernel holds). */
static long udp_one(int tx)
{
    int rx = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof(a);
    int big = 64 * MiB;
    if (rx < 0 || bind(rx, (void *)&a, sizeof(a)) < 0 || getsockname(rx, (void *)&a, &al) < 0) {
        why(strerrorname_np(errno));
        return -1;
    }
    setsockopt(rx, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
    unsigned mem[SK_MEMINFO_VARS];
    long last = -1;
    for (int i = 0; i < 4096; i++) {
        sendto(tx, buf, 60000, MSG_DONTWAIT, (void *)&a, sizeof(a));
        socklen_t ml = sizeof(mem);
        if (getsockopt(rx, SOL_SOCKET, SO_MEMINFO, mem, &ml) < 0)
            break;
        if (i % 64 == 63) {
            if ((long)mem[SK_MEMINFO_RMEM_ALLOC] == last)
                break;
            last = mem[SK_MEMINFO_RMEM_ALLOC];
        }
    }
    return last < 0 ? 0 : last;
}

static long pipe_one(void)
{
    int p[2];
    if (pipe(p) < 0) {
        why(strerrorname_np(errno));
        return -1;
    }
    fcntl(p[1], F_SETPIPE_SZ, (int)MiB);
    fcntl(p[1], F_SETFL, O_NONBLOCK);
    long held = 0;
    for (ssize_t n; (n = write(p[1], buf, sizeof(buf))) > 0;)
        held += n;
    return held;
}

static long touch(char *m, long len)
{
    for (long k = 0; k < len; k += 4096)
        m[k] = 1;
    return len;
}

static long shm_one(void)
{
    int id = shmget(IPC_PRIVATE, 16 * MiB, IPC_CREAT | 0600);
    char *m = id < 0 ? (void *)-1 : shmat(id, NULL, 0);
    if (m == (void *)-1) {
        why(strerrorname_np(errno));
        return -1;
    }
    return touch(m, 16 * MiB);
}

static long memfd_one(void)
{
    int fd = memfd_create("hold", 0);
    if (fd < 0 || ftruncate(fd, 16 * MiB) < 0) {
        why(strerrorname_np(errno));
        return -1;
    }
    long held = 0;
    for (int i = 0; i < 16; i++) {
        ssize_t n = write(fd, buf, sizeof(buf));
        if (n <= 0) {
            why(n < 0 ? strerrorname_np(errno) : "short write");
            return held ? held : -1;
        }
        held += n;
    }
    return held;
}

static long tmpfs_one(int worker, int i)
{
    static const char *const dirs[] = {"/w", "/tmp", "/dev/shm"};
    char path[64];
    snprintf(path, sizeof(path), "%s/hold-%d-%d", dirs[i % 3], worker, i);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) {
        why(strerrorname_np(errno));
        return -1;
    }
    long held = 0;
    for (int k = 0; k < 4; k++) {
        ssize_t n = write(fd, buf, sizeof(buf));
        if (n <= 0) {
            why(n < 0 ? strerrorname_np(errno) : "short write");
            break;
        }
        held += n;
    }
    close(fd);
    return held ? held : -1;
}

/* One worker: holds up to GOAL, reports its total on fd, then keeps holding until killed. */
static void worker(const char *mode, int id, int fd)
{
    long held = 0;
    int tx = socket(AF_INET, SOCK_DGRAM, 0);
    for (int i = 0; held < GOAL && i < 4096; i++) {
        long n = strcmp(mode, "tcp") == 0     ? tcp_one()
                 : strcmp(mode, "udp") == 0   ? udp_one(tx)
                 : strcmp(mode, "pipe") == 0  ? pipe_one()
                 : strcmp(mode, "shm") == 0   ? shm_one()
                 : strcmp(mode, "memfd") == 0 ? memfd_one()
                                              : tmpfs_one(id, i);
        if (n < 0)
            break;
        if (n == 0) {
            why("nothing more queued");
            break;
        }
        held += n;
    }
    char line[128];
    int len = snprintf(line, sizeof(line), "%ld %s\n", held, stop_why);
    if (write(fd, line, (size_t)len) < 0)
        _exit(1);
    pause();
    _exit(0);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "tcp";
    long limit = (argc > 2 ? atol(argv[2]) : 32) * MiB;
    int p[2];
    if (pipe(p) < 0)
        return 2;
    memset(buf, 'x', sizeof(buf));
    pid_t kids[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        if ((kids[i] = fork()) == 0)
            worker(mode, i, p[1]);
    close(p[1]);
    FILE *in = fdopen(p[0], "r");
    long total = 0;
    char why_last[64] = "";
    for (int i = 0; i < WORKERS; i++) {
        long n;
        if (!in || fscanf(in, "%ld %63s", &n, why_last) != 2)
            break;
        total += n;
        printf("worker %d: held %ld MiB (%s)\n", i, n / MiB, why_last);
        fflush(stdout);
    }
    for (int i = 0; i < WORKERS; i++)
        if (kids[i] > 0)
            kill(kids[i], SIGKILL);
    while (wait(NULL) > 0)
        ;
    printf("%s held %ld MiB in all under a %ld MiB limit\n", mode, total / MiB, limit / MiB);
    if (total > 3 * limit) {
        printf("ESCAPED: %s held %ld MiB, more than 3x the limit\n", mode, total / MiB);
        return 1;
    }
    snprintf(msg, sizeof(msg), "%s held %ld MiB, stopped by %s", mode, total / MiB, why_last);
    return contained();
}
