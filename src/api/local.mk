# api module: the public Modelica API (include/stiction/modelica.h) over front, compile,
# exec and runtime
pkginclude_HEADERS += include/stiction/modelica.h
libstiction_core_la_SOURCES += src/api/modelica.c
