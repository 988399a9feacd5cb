/*
 * CUDA on a real GPU (label sandbox): a kernel writes 42 on the device and the host reads it
 * back, through a GPU cell; a python_gpu project (compile.py, then run.py) runs there too. Skipped
 * (77) on a host without a GPU, where test_languages checks that CUDA still compiles and that a run
 * is refused with "no GPU on this server".
 *
 * usage: test_cuda VERDICT_EXE LANGUAGES_DIR PROGRAMS_DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runners/cell.h"
#include "server/judge/gpu.h"
#include "server/judge/program.h"
#include "test.h"

static struct program_env env;
static struct lang_set *langs;
static const char *programs;

static void test_kernel(void)
{
    const struct lang *l = lang_find(langs, "cuda");
    ASSERT_NOT_NULL(l);
    ASSERT_TRUE(l->available);
    char path[512];
    snprintf(path, sizeof(path), "%s/cuda/hello.cu", programs);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    ASSERT_TRUE(fd >= 0 && fstat(fd, &st) == 0);
    uint8_t *data = malloc((size_t)st.st_size);
    ASSERT_NOT_NULL(data);
    ASSERT_INT_EQ(read(fd, data, (size_t)st.st_size), st.st_size);
    close(fd);
    struct job_file f = {l->source, 0644, data, (size_t)st.st_size};
    struct program p;
    char err[ERR_LEN];
    ASSERT_INT_EQ(program_build(&env, l, &f, 1, NULL, &p, err), 0);
    if (!p.ok)
        fprintf(stderr, "%s\n", p.message ? p.message : "");
    ASSERT_TRUE(p.ok);
    for (int gpu = 0; gpu < env.gpus; gpu++) { /* each run lands on some GPU cell */
        struct job_result res;
        uint8_t *payload;
        program_run(&env, &p, NULL, &res, &payload);
        printf("  run %d: %s, %.*s", gpu, job_status_name(res.status), (int)res.out_len,
               (const char *)res.out);
        if (res.status != JOB_OK)
            fprintf(stderr, "%s\n%.*s\n", res.message, (int)res.err_len, (const char *)res.err);
        ASSERT_INT_EQ(res.status, JOB_OK);
        ASSERT_TRUE(res.out_len == 9 && memcmp(res.out, "hello 42\n", 9) == 0);
        job_result_fini(&res);
        free(payload);
    }
    program_free(&env, &p);
    free(data);
}

/* SandboxFusion's python_gpu: python compile.py, then python run.py, from the files. */
static void test_python_gpu(void)
{
    const struct lang *l = lang_find(langs, "python_gpu");
    ASSERT_NOT_NULL(l);
    if (!l->available) {
        printf("  python_gpu unavailable: %s\n", l->why);
        return;
    }
    static const char compile[] = "open('built.txt', 'w').write('built')\n";
    static const char run[] = "print(open('built.txt').read())\n";
    struct job_file files[3] = {
        {l->source, 0644, (const uint8_t *)"", 0},
        {"compile.py", 0644, (const uint8_t *)compile, sizeof(compile) - 1},
        {"run.py", 0644, (const uint8_t *)run, sizeof(run) - 1},
    };
    struct program p;
    char err[ERR_LEN];
    ASSERT_INT_EQ(program_build(&env, l, files, 3, NULL, &p, err), 0);
    ASSERT_TRUE(p.ok);
    struct job_result res;
    uint8_t *payload;
    program_run(&env, &p, NULL, &res, &payload);
    if (res.status != JOB_OK)
        fprintf(stderr, "python_gpu: %s %s\n%.*s\n", job_status_name(res.status), res.message,
                (int)res.err_len, (const char *)res.err);
    ASSERT_INT_EQ(res.status, JOB_OK);
    ASSERT_TRUE(res.out_len == 6 && memcmp(res.out, "built\n", 6) == 0);
    job_result_fini(&res);
    free(payload);
    program_free(&env, &p);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_cuda VERDICT_EXE LANGUAGES_DIR PROGRAMS_DIR\n");
        return 2;
    }
    if (geteuid() != 0)
        TEST_SKIP("the sandbox needs root");
    struct gpu_info g;
    gpu_probe(&g);
    if (g.count == 0) {
        printf("%s\n", g.detail);
        TEST_SKIP("no GPU on this host");
    }
    programs = argv[3];
    char err[ERR_LEN], root[64], dir[96];
    if (lang_load_dir(argv[2], &langs, err) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    lang_probe(langs, "cuda");
    lang_probe(langs, "python_gpu");
    int cc = g.dev[0].cc_major * 10 + g.dev[0].cc_minor;
    snprintf(env.cuda_arch, sizeof(env.cuda_arch),
             "-gencode=arch=compute_%d,code=[sm_%d,compute_%d]", cc, cc, cc);
    env.gpus = g.count;
    printf("%d GPU(s), %s, arch %s\n", g.count, g.dev[0].name, env.cuda_arch);
    snprintf(root, sizeof(root), "/var/tmp/verdict-test-cuda-XXXXXX");
    if (!mkdtemp(root) || chmod(root, 0711) < 0)
        return 1;
    snprintf(dir, sizeof(dir), "%s/artifacts", root);
    if (cache_open(dir, 1ull << 30, &env.cache, err) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const char *binds[] = {dir};
    struct pool_config pc = {.cells = 1,
                             .exe = argv[1],
                             .uid_base = 60300,
                             .nbinds = 1,
                             .binds = binds,
                             .gpus = g.count};
    if (pool_new(&pc, &env.pool, err) < 0) {
        fprintf(stderr, "pool: %s\n", err);
        return 1;
    }
    TEST_RUN(test_kernel);
    TEST_RUN(test_python_gpu);
    pool_free(env.pool);
    cache_close(env.cache);
    lang_set_free(langs);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
    return TEST_EXIT();
}
