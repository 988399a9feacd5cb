/* Checks caps, no_new_privs, seccomp, uid/gid, groups, ro mounts. Contained: all as promised. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

static char bad[1024];

static void flag(const char *what, long value)
{
    size_t n = strlen(bad);
    snprintf(bad + n, sizeof(bad) - n, "%s%s %ld", n ? ", " : "", what, value);
}

static void read_only(const char *path, unsigned long need)
{
    struct statvfs v;
    if (statvfs(path, &v) == 0 && (v.f_flag & need) != need)
        flag(path, (long)(v.f_flag & need)); /* the ST_RDONLY|ST_NOSUID|ST_NODEV bits it has */
}

int main(void)
{
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof(line), f)) {
        char *v = strchr(line, ':');
        if (!v)
            continue;
        *v++ = '\0';
        if (strncmp(line, "Cap", 3) == 0 && strtoull(v, NULL, 16) != 0)
            flag(line, (long)strtoull(v, NULL, 16)); /* CapInh CapPrm CapEff CapBnd CapAmb */
        if ((strcmp(line, "NoNewPrivs") == 0 && atoi(v) != 1) ||
            (strcmp(line, "Seccomp") == 0 && atoi(v) != 2)) /* 2: filter mode */
            flag(line, atoi(v));
    }
    if (f)
        fclose(f);
    uid_t ru, eu, su;
    gid_t rg, eg, sg, groups[64];
    if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0)
        return 2;
    if (ru != eu || eu != su || ru < 60000 || ru > 61183) /* runners/uidlock.h's range */
        flag("uid", (long)eu);
    if (rg != eg || eg != sg || rg != ru)
        flag("gid", (long)eg);
    int ng = getgroups(64, groups);
    for (int i = 0; i < ng; i++)
        if (groups[i] != rg)
            flag("supplementary group", (long)groups[i]);
    read_only("/", ST_RDONLY);
    read_only("/etc", ST_RDONLY);
    read_only("/proc/sys", ST_RDONLY);
    read_only("/usr", ST_RDONLY | ST_NOSUID | ST_NODEV);
    if (bad[0]) {
        printf("ESCAPED: %s\n", bad);
        return 1;
    }
    printf("contained: no caps, no_new_privs, seccomp filter, uid=gid=%d, read-only / /etc /usr "
           "/proc/sys\n",
           (int)ru);
    return 0;
}
