/*
 * Result files: writers that plug into a simulation as a stiction_sink, and a reader for
 * comparing and plotting results.
 *
 * Formats:
 *   CSV    first column "time", header = variable names, one row per output row, written
 *          and flushed as produced (a failed run keeps its rows).
 *   MAT    MATLAB v4 in the Dymola/OpenModelica "dsres" layout: Aclass, name, description,
 *          dataInfo, data_1, data_2. Every variable goes to data_2 (one column per row of
 *          output); the column count in the header is updated as rows arrive.
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

/* Opens path for writing. On success *out owns the file; close it with
 * stiction_writer_close(). */
int stiction_writer_open(stiction_writer **out, const char *path, stiction_result_format format);

/* Fills *sink so that a simulation writes into w (the sink borrows w). */
void stiction_writer_sink(stiction_writer *w, stiction_sink *sink);

/* Completes the file (MAT header sizes), closes it and frees w. Returns STICTION_OK or
 * STICTION_ERR_IO. Safe on NULL. */
int stiction_writer_close(stiction_writer *w);

/* A result table in memory (rows x columns, row-major), read from CSV or MAT. */
typedef struct stiction_table stiction_table;

/* Reads a result or reference file: stiction's CSV or MAT, or a reference CSV (quoted
 * headers, duplicated event rows). On failure returns an error status and, if message is not
 * NULL, a one-line reason (at most size bytes). */
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
