/* Attacks: creating device nodes (mem, null, a disk) with mknod. Contained: EPERM for each. */
#include "probe.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int main(void)
{
    static const struct {
        const char *path;
        mode_t mode;
        unsigned maj, min;
    } nodes[] = {{"/w/mem", S_IFCHR | 0666, 1, 1},
                 {"/w/null", S_IFCHR | 0666, 1, 3},
                 {"/tmp/sda", S_IFBLK | 0666, 8, 0},
                 {"/dev/shm/kmsg", S_IFCHR | 0666, 1, 11}};
    for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
        if (mknod(nodes[i].path, nodes[i].mode, makedev(nodes[i].maj, nodes[i].min)) == 0) {
            unlink(nodes[i].path);
            printf("ESCAPED: created device node %s (%u:%u)\n", nodes[i].path, nodes[i].maj,
                   nodes[i].min);
            return 1;
        }
        note_errno(nodes[i].path, errno);
    }
    return contained();
}
