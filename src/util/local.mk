# Shared base: region allocator, the dense LU, located diagnostics, status phrases, worker pool, stack depth, sparse vectors.
libstiction_core_la_SOURCES += \
	src/util/arena.c src/util/arena.h \
	src/util/dense_lu.c src/util/dense_lu.h \
	src/util/diag.c src/util/diag.h \
	src/util/hash.c src/util/hash.h \
	src/util/strfmt.c src/util/strfmt.h \
	src/util/finite.h \
	src/util/outfile.c src/util/outfile.h \
	src/util/pool.c src/util/pool.h \
	src/util/sparsevec.c src/util/sparsevec.h \
	src/util/stack.c src/util/stack.h \
	src/util/status.c
pkginclude_HEADERS += include/stiction/stiction.h include/stiction/model.h \
	include/stiction/simulate.h include/stiction/results.h
