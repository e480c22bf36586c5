/* Output files that never destroy what they replace: a regular file (or a path that does not
 * exist yet) is written as a temporary file beside it and renamed over it only when the
 * writer commits, so a run that fails, or a process that dies, leaves the previous file as
 * it was. A process killed while writing leaves its rows in the temporary file
 * (".BASE.XXXXXX"), which the next write to the same path removes. Devices, pipes and
 * "-" (standard output) are written in place and never removed: there is nothing there to
 * lose and nothing that rename could replace.
 *
 *   st_outfile o;
 *   if (st_outfile_open(&o, path, "w")) ... errno says why ...
 *   fputs("...", o.file);
 *   if (ok) rc = st_outfile_commit(&o); else st_outfile_abort(&o);
 */
#ifndef ST_OUTFILE_H
#define ST_OUTFILE_H

#include <stdio.h>

typedef struct st_outfile {
  FILE *file;      /* where to write */
  char *target;    /* the file put in place at commit (links resolved); NULL when in place */
  char *temp;      /* the temporary file beside target; NULL when in place */
} st_outfile;

/* Opens path for writing with fopen() mode `mode` ("w", "w+b", ...). "-" is standard output
 * (a duplicate of its descriptor). The temporary file gets the mode of the file it replaces,
 * or 0666 less the umask. Returns 0, or -1 with errno set and o->file NULL. */
int st_outfile_open(st_outfile *o, const char *path, const char *mode);

/* Closes the file and puts it in place. Returns 0, or -1 with errno set (the temporary file
 * is removed and the target left as it was). */
int st_outfile_commit(st_outfile *o);

/* Closes the file and removes the temporary one: the target stays as it was. Written-in-place
 * outputs are only closed. */
void st_outfile_abort(st_outfile *o);

/* 1 when a and b name the same file: the same inode if both exist, else the same path once
 * the directories are resolved. For refusing an output that would replace an input. */
int st_same_file(const char *a, const char *b);

#endif
