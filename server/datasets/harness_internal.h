/*
 * harness_internal: harness's steps that the unit tests reach directly. Not a contract for
 * other modules (they use harness.h).
 */
#ifndef VERDICT_HARNESS_INTERNAL_H
#define VERDICT_HARNESS_INTERNAL_H

/* Go source with its package clauses and imports merged (one package clause, one import
 * block, imports the code does not use dropped, standard packages it uses added); heap, or
 * NULL when out of memory. */
char *harness_go_imports(const char *src);

#endif
