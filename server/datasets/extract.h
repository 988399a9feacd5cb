/*
 * extract: the program inside an LLM completion, by SandboxFusion's rules
 * (default_extract_helper), except where noted below.
 *
 * Candidates, by priority: complete fenced blocks (```tag ... ```) 30; an incomplete final
 * fence (``` to the end of the text) 20; heuristic blocks for the requested language 10
 * (python: optional import/from/#/@ lines, then def or class lines with their indented
 * bodies; sql: select ... ; or with ... as ... ;; bash: the whole text). Only the highest
 * priority present counts; of those, the first block whose tag names the requested language
 * wins, else the first block. No candidate: "" (kind EXTRACT_EMPTY).
 *
 * Where verdict differs, on purpose: CRLF becomes LF and a reasoning section is dropped
 * (everything up to the last "</think>", when there is one) before anything else; a tag's
 * first word names its language, aliases matched without regard to case ("```Py3 title=x");
 * heuristics run only for the requested language, and the python one takes consecutive
 * definitions (with decorators) as one block, so helpers stay with the function that needs
 * them.
 */
#ifndef VERDICT_EXTRACT_H
#define VERDICT_EXTRACT_H

#include <stddef.h>
#include <stdint.h>

enum extract_kind { EXTRACT_EMPTY, EXTRACT_FENCED, EXTRACT_INCOMPLETE, EXTRACT_HEURISTIC };

struct extracted {
    char *code; /* heap, NUL-terminated; "" when nothing was found */
    size_t len;
    enum extract_kind kind;
    char language[24]; /* the block's language by its tag ("" for no or an unknown tag) */
};

/* "empty", "fenced", "incomplete_fenced", "heuristic" (SandboxFusion's extracted_type). */
const char *extract_kind_name(enum extract_kind k);

/* The language a fence tag or request names ("py", "Python3", "c++", "golang", "rs", "js",
 * "sh", "cu", ...): verdict's language name, or the tag in lower case when it is none of
 * ours, or "" for an empty tag. Writes at most cap bytes. */
void extract_language(const char *tag, size_t len, char *out, size_t cap);

/* Extracts from text[0..len) (any bytes) for language (a name or alias; NULL or "": none).
 * Returns 0 with out filled (free with extracted_fini), or -ENOMEM. */
int extract_code(const char *text, size_t len, const char *language, struct extracted *out);

void extracted_fini(struct extracted *e);

/* SandboxFusion's post-processing for free-form completions, in place on the NUL-terminated
 * code: python is cut at `if __name__ == "__main__":`, cpp at `int main()`, go loses its
 * `package main` line, java's `public class Main {` becomes `class Solution {`, and every
 * language is cut at `# Example usage`. Only at the start of a line. Returns the new length. */
size_t extract_postprocess(const char *language, char *code);

/* A fuzzing entry point (libFuzzer's shape): the first byte picks a language, the rest is
 * the completion; extracts and post-processes, checks the result's invariants, and aborts if
 * one fails. Returns 0. */
int extract_fuzz_one(const uint8_t *data, size_t size);

#endif
