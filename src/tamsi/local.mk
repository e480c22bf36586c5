# TAMSI implicit Stribeck solver (include/stiction/tamsi.h, doc/tamsi.md).
libstiction_core_la_SOURCES += \
	src/tamsi/tamsi.c src/tamsi/tamsi_internal.h \
	src/tamsi/tamsi_forces.c src/tamsi/tamsi_limiter.c src/tamsi/tamsi_solve.c \
	src/tamsi/tamsi_json.c src/tamsi/tamsi_json.h \
	src/tamsi/tamsi_box.c src/tamsi/tamsi_box.h
pkginclude_HEADERS += include/stiction/tamsi.h
