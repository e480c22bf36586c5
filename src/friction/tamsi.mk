# TAMSI implicit Stribeck solver (include/stiction/tamsi.h, doc/tamsi.md).
libstiction_core_la_SOURCES += \
	src/friction/tamsi.c src/friction/tamsi_internal.h \
	src/friction/tamsi_forces.c src/friction/tamsi_limiter.c src/friction/tamsi_solve.c \
	src/friction/tamsi_json.c src/friction/tamsi_json.h \
	src/friction/tamsi_box.c src/friction/tamsi_box.h
pkginclude_HEADERS += include/stiction/tamsi.h
