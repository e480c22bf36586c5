/* BAM evaluation over parameter sets and log directories (doc/bam.md §4): the engine of
 * `stiction bam mae` and `stiction bam rollout`, kept here so the tests can call it. */
#ifndef ST_BAM_BAM_EVAL_H
#define ST_BAM_BAM_EVAL_H

#include <stddef.h>
#include <stdio.h>

#include <stiction/bam.h>

/* Paths of the *.json files: each argument is a file or a directory (its *.json, sorted by
 * name). On success *paths is a malloc'd array of malloc'd strings (st_bam_paths_free). */
int st_bam_expand_json(const char *const *args, size_t nargs, char ***paths, size_t *n,
                       char *errbuf, size_t errlen);
void st_bam_paths_free(char **paths, size_t n);

/* Per-set, per-log MAEs and the aggregate (mean, population std over logs). */
typedef struct st_bam_eval {
  size_t nsets, nlogs;
  char **set_keys;   /* [nsets] result key: model name, or "DIR/FILE" when models repeat */
  char **log_names;  /* [nlogs] log file base names */
  double *mae;       /* [nsets * nlogs], row-major by set */
  double *mean, *std;/* [nsets] */
  /* doc/bam.md §6.3: the same without the `up_and_down` logs (their stalls no model reproduces);
   * nlogs_x counts the remaining logs, excluded[k] marks the dropped ones */
  unsigned char *excluded; /* [nlogs] */
  size_t nlogs_x;
  double *mean_x, *std_x;  /* [nsets]; NAN when no log remains */
} st_bam_eval;

/* Reads every parameter file and log and fills *ev (st_bam_eval_free). */
int st_bam_evaluate(char *const *param_paths, size_t nparams, char *const *log_paths,
                    size_t nlogs, st_bam_eval *ev, char *errbuf, size_t errlen);
void st_bam_eval_free(st_bam_eval *ev);

/* {"results": {KEY: {"mean", "std", "per_log": {LOG: mae}}}, "log_order": [...], "units"}. */
int st_bam_eval_write_json(const st_bam_eval *ev, const char *path, char *errbuf,
                           size_t errlen);

/* The rollout trace in the column layout of the reference CSVs (doc/bam.md §6.1). */
void st_bam_write_rollout_csv(FILE *out, const stiction_bam_log *log,
                              const stiction_bam_step_info *info);

#endif
