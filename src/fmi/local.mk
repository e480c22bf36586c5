# fmi module: FMI 2.0 export. The export (modelDescription.xml, the archive) is part of the
# core library; the FMU's own shared library, stiction_fmi2.so, is fmi2.c linked with the
# core's PIC objects and, when their archives are installed, SUNDIALS, KLU and json-c, so
# that an FMU runs where stiction is not installed (doc/fmi.md).
libstiction_core_la_SOURCES += \
	src/fmi/fmu.c src/fmi/fmu.h src/fmi/zip.c src/fmi/zip.h \
	src/fmi/export.c src/fmi/export.h src/fmi/describe.c src/fmi/fmi2_abi.h

noinst_LTLIBRARIES += libstiction_fmi2.la
libstiction_fmi2_la_SOURCES = src/fmi/fmi2.c
libstiction_fmi2_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
EXTRA_DIST += src/fmi/fmi2.map

# Makefile too: configure decides FMI2_LIBS (what the library carries inside)
stiction_fmi2.so: libstiction_fmi2.la libstiction_core.la $(srcdir)/src/fmi/fmi2.map Makefile
	$(AM_V_CCLD)$(CC) $(CFLAGS) $(LDFLAGS) -shared -o $@ \
	  -Wl,--whole-archive .libs/libstiction_fmi2.a -Wl,--no-whole-archive \
	  .libs/libstiction_core.a $(FMI2_LIBS) \
	  -Wl,--version-script=$(srcdir)/src/fmi/fmi2.map

all-local: stiction_fmi2.so
CLEANFILES += stiction_fmi2.so
install-exec-local: stiction_fmi2.so
	$(MKDIR_P) '$(DESTDIR)$(pkglibdir)'
	$(INSTALL_PROGRAM) stiction_fmi2.so '$(DESTDIR)$(pkglibdir)/stiction_fmi2.so'
