/* Unit tests for runners/file and runners/err. */
#include "runners/err.h"
#include "runners/file.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static void test_roundtrip(void)
{
    char path[] = "/tmp/verdict-test-file-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_TRUE(fd >= 0);
    close(fd);
    ASSERT_INT_EQ(file_write(path, "hello\n"), 0);
    char buf[64];
    ASSERT_INT_EQ(file_read(path, buf, sizeof(buf)), 6);
    ASSERT_STR_EQ(buf, "hello\n");
    char small[4];
    ASSERT_INT_EQ(file_read(path, small, sizeof(small)), 3); /* cut, still terminated */
    ASSERT_STR_EQ(small, "hel");
    ASSERT_INT_EQ(file_read(path, buf, 0), -EINVAL);
    unlink(path);
}

static void test_errors(void)
{
    char buf[16];
    ASSERT_INT_EQ(file_read("/nonexistent/verdict", buf, sizeof(buf)), -ENOENT);
    ASSERT_INT_EQ(file_write("/nonexistent/verdict", "x"), -ENOENT);
    /* The kernel's refusal of a write comes back as its errno. */
    ASSERT_INT_EQ(file_write("/proc/self/oom_score_adj", "not-a-number"), -EINVAL);
    ASSERT_INT_EQ(file_read("/proc/self/stat", buf, sizeof(buf)), 15);
}

static void test_err(void)
{
    ASSERT_STR_EQ(err_name(0), "OK");
    ASSERT_STR_EQ(err_name(-ENOENT), "ENOENT");
    ASSERT_STR_EQ(err_name(EACCES), "EACCES");
    ASSERT_STR_EQ(err_name(-99999), "E?");
    char err[ERR_LEN];
    ASSERT_INT_EQ(err_set(err, -EIO, "step %d", 3), -EIO);
    ASSERT_STR_EQ(err, "step 3");
    ASSERT_INT_EQ(err_set(NULL, -EIO, "ignored"), -EIO);
    char big[600];
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    err_set(err, -EIO, "%s", big);
    ASSERT_INT_EQ(strlen(err), ERR_LEN - 1);
}

int main(void)
{
    TEST_RUN(test_roundtrip);
    TEST_RUN(test_errors);
    TEST_RUN(test_err);
    return TEST_EXIT();
}
