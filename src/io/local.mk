# io module: result writers (CSV, MAT v4 dsres), the table reader, the csv-compare tube rule
# and the gnuplot script behind `stiction plot`.
libstiction_core_la_SOURCES += \
	src/io/writer_impl.h src/io/writer.c src/io/csv_writer.c src/io/mat_writer.c \
	src/io/shortest.h src/io/shortest.c src/io/pow10_table.c \
	src/io/scan.h src/io/scan.c
libstiction_core_la_SOURCES += \
	src/io/table_impl.h src/io/table.c src/io/csv_read.c src/io/mat_read.c
libstiction_core_la_SOURCES += \
	src/io/compare.h src/io/tube.c src/io/compare.c src/io/compare_print.c
libstiction_core_la_SOURCES += src/io/plot.h src/io/plot.c
