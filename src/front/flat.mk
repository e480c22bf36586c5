# Flat model (front end -> compiler interface), owned apart from the parser's fragment.
libstiction_core_la_SOURCES += src/front/flat.c src/front/flat.h \
	src/front/flat_io.c src/front/flat_io.h
