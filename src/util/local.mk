# Shared base: region allocator, located diagnostics, status phrases, worker pool.
libstiction_core_la_SOURCES += \
	src/util/arena.c src/util/arena.h \
	src/util/diag.c src/util/diag.h \
	src/util/finite.h \
	src/util/outfile.c src/util/outfile.h \
	src/util/pool.c src/util/pool.h \
	src/util/status.c
pkginclude_HEADERS += include/stiction/stiction.h include/stiction/model.h \
	include/stiction/simulate.h include/stiction/results.h
