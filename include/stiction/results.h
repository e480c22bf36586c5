/*
 * Result files: writers that plug into a simulation as a stiction_sink, and a reader for
 * comparing and plotting results.
 *
 * Formats (details in doc/results.md):
 *   CSV    first column "time", header = variable names (quoted only if needed), one line
 *          per output row (time with the shortest exact digits, other values %.17g).
 *   MAT    MATLAB v4 in the Dymola/OpenModelica "dsres" layout: Aclass, name, description,
 *          dataInfo, data_1, data_2 ("binTrans"). Every variable goes to data_2 (one column
 *          per row of output); the column count in the header is updated as rows arrive.
 * A result never destroys the file it replaces before it is complete: rows go to a temporary
 * file beside the path (".NAME.XXXXXX"), which replaces the path at stiction_writer_close()
 * when the run ended well. After a failed run the path keeps its previous contents, unless
 * stiction_writer_keep_partial() asked for the rows computed before the failure. By default
 * every row is on disk (flushed) before the sink's row() returns, so a process that dies
 * leaves them readable in the temporary file; stiction_writer_set_flush_interval() trades
 * that for speed.
 * Event instants give two rows with the same time; both are written, in order.
 *
 *   stiction_writer *w;
 *   if (stiction_writer_open(&w, "out.mat", STICTION_FORMAT_AUTO)) ... errno says why ...
 *   stiction_sink sink;
 *   stiction_writer_sink(w, &sink);
 *   stiction_sim_set_sink(sim, &sink);
 *   int rc = stiction_sim_run(sim);
 *   int rc2 = stiction_writer_close(w);
 *
 * Comparing with a reference (the csv-compare tube rule) is in src/io/compare.h.
 */
#ifndef STICTION_RESULTS_H
#define STICTION_RESULTS_H

#include <stiction/simulate.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum stiction_result_format {
  STICTION_FORMAT_AUTO = 0,   /* from the file name: .mat is MAT, anything else CSV */
  STICTION_FORMAT_CSV = 1,
  STICTION_FORMAT_MAT = 2
} stiction_result_format;

typedef struct stiction_writer stiction_writer;

/* Opens path for writing: "-" is standard output (CSV only), a device or pipe is written in
 * place, anything else is written beside path and renamed over it at close (a symbolic link
 * stays and its file is replaced; other hard links keep the old contents; the new file takes
 * the old one's permissions). On success *out owns the file; close it with
 * stiction_writer_close(). On failure returns STICTION_ERR_IO with errno set (the directory
 * must be writable) or STICTION_ERR_ARG / STICTION_ERR_NOMEM, and sets *out to NULL. */
int stiction_writer_open(stiction_writer **out, const char *path, stiction_result_format format);

/* Fills *sink so that a simulation writes into w (the sink borrows w). begin() may be called
 * once (names must not be NULL); row() before begin() or after a write error fails. */
void stiction_writer_sink(stiction_writer *w, stiction_sink *sink);

/* Flush policy: 0 (the default) puts every row on disk before row() returns; seconds > 0
 * lets rows collect in memory and puts them on disk when a row arrives at least that long
 * after the last flush, and at the sink's end() and at close. A process killed in between
 * loses at most the rows of the last interval; the file is readable either way (a MAT
 * header announces only flushed rows). A system call per row is a large part of a short
 * simulation's process time (doc/results.md). Safe on NULL. */
void stiction_writer_set_flush_interval(stiction_writer *w, double seconds);

/* After a failed run (the sink's end() got a non-zero status), put the rows computed before
 * the failure in place of the previous file at close, when there is at least one. Off by
 * default: the previous file is kept. Safe on NULL. */
void stiction_writer_keep_partial(stiction_writer *w, int keep);

/* Completes the file (MAT header sizes), closes it, puts it in place (see above; otherwise
 * the temporary file is removed and the path left as it was) and frees w. Returns
 * STICTION_OK or STICTION_ERR_IO (a write failed: the path is left as it was). Safe on NULL. */
int stiction_writer_close(stiction_writer *w);

/* A result table in memory (rows x columns, row-major), read from CSV or MAT. */
typedef struct stiction_table stiction_table;

/* Reads a result or reference file: stiction's CSV or MAT (recognised by content), a
 * reference CSV (quoted headers, duplicated event rows, CRLF), or a dsres MAT file of another
 * tool (binTrans or binNormal, data_1/data_2, signed indices). The first column is time and is
 * named "time" whatever its spelling in the file (time, Time, t). Rows keep the file order.
 * On failure returns an error status, sets *out to NULL and, if message is not NULL, writes a
 * one-line reason "file:line:col: ..." (CSV) or "file: ..." (at most size bytes). */
int stiction_table_read(stiction_table **out, const char *path, char *message, size_t size);
void stiction_table_free(stiction_table *table);
int stiction_table_rows(const stiction_table *table);
int stiction_table_columns(const stiction_table *table);
const char *stiction_table_name(const stiction_table *table, int column);
/* Column index of a name, or -1. */
int stiction_table_find(const stiction_table *table, const char *name);
/* Pointer to the row-major data (rows * columns doubles), owned by the table. */
const double *stiction_table_data(const stiction_table *table);

#ifdef __cplusplus
}
#endif

#endif
