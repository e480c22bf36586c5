# friction module: add sources here (libstiction_core_la_SOURCES += ...)
include src/friction/tamsi.mk
