# front module: add sources here (libstiction_core_la_SOURCES += ...)
