#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *word;
    int count;
} Entry;

static int by_word(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static int by_count_then_word(const void *x, const void *y)
{
    const Entry *a = x, *b = y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(a->word, b->word);
}

static int is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int main(void)
{
    size_t cap = 1 << 20, len = 0, got;
    char *buf = malloc(cap + 1);
    while ((got = fread(buf + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
    }
    buf[len] = '\0';

    long k = strtol(buf, NULL, 10);
    char *nl = memchr(buf, '\n', len);
    size_t pos = nl ? (size_t)(nl - buf) + 1 : len;

    /* Cut the text into lowercase NUL-terminated words in place: the byte after a word
       is a non-letter (or the final NUL), so it can hold the terminator. */
    size_t nwords = 0, wcap = 1024;
    char **words = malloc(wcap * sizeof *words);
    while (pos < len) {
        if (!is_letter(buf[pos])) {
            pos++;
            continue;
        }
        if (nwords == wcap) {
            wcap *= 2;
            words = realloc(words, wcap * sizeof *words);
        }
        words[nwords++] = buf + pos;
        while (pos < len && is_letter(buf[pos])) {
            if (buf[pos] <= 'Z')
                buf[pos] += 'a' - 'A';
            pos++;
        }
        buf[pos++] = '\0';
    }

    qsort(words, nwords, sizeof *words, by_word);
    Entry *entries = malloc((nwords + 1) * sizeof *entries);
    size_t nentries = 0;
    for (size_t i = 0; i < nwords; i++) {
        if (nentries > 0 && strcmp(entries[nentries - 1].word, words[i]) == 0) {
            entries[nentries - 1].count++;
        } else {
            entries[nentries].word = words[i];
            entries[nentries].count = 1;
            nentries++;
        }
    }
    qsort(entries, nentries, sizeof *entries, by_count_then_word);
    for (size_t i = 0; i < nentries && (long)i < k; i++)
        printf("%s %d\n", entries[i].word, entries[i].count);
    free(entries);
    free(words);
    free(buf);
    return 0;
}
